import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config.ts';
import { robokassaSignature } from '../../src/server/providers/robokassa.ts';
import { useBrowser } from './browser.ts';
import { waitForMail } from './outbox.ts';

/** The admin the e2e server seeds (tests/e2e/server.global.ts). */
const ADMIN = { email: 'admin@vitrina.example', password: 'e2e-admin-password' };

const suffix = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const pathOf = (page: Page) => new URL(page.url()).pathname;

async function signIn(page: Page, email: string, password: string) {
  await page.goto('/login');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('banner').getByRole('link', { name: email }).waitFor();
}

/** A real PNG picture of one colour, made here (the server checks uploads by their content). */
const picture = (red: number, green: number, blue: number) =>
  sharp({ create: { width: 96, height: 64, channels: 3, background: { r: red, g: green, b: blue } } })
    .png()
    .toBuffer();

async function setLocale(page: Page, baseUrl: string, locale: 'ru' | 'en') {
  await page.context().addCookies([{ name: 'locale', value: locale, url: baseUrl }]);
}

describe('back office', () => {
  const browser = useBrowser();

  it('catalogue → product with uploaded images → shop in both languages → stock → ships an order → audit log', async () => {
    const { page, baseUrl } = browser;
    const project = { ru: `Проект ${suffix}`, en: `Project ${suffix}`, link: `e2e-project-${suffix}` };
    const category = { ru: `Категория ${suffix}`, en: `Category ${suffix}`, link: `e2e-category-${suffix}` };
    const product = {
      ru: `Кружка ${suffix}`,
      en: `Mug ${suffix}`,
      link: `e2e-mug-${suffix}`,
      descriptionRu: 'Большая кружка для чая.',
      descriptionEn: 'A big mug for tea.',
    };

    await signIn(page, ADMIN.email, ADMIN.password);
    const entry = await page.goto('/admin');
    expect(entry?.status()).toBe(200);
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    const navigation = page.getByRole('navigation', { name: 'Back office' });

    // A project and a category: name and link required, visible by default.
    await navigation.getByRole('link', { name: 'Projects' }).click();
    await page.getByRole('heading', { level: 1, name: 'Projects' }).waitFor();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('This field is required.').first().waitFor();
    expect(await page.getByText('This field is required.').count()).toBeGreaterThanOrEqual(2);
    await page.getByLabel('Name (Russian)').fill(project.ru);
    await page.getByLabel('Name (English)').fill(project.en);
    await page.getByRole('textbox', { name: 'Link', exact: true }).fill(project.link);
    expect(await page.getByRole('checkbox', { name: 'Visible in the shop' }).isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('The project has been saved.').waitFor();
    await page.getByRole('cell', { name: project.link }).waitFor();

    await navigation.getByRole('link', { name: 'Categories' }).click();
    await page.getByRole('heading', { level: 1, name: 'Categories' }).waitFor();
    await page.getByLabel('Name (Russian)').fill(category.ru);
    await page.getByLabel('Name (English)').fill(category.en);
    await page.getByRole('textbox', { name: 'Link', exact: true }).fill(category.link);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('The category has been saved.').waitFor();
    await page.getByRole('cell', { name: category.link }).waitFor();

    // A new product with every part of the form.
    await navigation.getByRole('link', { name: 'Products' }).click();
    await page.getByRole('link', { name: 'New product' }).click();
    await page.getByRole('heading', { level: 1, name: 'New product' }).waitFor();
    await page.getByLabel('Project', { exact: true }).selectOption({ label: project.en });
    await page.getByLabel('Categories', { exact: true }).selectOption({ label: category.en });
    await page.getByRole('button', { name: 'Add category' }).click();
    await page.getByRole('list', { name: 'Chosen categories' }).getByText(category.en).waitFor();
    await page.getByLabel('Name (Russian)').fill(product.ru);
    await page.getByLabel('Name (English)').fill(product.en);
    await page.getByRole('textbox', { name: 'Link', exact: true }).fill(product.link);
    await page.getByLabel('Price, ₽', { exact: true }).fill('1500');
    await page.getByLabel('Sale price, ₽').fill('1200');
    await page.getByLabel('Weight, g', { exact: true }).fill('350');

    // The descriptions are TipTap editors (loaded on demand); bold comes from the toolbar.
    await page.getByRole('toolbar', { name: 'Formatting' }).first().waitFor();
    const russianDescription = page.getByRole('textbox', { name: 'Description (Russian)', exact: true });
    await russianDescription.click();
    await page.keyboard.type(product.descriptionRu);
    const englishDescription = page.getByRole('textbox', { name: 'Description (English)', exact: true });
    await englishDescription.click();
    await page.keyboard.type(product.descriptionEn);
    await page.keyboard.press('ControlOrMeta+a');
    await page.getByRole('button', { name: 'Bold' }).nth(1).click();
    expect(await englishDescription.locator('strong').textContent()).toBe(product.descriptionEn);

    // Images: uploaded through the file manager, each with its progress bar; finished ones are selected.
    await page.getByRole('button', { name: 'Add images' }).click();
    const picker = page.getByRole('dialog', { name: 'Choose images' });
    await picker.waitFor();
    const folder = `e2e-${suffix}`;
    await picker.getByLabel('New folder').fill(folder);
    await picker.getByRole('button', { name: 'Create' }).click();
    await picker.getByRole('button', { name: folder, exact: true }).click();
    await picker
      .getByRole('navigation', { name: 'Folder' })
      .getByRole('button', { name: folder, exact: true })
      .waitFor();
    await picker.getByLabel('Upload files').setInputFiles([
      { name: 'front.png', mimeType: 'image/png', buffer: await picture(200, 40, 40) },
      { name: 'back.png', mimeType: 'image/png', buffer: await picture(40, 40, 200) },
    ]);
    for (const name of ['front.png', 'back.png']) {
      const progress = picker.getByRole('progressbar', { name: `Upload progress of ${name}` });
      await progress.waitFor();
      await picker.getByRole('checkbox', { name }).waitFor();
      expect(await picker.getByRole('checkbox', { name }).isChecked()).toBe(true);
      expect(await progress.evaluate((element: HTMLProgressElement) => element.value === element.max)).toBe(
        true,
      );
    }
    expect(await picker.getByText('Uploaded', { exact: true }).count()).toBe(2);
    await picker.getByRole('button', { name: 'Add selected (2)' }).click();
    await picker.waitFor({ state: 'hidden' });
    const images = page.getByRole('list', { name: 'Images' }).locator('img');
    await expect.poll(() => images.count()).toBe(2);
    const firstOrder = await images.evaluateAll((list) => list.map((image) => image.getAttribute('src')));
    await page.getByRole('button', { name: 'Move image 2 up' }).click();
    const secondOrder = await images.evaluateAll((list) => list.map((image) => image.getAttribute('src')));
    expect(secondOrder).toEqual([firstOrder[1], firstOrder[0]]);

    // The stock field stays disabled until "change the stock" is ticked.
    const startingStock = page.getByLabel('New stock');
    expect(await startingStock.isDisabled()).toBe(true);
    await page.getByRole('checkbox', { name: 'Change the stock' }).check();
    await startingStock.fill('5');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('The product has been created.').waitFor();
    expect(pathOf(page)).toMatch(/^\/admin\/products\/\d+$/);
    const productId = Number(pathOf(page).split('/').pop());
    expect(await page.getByLabel('In stock now').inputValue()).toBe('5');

    // The shop shows it in both languages, with the description and both images.
    await setLocale(page, baseUrl, 'en');
    await page.goto(`/product/${product.link}`);
    await page.getByRole('heading', { level: 1, name: product.en }).waitFor();
    await page.getByText(product.descriptionEn).waitFor();
    await setLocale(page, baseUrl, 'ru');
    await page.goto(`/product/${product.link}`);
    await page.getByRole('heading', { level: 1, name: product.ru }).waitFor();
    await page.getByText(product.descriptionRu).waitFor();
    await setLocale(page, baseUrl, 'en');

    // Stock: add three, then set it outright.
    await page.goto(`/admin/products/${productId}`);
    await page.getByRole('heading', { level: 1, name: `Product: ${product.en}` }).waitFor();
    await page.getByRole('checkbox', { name: 'Change the stock' }).check();
    await page.getByLabel('Units to add (negative to take away)').fill('3');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('The product has been saved.').waitFor();
    await expect.poll(() => page.getByLabel('In stock now').inputValue()).toBe('8');
    expect(await page.getByLabel('Units to add (negative to take away)').isDisabled()).toBe(true);
    await page.getByRole('checkbox', { name: 'Change the stock' }).check();
    await page
      .getByRole('checkbox', { name: 'This is the counted stock (a correction of the figure above)' })
      .check();
    await page.getByLabel('New stock').fill('3');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('The product has been saved.').waitFor();
    await expect.poll(() => page.getByLabel('In stock now').inputValue()).toBe('3');

    // The dashboard lists it as running out.
    await navigation.getByRole('link', { name: 'Dashboard' }).click();
    await page.getByRole('figure').filter({ hasText: 'Orders per day' }).waitFor();
    const lowStock = page.getByRole('region', { name: 'Running out' });
    await lowStock
      .getByRole('row')
      .filter({ hasText: product.en })
      .getByRole('link', { name: /Edit/ })
      .waitFor();

    // A shopper's order (the admin buys one), placed through the API as the storefront does.
    const origin = { origin: baseUrl };
    const added = await page.request.post('/api/basket', { data: { product: productId }, headers: origin });
    expect(added.status()).toBe(200);
    const lastName = `Tester${suffix}`;
    const placed = await page.request.post('/api/order', {
      headers: origin,
      data: {
        locale: 'en',
        paymentMethod: 'robokassa',
        email: ADMIN.email,
        firstName: 'Ada',
        lastName,
        phone: '+7 900 123-45-67',
        deliveryMethod: 'russian_post',
        country: 'RU',
        city: 'Kazan',
        zip: '420111',
        address: '1 Test Street',
      },
    });
    expect(placed.status(), await placed.text()).toBe(200);
    const { id: orderId, amount } = ((await placed.json()) as { order: { id: number; amount: string } })
      .order;

    // Paid by Robokassa's notification: only a paid order can be shipped.
    const { robokassa } = loadConfig({ NODE_ENV: 'test', DATA_DIR: '/tmp' }).payments;
    const paid = await page.request.post('/api/robokassa/result', {
      form: {
        OutSum: amount,
        InvId: String(orderId),
        SignatureValue: robokassaSignature(robokassa.hashAlgorithm, [
          amount,
          String(orderId),
          robokassa.password2,
        ]),
      },
    });
    expect(await paid.text()).toBe(`OK${orderId}`);

    // Find it: the screen opens on paid orders that need action, the new paid one among them.
    await navigation.getByRole('link', { name: 'Orders' }).click();
    await page.getByRole('heading', { level: 1, name: 'Orders' }).waitFor();
    expect(await page.getByLabel('Status', { exact: true }).inputValue()).toBe('action');
    await page
      .getByRole('navigation', { name: 'Orders per status' })
      .getByRole('link', { name: /^In processing: \d+$/ })
      .waitFor();
    await page.getByLabel('Last name').fill(lastName);
    await page.getByLabel('Product', { exact: true }).fill(product.en);
    await page.getByRole('main').getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/status=action&/);
    await page.getByText('Page 1 of 1 · 1 in total').waitFor();
    await page.getByRole('link', { name: `No. ${orderId}` }).click();
    await page.getByRole('heading', { level: 1, name: `Order No. ${orderId}` }).waitFor();
    await page.getByRole('region', { name: 'Customer' }).getByText(`Ada ${lastName}`).waitFor();
    await page.getByRole('region', { name: 'Delivery' }).getByText('420111').waitFor();
    await page.getByRole('region', { name: 'Items' }).getByRole('link', { name: product.en }).waitFor();

    // Ship it with a track code: the customer is mailed the code.
    const trackCode = `RA${String(Date.now()).slice(-9)}RU`;
    await page.getByLabel('Status', { exact: true }).selectOption({ label: 'Shipped' });
    await page.getByLabel('Track code').fill(trackCode);
    await page.getByLabel('Actual delivery cost, ₽').fill('310.50');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('The order has been saved.').waitFor();
    await page
      .getByRole('region', { name: 'Order timeline' })
      .getByText('Shipped', { exact: true })
      .waitFor();
    await page.getByLabel('New note').fill('Packed in bubble wrap');
    await page.getByRole('button', { name: 'Add note' }).click();
    await page.locator('.admin-timeline').getByText('Packed in bubble wrap').waitFor();
    const mail = await waitForMail(ADMIN.email, new RegExp(trackCode));
    expect(mail).toContain(trackCode);

    // The audit log has every change, with before and after.
    await navigation.getByRole('link', { name: 'Audit log' }).click();
    await page.getByRole('heading', { level: 1, name: 'Audit log' }).waitFor();
    const rows = page.getByRole('row');
    for (const [action, entity, id] of [
      ['Created', 'Project', ''],
      ['Created', 'Category', ''],
      ['Created', 'Folder', folder],
      ['Created', 'File', ''],
      ['Created', 'Product', `#${productId}`],
      ['Changed', 'Product', `#${productId}`],
      ['Changed', 'Order', `#${orderId}`],
    ] as const) {
      const matching = rows.filter({ hasText: action }).filter({ hasText: entity }).filter({ hasText: id });
      expect(await matching.count(), `${action} ${entity} ${id}`).toBeGreaterThan(0);
    }
    await page.getByLabel('Record', { exact: true }).selectOption({ label: 'Order' });
    await page.getByLabel('Record ID').fill(String(orderId));
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.getByText('Page 1 of 1 · 1 in total').waitFor();
    const change = page.getByRole('row').filter({ hasText: `#${orderId}` });
    await change.getByText(/Changed: .*Status/).click();
    // Each field under its form's label, before and after in words.
    const field = (label: string) =>
      change.getByRole('row').filter({ has: page.getByRole('rowheader', { name: label, exact: true }) });
    await field('Track code').getByRole('cell', { name: trackCode, exact: true }).waitFor();
    await field('Status').getByRole('cell', { name: '5', exact: true }).waitFor();

    // The same area in Russian.
    await setLocale(page, baseUrl, 'ru');
    await page.goto('/admin/orders');
    await page.getByRole('heading', { level: 1, name: 'Заказы' }).waitFor();
    expect(await page.getByLabel('Статус', { exact: true }).locator('option:checked').textContent()).toMatch(
      /^Требуют действий \(оплачены, не отправлены\) \(\d+\)$/,
    );
    await page
      .getByRole('navigation', { name: 'Управление магазином' })
      .getByRole('link', { name: 'Журнал изменений' })
      .waitFor();
  }, 180_000);

  it('moderates feedback and reviews, and imports products from CSV after a dry run', async () => {
    const { page, baseUrl } = browser;
    const origin = { origin: baseUrl };
    await signIn(page, ADMIN.email, ADMIN.password);
    const products = (await (await page.request.get('/api/admin/products')).json()) as {
      list: Array<{ id: number; link: string; price: number }>;
    };
    const target = products.list.find((entry) => entry.price > 10) ?? products.list[0];
    if (!target) throw new Error('no products');

    // Feedback: a visitor's message, read and unread again.
    const sender = `Sender ${suffix}`;
    const sent = await page.request.post('/api/feedback', {
      headers: origin,
      multipart: { name: sender, email: `sender-${suffix}@example.test`, message: 'Will there be a mug?' },
    });
    expect(sent.status()).toBe(200);
    await page.goto('/admin/feedback');
    const message = page.getByRole('listitem').filter({ hasText: sender });
    await message.getByRole('button', { name: /Mark as read/ }).click();
    await message.getByRole('button', { name: /Mark as unread/ }).waitFor();
    await page.getByRole('checkbox', { name: 'Unread only' }).check();
    await page.getByRole('main').getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/unread=1/);
    await page.getByRole('heading', { level: 1, name: 'Feedback' }).waitFor();
    await expect.poll(() => page.getByRole('listitem').filter({ hasText: sender }).count()).toBe(0);

    // Reviews: the admin's own review, hidden from the product's thread and shown again.
    const reviewText = `Lovely print ${suffix}`;
    const posted = await page.request.post('/api/reviews', {
      headers: origin,
      data: { product: target.id, rating: 5, body: reviewText },
    });
    expect(posted.status(), await posted.text()).toBe(200);
    const publicThread = async () =>
      JSON.stringify(await (await page.request.get(`/api/reviews?product=${target.id}`)).json());
    await page.goto('/admin/reviews');
    const review = page.getByRole('listitem').filter({ hasText: reviewText });
    await review.getByRole('button', { name: /^Hide/ }).click();
    await review.getByRole('button', { name: /^Show/ }).waitFor();
    expect(await publicThread()).not.toContain(reviewText);
    await review.getByRole('button', { name: /^Show/ }).click();
    await review.getByRole('button', { name: /^Hide/ }).waitFor();
    expect(await publicThread()).toContain(reviewText);

    // CSV: the export is there; an import is checked first, then applied.
    await page.goto('/admin/csv');
    const exported = await page.request.get(
      (await page.getByRole('link', { name: 'Download products.csv' }).getAttribute('href')) ?? '',
    );
    expect(await exported.text()).toContain(target.link);
    const newPrice = '4321.5';
    await page.getByLabel('CSV file').setInputFiles({
      name: 'prices.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(`link,price\n${target.link},${newPrice}\n`),
    });
    await page.getByRole('button', { name: 'Check the file' }).click();
    const report = page.getByRole('region', { name: 'What the file would change' });
    await report.getByRole('table', { name: target.link }).getByRole('row', { name: /price/ }).waitFor();
    expect(await report.getByRole('row', { name: /price/ }).textContent()).toContain('4321.5');
    const unchanged = (await (await page.request.get(`/api/admin/products/${target.id}`)).json()) as {
      product: { price: number };
    };
    expect(unchanged.product.price).toBe(target.price);
    await page.getByRole('button', { name: 'Apply the changes (1)' }).click();
    await page.getByText('Imported. Products created or updated: 1.').waitFor();
    const changed = (await (await page.request.get(`/api/admin/products/${target.id}`)).json()) as {
      product: { price: number };
    };
    expect(changed.product.price).toBe(4321.5);
  });

  it('shows a guest the 403 page and refuses the admin API', async () => {
    const { page } = browser;
    const response = await page.goto('/admin/products');
    expect(response?.status()).toBe(403);
    await page.getByRole('heading', { level: 1, name: 'Access denied' }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Back office' }).count()).toBe(0);
    expect((await page.request.get('/api/admin/projects')).status()).toBe(401);
  });

  it('shows a signed-in shopper the 403 page and refuses the admin API', async () => {
    const { page, baseUrl } = browser;
    const email = `shopper-${suffix}@example.test`;
    const password = 'shopper-password-1';
    const registered = await page.request.post('/api/registration', {
      headers: { origin: baseUrl },
      data: { locale: 'en', email, password, password_confirmation: password, privacy_policy: 1 },
    });
    expect(registered.status(), await registered.text()).toBe(200);
    const mail = await waitForMail(email, /\/activate\?token=/);
    const link = mail.match(/https?:\/\/[^\s"<>]+\/activate\?token=[^\s"<>]+/)?.[0] ?? '';
    await page.goto(new URL(link).pathname + new URL(link).search);
    await page.getByRole('banner').getByRole('link', { name: email }).waitFor();

    const response = await page.goto('/admin');
    expect(response?.status()).toBe(403);
    await page.getByRole('heading', { level: 1, name: 'Access denied' }).waitFor();
    expect((await page.request.get('/api/admin/orders')).status()).toBe(403);
    const write = await page.request.post('/api/admin/projects', {
      headers: { origin: baseUrl },
      data: { name_ru: 'x', name_en: 'x', link: `x-${suffix}` },
    });
    expect(write.status()).toBe(403);
  });
});
