import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { and, asc, eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { categories, productImages, products } from '../../src/server/db/schema.ts';
import { giveProductOptions, SIZES } from '../../src/server/testing/variants.ts';
import { hydrated, useBrowser } from './browser.ts';
import { prepareDemoShop } from './own-shop.ts';
import { startShop } from './server.global.ts';

/**
 * Sizes and colours as a shopper meets them: a shop of its own (the demo catalogue, where the
 * Compass Rose T-shirt comes in XS–XXL with M and XXL sold out and XL dearer, and the Expedition
 * Hoodie in two colours with their own pictures), in both languages, at 1366 and 390 px.
 */

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe-core's violations in the product's own part of the page (the header and footer have their
 * own journeys and fixes elsewhere).
 */
async function axeViolations(page: Page) {
  await page.evaluate(axeSource);
  return page.evaluate(async () =>
    (
      await (
        window as unknown as {
          axe: { run(context: string): Promise<{ violations: Array<{ id: string; help: string }> }> };
        }
      ).axe.run('.product')
    ).violations.map(({ id, help }) => `${id}: ${help}`),
  );
}

const TEE = 'Compass Rose T-shirt';
const HOODIE = 'Expedition Hoodie';
let dataDir: string;
let shop: Awaited<ReturnType<typeof startShop>>;
const links: Record<string, string> = {};

/** The demo catalogue with the two products given options, before the shop starts on it. */
function prepareShop(directory: string) {
  return prepareDemoShop(directory, async (db) => {
    const productNamed = async (name: string) => {
      const [row] = await db.select().from(products).where(eq(products.nameEn, name));
      if (!row) throw new Error(`no demo product ${name}`);
      links[name] = row.link;
      return row;
    };
    const tee = await productNamed(TEE);
    await giveProductOptions(db, tee.id, {
      options: [SIZES],
      variants: [
        { values: ['XS'], quantity: 2 },
        { values: ['S'], quantity: 5 },
        { values: ['M'], quantity: 0 },
        { values: ['L'], quantity: 3 },
        { values: ['XL'], quantity: 1, price: 2_690_00 },
        { values: ['XXL'], quantity: 0 },
      ],
    });
    const hoodie = await productNamed(HOODIE);
    const pictures = await db
      .select({ file: productImages.file })
      .from(productImages)
      .where(eq(productImages.productId, hoodie.id))
      .orderBy(asc(productImages.position), asc(productImages.id));
    await giveProductOptions(db, hoodie.id, {
      options: [
        {
          kind: 'colour',
          nameRu: 'Цвет',
          nameEn: 'Colour',
          values: [
            { ru: 'Тёмно-синий', en: 'Navy', swatch: '#1f2a44' },
            { ru: 'Песочный', en: 'Sand', swatch: '#d8c7a3' },
          ],
        },
        { ...SIZES, values: SIZES.values.filter((size) => ['M', 'L'].includes(size.en)) },
      ],
      variants: [
        { values: ['Navy', 'M'], quantity: 2 },
        { values: ['Navy', 'L'], quantity: 1 },
        { values: ['Sand', 'M'], quantity: 0 },
        { values: ['Sand', 'L'], quantity: 4 },
      ],
      pictures: Object.fromEntries(
        pictures.map((picture, index) => [picture.file, index < 2 ? 'Navy' : 'Sand']),
      ),
    });
    await db
      .update(categories)
      .set({
        sizeGuideRu:
          '<table><thead><tr><th>Размер</th><th>Грудь, см</th></tr></thead><tbody><tr><td>S</td><td>92</td></tr><tr><td>M</td><td>98</td></tr><tr><td>L</td><td>104</td></tr></tbody></table>',
        sizeGuideEn:
          '<table><thead><tr><th>Size</th><th>Chest, in</th></tr></thead><tbody><tr><td>S</td><td>36</td></tr><tr><td>M</td><td>38</td></tr><tr><td>L</td><td>41</td></tr></tbody></table>',
      })
      .where(and(eq(categories.link, 't-shirts')));
  });
}

const TEXT = {
  en: {
    size: 'Size',
    soldOut: 'This option is sold out',
    choose: 'Choose the size',
    guide: 'Size guide',
    add: 'Add to cart',
    inStock: (count: number) => `In stock: ${count}`,
    from: /from/,
    sizes: 'Sizes',
    added: 'Added to cart',
    filters: 'Filters and sort',
  },
  ru: {
    size: 'Размер',
    soldOut: 'Этого варианта нет в наличии',
    choose: 'Выберите размер',
    guide: 'Таблица размеров',
    add: 'В корзину',
    inStock: (count: number) => `В наличии: ${count}`,
    from: /от/,
    sizes: 'Размеры',
    added: 'Добавлено в корзину',
    filters: 'Фильтры и сортировка',
  },
} as const;

async function open(page: Page, address: string, locale: 'ru' | 'en') {
  await page.context().addCookies([{ name: 'locale', value: locale, url: shop.baseUrl }]);
  await page.goto(address);
  await hydrated(page);
}

/** The first amount of a price text ("2 490 ₽", "$29.08"). */
const amount = (text: string | null) =>
  Number.parseFloat(
    (/\d[\d\s\u00a0]*(?:[.,]\d+)?/.exec(text ?? '')?.[0] ?? 'NaN')
      .replace(/[\s\u00a0]/g, '')
      .replace(',', '.'),
  );

/** The root layout fills the menu panel once the page is hydrated. */
const shot = async (page: Page, name: string) => {
  mkdirSync('test-results', { recursive: true });
  await page.screenshot({ path: `test-results/variants-${name}.png`, fullPage: false });
};

describe('sizes and colours in a shop of their own', () => {
  const state = useBrowser();

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'vitrina-e2e-variants-'));
    await prepareShop(dataDir);
    shop = await startShop(dataDir);
    state.baseUrl = shop.baseUrl;
  }, 300_000);

  afterAll(async () => {
    await shop?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  for (const locale of ['en', 'ru'] as const) {
    for (const width of [1366, 390]) {
      const text = TEXT[locale];
      describe(`sizes and colours, ${locale}, ${width} px`, () => {
        it('chooses a size: price, stock and address follow it, a reload keeps it, sold-out sizes are crossed out', async () => {
          const { page } = state;
          await page.setViewportSize({ width, height: 900 });
          await open(page, `/product/${links[TEE]}`, locale);
          const price = page.locator('.product__price');
          expect(await price.textContent()).toMatch(text.from);
          const sizes = page.getByRole('group', { name: text.size });
          await sizes.getByRole('radio', { name: 'XL', exact: true }).click();
          await expect.poll(() => new URL(page.url()).searchParams.get('size')).toBe('XL');
          await expect.poll(() => page.locator('.stock').textContent()).toBe(text.inStock(1));
          // XL has its own price, dearer than L's (the product's): no "from" once a size is chosen.
          const extraLarge = amount(await price.textContent());
          await sizes.getByRole('radio', { name: 'L', exact: true }).click();
          await expect.poll(() => page.locator('.stock').textContent()).toBe(text.inStock(3));
          expect(await price.textContent()).not.toMatch(text.from);
          expect(amount(await price.textContent())).toBeLessThan(extraLarge);
          // Screen readers hear the chosen size's price and stock.
          const announcement = await page.locator('.product__info [aria-live="polite"]').textContent();
          expect(announcement).toContain(text.inStock(3));
          expect(amount(announcement)).toBe(amount(await price.textContent()));

          // A shared address shows the same choice, rendered by the server.
          const shared = page.url();
          await page.goto(shared);
          await hydrated(page);
          expect(await page.getByRole('radio', { name: 'L', exact: true }).isChecked()).toBe(true);
          expect(await page.locator('.stock').textContent()).toBe(text.inStock(3));

          const medium = page.locator('.option-value', { has: page.locator('input[value="M"]') });
          expect(await medium.getAttribute('class')).toContain('option-value--sold-out');
          expect(
            await medium
              .locator('.option-value__text')
              .evaluate((node) => getComputedStyle(node).textDecorationLine),
          ).toBe('line-through');
          await medium.locator('input').click();
          await expect.poll(() => page.locator('.stock').textContent()).toBe(text.soldOut);
          expect(await page.getByRole('button', { name: text.add, exact: true }).isDisabled()).toBe(true);
          await shot(page, `size-${locale}-${width}`);
          expect(await axeViolations(page)).toEqual([]);
        });

        it('asks for a size when added without one, then adds the chosen size', async () => {
          const { page } = state;
          await page.setViewportSize({ width, height: 900 });
          await open(page, `/product/${links[TEE]}`, locale);
          await page.getByRole('button', { name: text.add, exact: true }).click();
          await expect.poll(() => page.getByRole('alert').first().textContent()).toBe(text.choose);
          expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.value)).toBe(
            'XS',
          );
          await shot(page, `ask-${locale}-${width}`);
          await page.getByRole('radio', { name: 'S', exact: true }).click();
          await expect.poll(() => new URL(page.url()).searchParams.get('size')).toBe('S');
          await page.getByRole('button', { name: text.add, exact: true }).click();
          await expect.poll(() => page.getByRole('status').first().textContent()).toContain(text.added);
          const basket = await page.request.get(`/api/basket?locale=${locale}`);
          const body = (await basket.json()) as { products: Record<string, { options: string | null }> };
          expect(Object.values(body.products).map((line) => line.options)).toEqual([`${text.size}: S`]);
        });

        it('opens the size guide in a dialog and closes it with Escape', async () => {
          const { page } = state;
          await page.setViewportSize({ width, height: 900 });
          await open(page, `/product/${links[TEE]}`, locale);
          await page.getByRole('button', { name: text.guide }).click();
          const dialog = page.getByRole('dialog', { name: text.guide });
          await dialog.waitFor();
          expect(await dialog.locator('table th').first().textContent()).toBe(text.size);
          await shot(page, `guide-${locale}-${width}`);
          await page.keyboard.press('Escape');
          await dialog.waitFor({ state: 'hidden' });
        });

        it("switches the gallery to a colour's pictures with its swatch", async () => {
          const { page } = state;
          await page.setViewportSize({ width, height: 900 });
          await open(page, `/product/${links[HOODIE]}`, locale);
          // The picture in view: the gallery's slide that holds the one Tab stop (the others are -1).
          const main = page.locator('.gallery__slide .gallery__open[tabindex="0"] img');
          const before = await main.getAttribute('src');
          const sand = page.locator('.option-value--swatch', { has: page.locator('input[value="Sand"]') });
          await sand.locator('input').click();
          await expect.poll(() => new URL(page.url()).searchParams.get('colour')).toBe('Sand');
          await expect.poll(() => main.getAttribute('src')).not.toBe(before);
          expect(await page.locator('.gallery__thumbnails li').count()).toBe(2);
          // Sand M is sold out: crossed out once Sand is chosen.
          const medium = page.locator('.option-value', { has: page.locator('input[value="M"]') });
          expect(await medium.getAttribute('class')).toContain('option-value--sold-out');
          await shot(page, `colour-${locale}-${width}`);
          // Search engines see a ProductGroup varying by colour and size, each variant with its own offer.
          const jsonLd = (await page.locator('script[type="application/ld+json"]').allTextContents()).map(
            (json) => JSON.parse(json) as Record<string, unknown>,
          );
          const group = jsonLd.find((data) => data['@type'] === 'ProductGroup') as {
            variesBy: string[];
            hasVariant: Array<{ sku: string; offers: { availability: string } }>;
          };
          expect(group.variesBy).toEqual(['https://schema.org/color', 'https://schema.org/size']);
          expect(
            group.hasVariant.map((variant) => variant.offers.availability.replace('https://schema.org/', '')),
          ).toEqual(['InStock', 'InStock', 'OutOfStock', 'InStock']);
          expect(await axeViolations(page)).toEqual([]);
        });

        it('filters a list by size with counts, shows from prices and sizes on cards, and quick-adds a product without options', async () => {
          const { page } = state;
          await page.setViewportSize({ width, height: 900 });
          await open(page, '/category/t-shirts', locale);
          const card = page.locator('.product-card', { hasText: locale === 'en' ? TEE : 'Роза ветров' });
          expect(await card.locator('.price').textContent()).toMatch(text.from);
          expect(await card.locator('.product-card__sizes li').allTextContents()).toEqual([
            'XS',
            'S',
            'L',
            'XL',
          ]);
          // The demo catalogue gives many products sizes: the count is the category's products
          // with XS in stock, as its whole list (no `page`: every product) says on the cards.
          const whole = (await (
            await page.request.get(`/api/category?locale=${locale}&link=t-shirts`)
          ).json()) as { products: Array<{ link: string; name: string; sizes: string[] }> };
          const withExtraSmall = whole.products.filter((product) => product.sizes.includes('XS'));
          expect(withExtraSmall.map((product) => product.link)).toContain(links[TEE]);
          // Some T-shirts have no XS in stock, so the filter has something to leave out.
          expect(withExtraSmall.length).toBeLessThan(whole.products.length);
          // On a phone the side sections are in the "Filters and sort" drawer.
          const filters = page.getByRole('button', { name: text.filters, exact: true });
          if (await filters.isVisible()) await filters.click();
          const sizeLink = page
            .locator('.side-section', { hasText: text.sizes })
            .locator('label.filter-option', { hasText: /^XS/ });
          expect(await sizeLink.locator('.side-section__count').textContent()).toBe(
            String(withExtraSmall.length),
          );
          await shot(page, `list-${locale}-${width}`);
          await sizeLink.click();
          await expect.poll(() => new URL(page.url()).searchParams.get('size')).toBe('XS');
          // The filtered list replaces the whole one (which holds these names too): wait for its count.
          await expect.poll(() => page.locator('.product-card').count()).toBe(withExtraSmall.length);
          expect(await page.locator('.product-card .product-card__name').allTextContents()).toEqual(
            expect.arrayContaining(withExtraSmall.map((product) => product.name)),
          );

          await open(page, '/category/mugs', locale);
          const quickAdd = page.getByRole('button', { name: new RegExp(`^${text.add}: `) }).first();
          await quickAdd.click();
          await expect.poll(() => page.getByRole('status').first().textContent()).toContain(text.added);
        });
      });
    }
  }
});
