import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeViolations } from './axe.ts';
import { useBrowser } from './browser.ts';

/** The home page, hydrated: the header's search field reacts to typing. */
async function openShop(page: Page) {
  await page.goto('/');
  await page.locator('#navigation-panel .navigation-panel__close').waitFor({ state: 'attached' });
}

const field = (page: Page, name: string) => page.getByRole('combobox', { name });

/**
 * Typing with a typo, picking a suggestion with the keyboard and landing on the product, in both
 * languages; the open suggestions pass axe-core.
 */
async function pickWithKeyboard(
  page: Page,
  options: { label: string; listbox: string; typed: string; downs: number },
) {
  await openShop(page);
  const search = field(page, options.label);
  await search.pressSequentially(options.typed, { delay: 40 });
  const listbox = page.getByRole('listbox', { name: options.listbox });
  await listbox.waitFor();
  expect(await search.getAttribute('aria-expanded')).toBe('true');
  expect(await search.getAttribute('aria-controls')).toBe(await listbox.getAttribute('id'));
  expect(await listbox.getByRole('option').count()).toBeGreaterThan(0);
  expect(await axeViolations(page, '.search-field')).toEqual([]);

  for (let step = 0; step < options.downs; step++) await search.press('ArrowDown');
  const active = await search.getAttribute('aria-activedescendant');
  if (!active) throw new Error('no option is active after the arrow keys');
  const option = page.locator(`#${active}`);
  expect(await option.getAttribute('aria-selected')).toBe('true');
  const name = (await option.locator('.search-suggestion__name').textContent()) ?? '';
  await search.press('Enter');
  await page.waitForURL(/\/product\//);
  await page.getByRole('heading', { level: 1, name }).waitFor();
  return name;
}

describe('suggestions while typing, in English', () => {
  const browser = useBrowser();

  it('types "Copmass", picks the first suggestion with the arrow keys and lands on the product', async () => {
    const name = await pickWithKeyboard(browser.page, {
      label: 'Search',
      listbox: 'Suggestions',
      typed: 'Copmass',
      downs: 1,
    });
    expect(name).toMatch(/Compass/);
  });

  it('closes on Escape, and Enter without a chosen suggestion opens the search page', async () => {
    const { page } = browser;
    await openShop(page);
    const search = field(page, 'Search');
    await search.pressSequentially('outlaws mug', { delay: 40 });
    await page.getByRole('listbox', { name: 'Suggestions' }).waitFor();
    await search.press('Escape');
    expect(await search.getAttribute('aria-expanded')).toBe('false');
    await search.press('Enter');
    await page.waitForURL(/\/search\/outlaws%20mug$/);
    await page.getByRole('link', { name: 'Saloon Mug' }).first().waitFor();
  });

  it('ends the suggestions with "Search for …", which opens the search page', async () => {
    const { page } = browser;
    await openShop(page);
    const search = field(page, 'Search');
    await search.pressSequentially('saloon', { delay: 40 });
    const listbox = page.getByRole('listbox', { name: 'Suggestions' });
    await listbox.waitFor();
    const last = listbox.getByRole('option').last();
    expect(await last.textContent()).toBe('Search for “saloon”');
    await search.press('ArrowUp');
    expect(await search.getAttribute('aria-activedescendant')).toBe(await last.getAttribute('id'));
    await search.press('Enter');
    await page.waitForURL(/\/search\/saloon$/);
  });

  it('takes a blank search to the whole catalogue, not to "nothing found for «»"', async () => {
    const { page } = browser;
    await page.goto('/search/%20');
    await page.waitForURL(/\/products$/);
    await openShop(page);
    const search = field(page, 'Search');
    await search.fill('   ');
    await search.press('Enter');
    await page.waitForURL(/\/products$/);
  });

  it('offers "did you mean" and popular products when nothing is found', async () => {
    const { page } = browser;
    await page.goto('/search/saloom%20qqq');
    await page.getByText('Did you mean:').waitFor();
    await page.getByRole('heading', { name: 'Popular now' }).waitFor();
  });
});

describe('suggestions while typing, in Russian', () => {
  const browser = useBrowser({ locale: 'ru-RU' });

  it('types "кружак", picks the second suggestion with the arrow keys and lands on the product', async () => {
    const name = await pickWithKeyboard(browser.page, {
      label: 'Поиск',
      listbox: 'Подсказки',
      typed: 'кружак',
      downs: 2,
    });
    expect(name).toMatch(/Кружка|Набор/);
  });
});

describe('suggestions on a phone', () => {
  const browser = useBrowser({ viewport: { width: 390, height: 844 } });

  it('fit the screen and open a game page with a tap', async () => {
    const { page } = browser;
    await openShop(page);
    await field(page, 'Search').pressSequentially('pixel out', { delay: 40 });
    const listbox = page.getByRole('listbox', { name: 'Suggestions' });
    await listbox.waitFor();
    const box = await listbox.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
    await listbox.getByRole('option', { name: /Pixel Outlaws/ }).click();
    await page.waitForURL(/\/project\/pixel-outlaws$/);
  });
});
