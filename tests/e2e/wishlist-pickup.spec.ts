import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowser } from './browser.ts';
import { signUp } from './shopper.ts';

/**
 * Issue 29, point 7, as a shopper meets it on the demo catalogue: a size and colour of the
 * Expedition Hoodie chosen on the wishlist and added to the cart, the cart showing the chosen
 * colour's photo, then a Boxberry pickup point found by the city's name in the interface's language
 * ("Moscow" in English), the chosen point's city reading "Москва", not "Москва г". English at
 * 1366 px, Russian at 390 px.
 */

const HOODIE = 'northwind-expedition-hoodie';

const TEXT = {
  en: {
    name: 'Expedition Hoodie',
    choice: 'Size, Colour',
    grey: 'Heather grey',
    add: 'Add to cart',
    added: 'Added to cart.',
    city: 'City',
    typed: 'Moscow',
    pickup: /Boxberry pickup point/,
    picker: 'Choose a pickup point',
    choose: /^Choose/,
  },
  ru: {
    name: 'Худи «Экспедиция»',
    choice: 'Размер, Цвет',
    grey: 'Серый меланж',
    add: 'В корзину',
    added: 'Добавлено в корзину.',
    city: 'Город',
    typed: 'москва',
    pickup: /Пункт выдачи Boxberry/,
    picker: 'Выбрать пункт выдачи',
    choose: /^Выбрать/,
  },
} as const;

interface ProductAnswer {
  product: {
    id: number;
    pictures: Array<{ file: string; optionValue: number | null }>;
    options: Array<{ kind: string; values: Array<{ id: number; key: string }> }>;
  };
}

interface WishlistAnswer {
  products: Record<
    string,
    { choice: { name: string; variants: Array<{ id: number; label: string; inStock: number }> } | null }
  >;
}

/** The hoodie's id and its grey photos, as the product page knows them. */
async function hoodieAndGreyPhotos(page: Page) {
  const { product } = await page.evaluate(
    async (link) => (await (await fetch(`/api/product?locale=en&link=${link}`)).json()) as ProductAnswer,
    HOODIE,
  );
  const grey = product.options
    .find((option) => option.kind === 'colour')
    ?.values.find((value) => value.key === 'Heather grey');
  if (!grey) throw new Error('the demo hoodie has no grey');
  const photos = product.pictures
    .filter((picture) => picture.optionValue === grey.id)
    .map(({ file }) => file);
  expect(photos.length).toBeGreaterThan(0);
  return { id: product.id, greyPhotos: photos };
}

async function journey(page: Page, locale: 'en' | 'ru') {
  const text = TEXT[locale];
  await signUp(page, locale);
  const hoodie = await hoodieAndGreyPhotos(page);
  const wishlisted = await page.evaluate(
    async (product) =>
      (
        await fetch('/api/wishlist?locale=en', {
          method: 'POST',
          headers: { accept: 'application/json' },
          body: new URLSearchParams({ product: String(product) }),
        })
      ).json() as Promise<WishlistAnswer>,
    hoodie.id,
  );
  // A grey size in stock (the demo's stock per size is uneven, some sold out).
  const greyInStock = wishlisted.products[hoodie.id]?.choice?.variants.find(
    (variant) => variant.inStock > 0 && variant.label.endsWith('Heather grey'),
  );
  if (!greyInStock) throw new Error('no grey hoodie in stock');

  // The wishlist: the size and colour are chosen in the line, then added.
  await page.goto('/wishlist');
  const line = page.getByRole('article', { name: text.name });
  const choice = line.getByRole('combobox', { name: text.choice });
  const add = line.getByRole('button', { name: text.add });
  await add.waitFor();
  // Nothing is chosen for the shopper; sold-out sizes are listed but cannot be chosen.
  expect(await choice.inputValue()).toBe('');
  expect(await choice.locator('option:disabled').count()).toBeGreaterThan(1);
  await choice.selectOption(String(greyInStock.id));
  expect(await choice.locator('option:checked').textContent()).toContain(text.grey);
  await add.click();
  await line.getByText(text.added).waitFor();

  // The cart: the grey hoodie shows a grey photo, not the black cover.
  await page.goto('/cart');
  const cartLine = page.getByRole('article', { name: text.name });
  await cartLine.locator('.product-line__options', { hasText: text.grey }).waitFor();
  const photo = (await cartLine.locator('img').getAttribute('src')) ?? '';
  expect(
    hoodie.greyPhotos.some((file) => photo.endsWith(`/${file}`)),
    photo,
  ).toBe(true);

  // The shipping step: Boxberry's points of the city typed in the interface's language.
  await page.goto('/order/shipping');
  await page.getByRole('combobox', { name: locale === 'en' ? 'Country' : 'Страна' }).selectOption('RU');
  await page.getByRole('textbox', { name: text.city }).fill(text.typed);
  await page.getByRole('radio', { name: text.pickup }).check();
  const picker = page.getByRole('dialog', { name: text.picker });
  await picker.waitFor();
  expect(await picker.getByRole('searchbox', { name: text.city }).inputValue()).toBe(text.typed);
  const points = picker.getByRole('listitem');
  await points.first().waitFor();
  expect(await points.count()).toBeGreaterThan(1);
  for (const point of await points.all()) expect(await point.textContent()).toContain('Москва г,');
  await points.first().getByRole('button', { name: text.choose }).click();
  await picker.waitFor({ state: 'hidden' });
  expect(await page.getByRole('textbox', { name: text.city }).inputValue()).toBe('Москва');
}

describe('wishlist sizes and pickup points in English at 1366 px', () => {
  const browser = useBrowser({ viewport: { width: 1366, height: 900 } });

  it('adds the grey hoodie in a size from the wishlist, shows it grey in the cart, finds "Moscow"', async () => {
    await journey(browser.page, 'en');
  });
});

describe('wishlist sizes and pickup points in Russian at 390 px', () => {
  const browser = useBrowser({ locale: 'ru-RU', viewport: { width: 390, height: 844 } });

  it('adds a grey size from the wishlist, shows it grey in the cart, finds Moscow by its Russian name', async () => {
    await journey(browser.page, 'ru');
  });
});
