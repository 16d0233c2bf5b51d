import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowser } from './browser.ts';

/**
 * The dashboard's dollar rate and the categories page write through their routes' actions (ADR
 * 0073): a refused rate says why in the back office's language, a set one empties its field; a
 * category is added from its form, and one refused for its products is deleted once they are moved.
 */

/** The admin the e2e server seeds (tests/e2e/server.global.ts). */
const ADMIN = { email: 'admin@vitrina.example', password: 'e2e-admin-password' };
const suffix = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

async function signIn(page: Page) {
  await page.goto('/login?lang=en');
  await page.getByLabel('E-mail').fill(ADMIN.email);
  await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('banner').getByRole('link', { name: ADMIN.email }).waitFor();
}

describe('the dollar rate and the categories in the back office', () => {
  const browser = useBrowser({ viewport: { width: 1440, height: 900 } });

  it('refuses a rate of zero in Russian and sets the rate in force again, emptying the field', async () => {
    const { page, baseUrl } = browser;
    await signIn(page);
    await page.context().addCookies([{ name: 'locale', value: 'ru', url: baseUrl }]);
    const status = (await (await page.request.get('/api/admin/exchange-rate')).json()) as {
      current: { rate: number } | null;
    };
    expect(status.current).not.toBeNull();
    const rate = status.current?.rate.toFixed(4) ?? '';

    await page.goto('/admin');
    const field = page.getByRole('textbox', { name: 'Рублей за доллар' });
    await field.fill('0');
    await page.getByRole('button', { name: 'Задать курс' }).click();
    await page
      .getByText('Введите число рублей за доллар больше нуля, не более четырёх знаков после запятой.')
      .waitFor();

    await field.fill(rate.replace('.', ','));
    await page.getByRole('button', { name: 'Задать курс' }).click();
    await page.getByText('Курс задан.').waitFor();
    expect(await field.inputValue()).toBe('');
    await page.getByText(`${rate} ₽ за доллар`, { exact: false }).waitFor();
    expect(await page.getByText('Введите число рублей за доллар').count()).toBe(0);
  });

  it('adds a category from its form, and deletes one holding a product once the product is moved', async () => {
    const { page, baseUrl } = browser;
    await signIn(page);
    const headers = { origin: baseUrl };

    await page.goto('/admin/categories');
    await page.getByRole('heading', { level: 1, name: 'Categories' }).waitFor();
    const form = page.getByRole('form', { name: 'New category' });
    await form.getByRole('textbox', { name: 'Name (Russian)' }).fill(`Кепки ${suffix}`);
    await form.getByRole('textbox', { name: 'Name (English)' }).fill(`Caps ${suffix}`);
    await form.getByRole('textbox', { name: 'Link' }).fill(`caps-${suffix}`);
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByText('The category has been saved.').waitFor();
    await page.getByRole('button', { name: `Edit Caps ${suffix}`, exact: true }).waitFor();
    expect(await form.getByRole('textbox', { name: 'Name (English)' }).inputValue()).toBe('');

    // A second category, and a product in the first.
    const categories = (await (await page.request.get('/api/admin/categories')).json()) as {
      categories: Array<{ id: number; link: string }>;
    };
    const caps = categories.categories.find((category) => category.link === `caps-${suffix}`);
    expect(caps).toBeDefined();
    const hats = await page.request.post('/api/admin/categories', {
      headers,
      data: { name_ru: `Шляпы ${suffix}`, name_en: `Hats ${suffix}`, link: `hats-${suffix}` },
    });
    expect(hats.status(), await hats.text()).toBe(200);
    const hatsId = ((await hats.json()) as { category: { id: number } }).category.id;
    const projects = (await (await page.request.get('/api/admin/projects')).json()) as {
      projects: Array<{ id: number }>;
    };
    const product = await page.request.post('/api/admin/products', {
      headers,
      data: {
        project: projects.projects[0]?.id,
        categories: [caps?.id],
        name_ru: `Кепка ${suffix}`,
        name_en: `Cap ${suffix}`,
        link: `cap-${suffix}`,
        price: 900,
      },
    });
    expect(product.status(), await product.text()).toBe(200);
    const productId = ((await product.json()) as { product: { id: number } }).product.id;

    await page.reload();
    await page.getByRole('button', { name: `Edit Caps ${suffix}`, exact: true }).waitFor();
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: `Delete Caps ${suffix}`, exact: true }).click();
    await page
      .getByRole('alert')
      .getByText('Products still in this category: 1.', { exact: false })
      .waitFor();
    const move = page.getByRole('form', { name: `Deleting the category “Caps ${suffix}”` });
    const moveButton = move.getByRole('button', { name: 'Move the products and delete' });
    expect(await moveButton.isDisabled()).toBe(true);
    await move.getByRole('combobox').selectOption(String(hatsId));
    await moveButton.click();
    await page.getByRole('button', { name: `Edit Hats ${suffix}`, exact: true }).waitFor();
    await page
      .getByRole('button', { name: `Edit Caps ${suffix}`, exact: true })
      .waitFor({ state: 'detached' });
    expect(await page.getByRole('alert').count()).toBe(0);

    const moved = (await (await page.request.get(`/api/admin/products/${productId}`)).json()) as {
      product: { categories: number[] };
    };
    expect(moved.product.categories).toEqual([hatsId]);
  });
});
