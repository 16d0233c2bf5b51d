import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { InitialResponse } from '../../src/contract/catalog.ts';
import { axeViolations } from './axe.ts';
import { useBrowser } from './browser.ts';
import { signUp } from './shopper.ts';

/**
 * axe-core on every page a shopper can reach, in both languages, on a phone and a wide screen; the
 * modal parts (menu, test-mode notice, list drawer) keep focus as a dialog should; and the phone
 * layout leaves room for what the shopper came for.
 */

const PHONE = { width: 390, height: 844 };
const WIDE = { width: 1366, height: 900 };
type Locale = 'ru' | 'en';

const TEXT = {
  en: { menu: 'Menu', filters: 'Filters and sort', next: 'Next', catalogue: 'Catalogue', sort: 'Sort' },
  ru: {
    menu: 'Меню',
    filters: 'Фильтры и сортировка',
    next: 'Далее',
    catalogue: 'Каталог',
    sort: 'Сортировка',
  },
} as const;

async function useLocale(page: Page, baseUrl: string, locale: Locale) {
  await page.context().addCookies([{ name: 'locale', value: locale, url: baseUrl }]);
}

/** Opens a page and waits until it is hydrated (the menu panel is filled in the browser) and idle. */
async function open(page: Page, path: string) {
  await page.goto(path);
  await page.locator('#navigation-panel .navigation-panel__close').waitFor({ state: 'attached' });
  await page.waitForLoadState('networkidle');
}

/** The page as it is now passes axe-core at both widths. */
async function expectNoViolations(page: Page, what: string) {
  for (const viewport of [PHONE, WIDE]) {
    await page.setViewportSize(viewport);
    expect(await axeViolations(page), `${what} at ${viewport.width} px`).toEqual([]);
  }
}

async function initial(baseUrl: string, locale: Locale) {
  return (await (await fetch(`${baseUrl}/api/initial?locale=${locale}`)).json()) as InitialResponse;
}

/** One in-stock product of the week in the basket and in the wishlist, as the product page's buttons do. */
async function fillBasketAndWishlist(page: Page) {
  await page.evaluate(async () => {
    const week = ((await (await fetch('/api/initial?locale=en')).json()) as InitialResponse).week;
    const product = week.find((item) => item.inStock >= 3 && !item.hasOptions);
    if (!product) throw new Error('no product in stock');
    for (const list of ['basket', 'wishlist']) {
      const answer = await fetch(`/api/${list}`, {
        method: 'POST',
        headers: { accept: 'application/json' },
        body: new URLSearchParams({ product: String(product.id) }),
      });
      if (!answer.ok) throw new Error(`${list} answered ${answer.status}`);
    }
  });
}

/** Fills the recipient on the shipping step and waits until the delivery is quoted and Next can be pressed. */
async function fillRecipient(page: Page, locale: Locale) {
  for (const [name, value] of [
    ['firstName', 'Ada'],
    ['lastName', 'Lovelace'],
    ['phone', '+7 900 123 45 67'],
    ['city', 'Kazan'],
    ['zip', '420111'],
    ['address', 'Baumana 44'],
  ]) {
    await page.locator(`input[name="${name}"]`).fill(value as string);
  }
  await page.locator('select[name="country"]').selectOption('RU');
  await expect
    .poll(() => page.getByRole('button', { name: TEXT[locale].next }).isEnabled(), { timeout: 20_000 })
    .toBe(true);
}

/** Whether focus is inside `container`, or nowhere in the page (passed to the browser's own controls). */
const focusStaysIn = (container: Locator) =>
  container.evaluate(
    (element) => document.activeElement === document.body || element.contains(document.activeElement),
  );

const isFocused = (locator: Locator) => locator.evaluate((element) => element === document.activeElement);

describe.each(['ru', 'en'] as const)('every shop page in %s', (locale) => {
  const browser = useBrowser({ locale: locale === 'ru' ? 'ru-RU' : 'en-US', viewport: PHONE });

  it('passes axe-core on a phone and a wide screen, signed out and signed in', async () => {
    const { page, baseUrl } = browser;
    await useLocale(page, baseUrl, locale);
    const { categories, projects, week } = await initial(baseUrl, locale);
    const [category, project, product] = [categories[0], projects[0], week[0]];
    if (!category || !project || !product) throw new Error('demo data is missing');

    // A first visit shows the test-mode notice over the page.
    await page.context().clearCookies({ name: 'overlay-test-info' });
    await open(page, '/');
    await page.getByRole('dialog').waitFor();
    await expectNoViolations(page, 'the test-mode notice');
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });

    for (const path of ['/login', '/registration', '/restore']) {
      await open(page, path);
      await expectNoViolations(page, path);
    }

    await signUp(page, locale);
    await fillBasketAndWishlist(page);
    for (const path of [
      '/',
      `/project/${project.link}`,
      `/category/${category.link}`,
      `/product/${product.link}`,
      '/search/mug',
      '/cart',
      '/wishlist',
      '/profile',
      '/feedback',
      '/partners',
      '/about',
      '/shipping',
      '/payment',
      '/privacy-policy',
      '/no-such-page',
    ]) {
      await open(page, path);
      await expectNoViolations(page, path);
    }

    // The open menu and the open list drawer (a phone's).
    await page.setViewportSize(PHONE);
    await open(page, `/category/${category.link}`);
    await page.getByRole('button', { name: TEXT[locale].menu, exact: true }).click();
    await page.getByRole('dialog', { name: TEXT[locale].menu }).waitFor();
    expect(await axeViolations(page), 'the open menu').toEqual([]);
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: TEXT[locale].filters }).click();
    await page.getByRole('complementary', { name: TEXT[locale].catalogue }).waitFor();
    expect(await axeViolations(page), 'the open list drawer').toEqual([]);

    // Checkout: the shipping step, the payment step of the order it made, the order history.
    await open(page, '/order/shipping');
    await expectNoViolations(page, '/order/shipping');
    await fillRecipient(page, locale);
    await expectNoViolations(page, '/order/shipping, filled in');
    await page.getByRole('button', { name: TEXT[locale].next }).click();
    await page.waitForURL((url) => url.pathname === '/order/payment');
    await page.locator('#navigation-panel .navigation-panel__close').waitFor({ state: 'attached' });
    await expectNoViolations(page, '/order/payment');
    await open(page, '/order/history');
    await expectNoViolations(page, '/order/history');
  }, 180_000);
});

describe('dialogs keep focus', () => {
  const browser = useBrowser({ viewport: PHONE });

  it('the menu: focus moves in, Tab stays inside, Escape closes it and focus returns to the menu button', async () => {
    const { page } = browser;
    await open(page, '/');
    const toggle = page.getByRole('button', { name: 'Menu', exact: true });
    const panel = page.getByRole('dialog', { name: 'Menu' });
    await toggle.click();
    await panel.waitFor();
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    expect(await panel.evaluate((element) => element.contains(document.activeElement))).toBe(true);
    const reached = new Set<string>();
    for (let step = 0; step < 40; step++) {
      await page.keyboard.press('Tab');
      expect(await focusStaysIn(panel), `after ${step + 1} Tab presses`).toBe(true);
      reached.add(await page.evaluate(() => document.activeElement?.textContent ?? ''));
    }
    // It went round the panel's links, not stuck on one.
    expect(reached.size).toBeGreaterThan(10);

    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'hidden' });
    expect(await isFocused(toggle)).toBe(true);
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');

    // A click beside the panel, on the dimmed page, closes it too.
    await toggle.click();
    await panel.waitFor();
    await page.mouse.click(PHONE.width - 20, PHONE.height / 2);
    await panel.waitFor({ state: 'hidden' });
    expect(await isFocused(toggle)).toBe(true);
  });

  it('the test-mode notice: modal with focus on OK until answered; Escape answers it for good', async () => {
    const { page, baseUrl } = browser;
    await useLocale(page, baseUrl, 'ru');
    await page.context().clearCookies({ name: 'overlay-test-info' });
    await open(page, '/');
    const notice = page.getByRole('dialog');
    await notice.getByText('Магазин работает в тестовом режиме', { exact: false }).waitFor();
    expect(await notice.evaluate((element) => element.matches(':modal'))).toBe(true);
    expect(await isFocused(notice.getByRole('button', { name: 'ОК' }))).toBe(true);
    for (let step = 0; step < 5; step++) {
      await page.keyboard.press('Tab');
      expect(await focusStaysIn(notice)).toBe(true);
    }
    await page.keyboard.press('Escape');
    await notice.waitFor({ state: 'detached' });
    await expect
      .poll(
        async () =>
          (await page.context().cookies()).find((cookie) => cookie.name === 'overlay-test-info')?.value,
      )
      .toBe('hidden');
    await open(page, '/');
    expect(await page.getByRole('dialog').count()).toBe(0);
  });
});

describe('the phone layout', () => {
  const browser = useBrowser({ viewport: PHONE });

  it.each(['ru', 'en'] as const)(
    '%s: a compact header, the first products above the fold, sort and filters in a drawer',
    async (locale) => {
      const { page, baseUrl } = browser;
      await useLocale(page, baseUrl, locale);
      const text = TEXT[locale];
      await open(page, '/category/t-shirts');
      const header = await page.locator('.site-header').boundingBox();
      expect(header?.height).toBeLessThanOrEqual(90);
      // The search field is in the header, not behind a button.
      expect(await page.getByRole('banner').getByRole('combobox').isVisible()).toBe(true);
      const firstCard = await page.locator('.product-card').first().boundingBox();
      expect((firstCard?.y ?? Number.POSITIVE_INFINITY) + 100).toBeLessThan(PHONE.height);

      const filters = page.getByRole('complementary', { name: text.catalogue });
      const sort = page.getByRole('combobox', { name: text.sort });
      expect(await filters.isVisible()).toBe(false);
      expect(await sort.isVisible()).toBe(false);
      const button = page.getByRole('button', { name: text.filters });
      await button.click();
      await filters.waitFor();
      expect(await sort.isVisible()).toBe(true);
      const count = await page.locator('.product-card').count();
      // A filter chosen in the drawer narrows the list behind it; the drawer stays for the next one.
      const project = filters
        .locator('label.filter-option', { has: page.locator('input[name="project"]') })
        .first();
      const shown = Number(await project.locator('.side-section__count').textContent());
      await project.getByRole('checkbox').click();
      await page.waitForURL((url) => url.searchParams.has('project'));
      await expect.poll(() => page.locator('.product-card').count()).toBe(shown);
      expect(shown).toBeLessThan(count);
      expect(await filters.isVisible()).toBe(true);
      await page.keyboard.press('Escape');
      await filters.waitFor({ state: 'hidden' });
      expect(await isFocused(button)).toBe(true);

      // A wide screen shows the same filters and sort in place, without the button.
      await page.setViewportSize(WIDE);
      expect(await filters.isVisible()).toBe(true);
      expect(await sort.isVisible()).toBe(true);
      expect(await button.isVisible()).toBe(false);
    },
  );

  it('the shipping step keeps the total and Next on the screen while the form is filled', async () => {
    const { page } = browser;
    await signUp(page, 'en');
    await fillBasketAndWishlist(page);
    await open(page, '/order/shipping');
    const next = page.getByRole('button', { name: 'Next' });
    const total = page.locator('.summary-list__total');
    const onScreen = async (locator: Locator) => {
      const box = await locator.boundingBox();
      return box !== null && box.y >= 0 && box.y + box.height <= PHONE.height;
    };
    expect(await onScreen(next)).toBe(true);
    expect(await onScreen(total)).toBe(true);
    await fillRecipient(page, 'en');
    await page.locator('input[name="address"]').scrollIntoViewIfNeeded();
    expect(await onScreen(next)).toBe(true);
    expect(await onScreen(total)).toBe(true);
    // The field being filled is not under the bar.
    const address = await page.locator('input[name="address"]').boundingBox();
    const bar = await total.boundingBox();
    expect((address?.y ?? 0) + (address?.height ?? 0)).toBeLessThanOrEqual(bar?.y ?? 0);
    await next.click();
    await page.waitForURL((url) => url.pathname === '/order/payment');
  });
});
