import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { InitialResponse, ProductCard, ProductListResponse } from '../../src/contract/catalog.ts';
import { roublesToDollars } from '../../src/contract/money.ts';
import { translator } from '../../src/web/i18n/messages.ts';
import { axeViolations } from './axe.ts';
import { useBrowser } from './browser.ts';

/**
 * Filters shoppers expect (issue 29, ADR 0062) on the figures category: two projects at once, in
 * stock with a price sort, a price range in the page's currency, a chip removed, clear all, and a
 * project whose figures are all sold out shown disabled with its 0.
 */

const api = async <T>(baseUrl: string, path: string): Promise<T> =>
  (await fetch(`${baseUrl}${path}`)).json() as Promise<T>;

const pays = (card: ProductCard) => card.sale ?? card.price;

const cardNames = (page: Page) => page.locator('.product-grid .product-card__name').allTextContents();

describe.each([
  { locale: 'ru' as const, viewport: { width: 1366, height: 900 } },
  { locale: 'en' as const, viewport: { width: 390, height: 844 } },
])('filters on a category ($locale, $viewport.width px)', ({ locale, viewport }) => {
  const browser = useBrowser({ locale: locale === 'ru' ? 'ru-RU' : 'en-US', viewport });
  const t = translator(locale);

  it('two projects, in stock dearest first, a price range, a chip removed, clear all; a sold-out project disabled at 0', async () => {
    const { page, baseUrl } = browser;
    const whole = await api<ProductListResponse>(baseUrl, `/api/category?locale=${locale}&link=figures`);
    const { currencyUsd } = await api<InitialResponse>(baseUrl, `/api/initial?locale=${locale}`);
    const productsOf = (projectId: number) => whole.products.filter((card) => card.project_id === projectId);
    const soldOut = whole.projects.find((project) =>
      productsOf(project.id).every((card) => card.inStock === 0),
    );
    const [first, second] = whole.projects.filter((project) =>
      productsOf(project.id).some((card) => card.inStock > 0),
    );
    if (!soldOut || !first || !second)
      throw new Error('the demo figures changed: no sold-out project or two in stock');

    await page.goto(`/category/figures?lang=${locale}`);
    await page.locator('#navigation-panel .navigation-panel__close').waitFor({ state: 'attached' });
    const filters = page.getByRole('complementary', { name: t('catalogue') });
    const openFilters = async () => {
      if (await filters.isVisible()) return;
      await page.getByRole('button', { name: t('filters-and-sort'), exact: true }).click();
      await filters.waitFor();
    };
    const closeFilters = async () => {
      await page.locator('.list-options__show').click();
      await filters.waitFor({ state: 'hidden' });
    };
    const choice = (name: string) => filters.getByRole('checkbox', { name: new RegExp(`^${name}`) });
    const shownCount = (count: number) =>
      page.getByRole('heading', { level: 2, name: t('products-count', { count }) }).waitFor();
    const query = () => new URL(page.url()).searchParams;

    // Two values of one group: a figure of either project.
    await openFilters();
    await choice(first.name).check();
    await expect.poll(() => query().getAll('project')).toEqual([String(first.id)]);
    await choice(second.name).check();
    await expect
      .poll(() => query().getAll('project').sort())
      .toEqual([String(first.id), String(second.id)].sort());
    const both = whole.products.filter(
      (card) => card.project_id === first.id || card.project_id === second.id,
    );
    await shownCount(both.length);

    // In stock only, dearest first: the filter and the sort together.
    await choice(t('in-stock-only')).check();
    await page.getByLabel(t('sort')).selectOption('desc');
    await expect.poll(() => [query().get('available'), query().get('sort')]).toEqual(['1', 'desc']);
    const inStock = both.filter((card) => card.inStock > 0).sort((a, b) => pays(b) - pays(a));
    await shownCount(inStock.length);
    expect(await cardNames(page)).toEqual(inStock.map((card) => card.name));
    // The sold-out project would show nothing now: disabled, with its 0.
    const zero = choice(soldOut.name);
    expect(await zero.isDisabled()).toBe(true);
    expect(
      await filters
        .locator('label.filter-option', { hasText: soldOut.name })
        .locator('.side-section__count')
        .textContent(),
    ).toBe('0');
    expect(await axeViolations(page, '.shop-list')).toEqual([]);

    // A price range in the page's currency, from the dearest one's shown price (included).
    const dearest = inStock[0];
    if (!dearest) throw new Error('nothing in stock');
    const shown = (roubles: number) => (locale === 'ru' ? roubles : roublesToDollars(roubles, currencyUsd));
    await page.getByLabel(t('price-range-min'), { exact: true }).fill(String(shown(pays(dearest))));
    await page
      .getByLabel(t('price-range-max'), { exact: true })
      .fill(String(Math.ceil(shown(pays(dearest))) + 10));
    await page.getByRole('button', { name: t('apply-price'), exact: true }).click();
    await expect.poll(() => query().get('price_min')).toBe(String(shown(pays(dearest))));
    const inRange = inStock.filter((card) => pays(card) >= pays(dearest));
    await shownCount(inRange.length);
    expect(await cardNames(page)).toEqual(inRange.map((card) => card.name));

    // Each active filter is a chip: removing the price's brings its figures back.
    if (viewport.width < 900) await closeFilters();
    const chips = page.getByRole('list', { name: t('active-filters') }).getByRole('link');
    expect(await chips.count()).toBe(4);
    await chips.filter({ hasText: /–/ }).click();
    await expect.poll(() => query().has('price_min')).toBe(false);
    await shownCount(inStock.length);
    expect(await chips.count()).toBe(3);
    await page.getByRole('link', { name: new RegExp(`^${second.name}\\s*: ${t('remove-filter')}$`) }).click();
    await expect.poll(() => query().getAll('project')).toEqual([String(first.id)]);

    // Clear all: every figure, the sort kept.
    await page.getByRole('link', { name: t('clear-filters'), exact: true }).click();
    await expect.poll(() => page.url()).toMatch(/\/category\/figures\?sort=desc$/);
    await shownCount(whole.products.length);
    expect(await chips.count()).toBe(0);
    await openFilters();
    expect(await choice(first.name).isChecked()).toBe(false);
    expect(await zero.isDisabled()).toBe(false);
  });
});

describe('filters without JavaScript', () => {
  const browser = useBrowser({
    locale: 'ru-RU',
    viewport: { width: 1366, height: 900 },
    javaScriptEnabled: false,
  });
  const t = translator('ru');

  it('takes the old sort=available address to the in-stock filter and applies checkboxes with a button', async () => {
    const { page, baseUrl } = browser;
    const whole = await api<ProductListResponse>(baseUrl, '/api/category?locale=ru&link=figures');
    const project = whole.projects[0];
    if (!project) throw new Error('no projects in figures');
    await page.goto('/category/figures?sort=available');
    expect(new URL(page.url()).search).toBe('?available=1');
    const filters = page.getByRole('complementary', { name: t('catalogue') });
    expect(
      await filters.getByRole('checkbox', { name: new RegExp(`^${t('in-stock-only')}`) }).isChecked(),
    ).toBe(true);
    await filters.getByRole('checkbox', { name: new RegExp(`^${project.name}`) }).check();
    await filters.getByRole('button', { name: t('apply-filters') }).click();
    await page.waitForURL((url) => url.searchParams.get('project') === String(project.id));
    expect(new URL(page.url()).searchParams.get('available')).toBe('1');
    const expected = whole.products.filter((card) => card.project_id === project.id && card.inStock > 0);
    expect(await page.locator('.product-card').count()).toBe(expected.length);
    await page
      .getByRole('link', { name: new RegExp(`^${project.name}\\s*: ${t('remove-filter')}$`) })
      .click();
    await page.waitForURL((url) => !url.searchParams.has('project'));
  });
});
