import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { axeViolations } from './axe.ts';
import { sidewaysOverflow, useBrowser } from './browser.ts';
import { acceptStaffInvitation } from './shop-api.ts';

/** The admin the e2e server seeds (tests/e2e/server.global.ts). */
const ADMIN = { email: 'admin@vitrina.example', password: 'e2e-admin-password' };
const suffix = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const SHOTS = 'test-results/admin-content';

async function signIn(page: Page, email: string, password: string) {
  await page.goto('/login?lang=en');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('banner').getByRole('link', { name: email }).waitFor();
}

/** A manager account: invited by the admin, registered and accepted by its owner, signed in. */
async function signInAsNewManager(page: Page, baseUrl: string) {
  const email = `content-manager-${suffix}@example.test`;
  await signIn(page, ADMIN.email, ADMIN.password);
  const invited = await page.request.post('/api/admin/staff', {
    headers: { origin: baseUrl },
    data: { email, role: 'manager' },
  });
  expect(invited.status(), await invited.text()).toBe(200);
  const password = 'content-manager-password-1';
  await acceptStaffInvitation(baseUrl, email, password);
  await page.context().clearCookies();
  await page.context().addCookies([{ name: 'overlay-test-info', value: 'hidden', url: baseUrl }]);
  await signIn(page, email, password);
}

const picture = (red: number, green: number, blue: number) =>
  sharp({ create: { width: 320, height: 200, channels: 3, background: { r: red, g: green, b: blue } } })
    .png()
    .toBuffer();

/** What a visitor without a session gets (the page cache serves them). */
const anonymousPage = async (baseUrl: string, path: string) => (await fetch(new URL(path, baseUrl))).text();

async function shoot(page: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

describe('back office content', () => {
  const browser = useBrowser({ viewport: { width: 1440, height: 900 } });

  it('a manager edits the about page with a table and a picture from the file manager and sees it in the shop, in English and Russian', async () => {
    const { page, baseUrl } = browser;
    // A visitor's page is kept by the page cache before the edit …
    expect(await anonymousPage(baseUrl, '/about?lang=en')).toContain('What we sell');
    await signInAsNewManager(page, baseUrl);

    await page.goto('/admin/pages/about');
    await page.getByRole('heading', { level: 1, name: 'Info pages' }).waitFor();
    const english = page.getByRole('textbox', { name: 'Text in English' });
    // The editor starts from the shop's built-in text.
    await english.getByText('What we sell').waitFor();
    expect(await axeViolations(page, 'main')).toEqual([]);
    await shoot(page, 'pages-editor-en-1440');

    await english.click();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.press('Delete');
    await page.keyboard.type(`Made by hand ${suffix}`);

    // A refused link says why; a link without a scheme becomes https.
    const toolbar = page.getByRole('toolbar', { name: 'Formatting' }).nth(1);
    await page.keyboard.press('Shift+Home');
    page.once('dialog', (dialog) => void dialog.accept('javascript:alert(1)'));
    await toolbar.getByRole('button', { name: 'Link' }).click();
    await page.getByRole('alert').getByText('Links starting with “javascript:” are not allowed').waitFor();
    page.once('dialog', (dialog) => void dialog.accept('studio.example/about'));
    await toolbar.getByRole('button', { name: 'Link' }).click();
    await english.locator('a[href="https://studio.example/about"]').waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);

    // A size table.
    await english.click();
    await page.keyboard.press('ControlOrMeta+End');
    await toolbar.getByRole('button', { name: 'Table' }).click();
    for (const text of ['Size', 'Chest, cm', 'Length, cm', 'M', '100', '72']) {
      await page.keyboard.type(text);
      await page.keyboard.press('Tab');
    }
    await page.getByRole('toolbar', { name: 'Table' }).getByRole('button', { name: 'Add row' }).click();
    expect(await english.locator('table tr').count()).toBe(4);

    // A picture uploaded in the file manager, inserted from it.
    await page.keyboard.press('ControlOrMeta+End');
    await toolbar.getByRole('button', { name: 'Picture from the files' }).click();
    const picker = page.getByRole('dialog', { name: 'Choose pictures' });
    await picker
      .getByLabel('Upload files')
      .setInputFiles([
        { name: `workshop-${suffix}.png`, mimeType: 'image/png', buffer: await picture(180, 90, 40) },
      ]);
    await picker.getByRole('checkbox', { name: `workshop-${suffix}.png` }).waitFor();
    await picker.getByRole('button', { name: 'Insert selected (1)' }).click();
    await english.locator('img[src^="/img/products/640/"]').waitFor();

    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved. The shop shows the new text.').waitFor();

    // … and the shop shows the new text at once, to the manager and to a visitor.
    await page.goto('/about?lang=en');
    await page.getByRole('heading', { level: 1, name: 'About Vitrina' }).waitFor();
    const text = page.locator('.static-page__text');
    await text.getByText(`Made by hand ${suffix}`).waitFor();
    expect(await text.getByRole('link').getAttribute('href')).toBe('https://studio.example/about');
    expect(await text.getByRole('columnheader', { name: 'Chest, cm' }).count()).toBe(1);
    expect(await text.getByRole('cell', { name: '100' }).count()).toBe(1);
    const image = text.locator('img');
    await image.evaluate((element: HTMLImageElement) => element.decode());
    expect(await image.evaluate((element: HTMLImageElement) => element.naturalWidth)).toBeGreaterThan(0);
    expect(await page.getByText('What we sell').count()).toBe(0);
    expect(await axeViolations(page, 'main')).toEqual([]);
    await shoot(page, 'about-en-1440');
    const anonymous = await anonymousPage(baseUrl, '/about?lang=en');
    expect(anonymous).toContain(`Made by hand ${suffix}`);
    expect(anonymous).not.toContain('What we sell');

    // Russian, on a phone: the Russian text is still the built-in one until edited here.
    await page.context().addCookies([{ name: 'locale', value: 'ru', url: baseUrl }]);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/admin/pages/about');
    const russian = page.getByRole('textbox', { name: 'Текст на русском' });
    await russian.getByText('Что мы продаём').waitFor();
    expect(await sidewaysOverflow(page)).toEqual([]);
    expect(await axeViolations(page, 'main')).toEqual([]);
    await shoot(page, 'pages-editor-ru-390');
    await russian.getByText('Что мы продаём').click();
    await page.keyboard.press('End');
    await page.keyboard.type(` и ещё ${suffix}`);
    await page.getByRole('button', { name: 'Сохранить' }).click();
    await page.getByText('Сохранено. В магазине уже новый текст.').waitFor();

    await page.goto('/about?lang=ru');
    await page.getByRole('heading', { level: 1, name: 'О Витрине' }).waitFor();
    await page.locator('.static-page__text').getByText(`и ещё ${suffix}`).waitFor();
    expect(await sidewaysOverflow(page)).toEqual([]);
    expect(await axeViolations(page, 'main')).toEqual([]);
    await shoot(page, 'about-ru-390');
    await page.goto('/about?lang=en');
    await page.locator('.static-page__text table').waitFor();
    expect(await sidewaysOverflow(page)).toEqual([]);
    await shoot(page, 'about-en-390');
  });

  it('a manager picks a project logo through the file manager, in Russian and English', async () => {
    const { page, baseUrl } = browser;
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.goto('/admin/projects');
    await page.getByRole('heading', { level: 1, name: 'Projects' }).waitFor();
    await page.getByRole('main').getByRole('button', { name: /^Edit/ }).first().click();
    await page.getByRole('button', { name: 'Choose in the file manager' }).click();
    const picker = page.getByRole('dialog', { name: 'Logo: choose a picture' });
    await picker
      .getByLabel('Upload files')
      .setInputFiles([
        { name: `logo-${suffix}.png`, mimeType: 'image/png', buffer: await picture(30, 120, 200) },
      ]);
    await picker.getByRole('checkbox', { name: `logo-${suffix}.png` }).waitFor();
    expect(await axeViolations(page, 'dialog')).toEqual([]);
    await shoot(page, 'logo-picker-en-1440');
    await picker.getByRole('button', { name: 'Use this picture' }).click();
    const current = page.getByRole('img', { name: /^Current picture / });
    await current.waitFor();
    const name = (await current.getAttribute('alt'))?.replace('Current picture ', '') ?? '';
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText(/saved/i).first().waitFor();

    // The shop's home page shows the new logo, stored as a project logo.
    await page.goto('/?lang=en');
    const logo = page.locator(`img[src="/img/projects/160/${name}"]`);
    await logo.waitFor();
    expect(
      await logo.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth),
    ).toBeGreaterThan(0);

    // Russian, on a phone: the catalogue's own pictures can be picked as well. The English page's
    // own data request (`/_root.data?lang=en`, sent once hydrated) stores English as the choice,
    // so the cookie is switched only after it has been answered.
    await page.waitForLoadState('networkidle');
    await page.context().addCookies([{ name: 'locale', value: 'ru', url: baseUrl }]);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/admin/projects');
    await page
      .getByRole('main')
      .getByRole('button', { name: /^Изменить/ })
      .first()
      .click();
    await page.getByRole('button', { name: 'Выбрать в файловом менеджере' }).click();
    const russianPicker = page.getByRole('dialog', { name: 'Логотип: выбор картинки' });
    await russianPicker.getByRole('button', { name: 'Товары' }).click();
    await russianPicker.getByRole('checkbox').first().check();
    expect(await axeViolations(page, 'dialog')).toEqual([]);
    await shoot(page, 'logo-picker-ru-390');
    await russianPicker.getByRole('button', { name: 'Взять эту картинку' }).click();
    await page.getByRole('button', { name: 'Сохранить' }).click();
    await page
      .getByText(/сохран/i)
      .first()
      .waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
  });
});

describe('the info-page editor keeps the page (issue 30, point 5)', () => {
  const browser = useBrowser({ locale: 'ru-RU', viewport: { width: 1440, height: 900 } });

  it('saves the payment page with one added space and keeps its method cards; the English preview leaves the back office in Russian', async () => {
    const { page, baseUrl } = browser;
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.context().addCookies([{ name: 'locale', value: 'ru', url: baseUrl }]);
    await page.goto('/admin/pages/payment');
    await page.getByRole('heading', { level: 1, name: 'Страницы сайта' }).waitFor();
    // The Russian text opens in the editor with its method cards; one space typed after its first paragraph.
    const russian = page.getByRole('textbox', { name: 'Текст на русском' });
    await russian.locator('li.payment-method h3', { hasText: 'Robokassa' }).waitFor();
    await russian.locator('p').first().click();
    await page.keyboard.press('End');
    await page.keyboard.type(' ');
    await page.getByRole('button', { name: 'Сохранить', exact: true }).click();
    await page.getByText('Сохранено. В магазине уже новый текст.').waitFor();

    const saved = (await (await page.request.get('/api/admin/pages/payment')).json()) as {
      page: { html_ru: string; html_en: string };
    };
    expect(saved.page.html_ru).toContain(
      '<ul class="payment-methods"><li class="payment-method"><h3 id="method-robokassa">',
    );
    expect(saved.page.html_en).toBe('');
    // The shop shows the saved text with its two method cards, each with its name and words.
    const shop = await browser.context.newPage();
    await shop.goto('/payment?lang=ru');
    const cards = shop.locator('.static-page__text li.payment-method');
    expect(await cards.count()).toBe(2);
    expect(await cards.first().locator('h3').textContent()).toBe('Robokassa');
    expect(await cards.first().locator('p').count()).toBe(1);
    await shop.close();

    // The English preview opens in a new tab in English, and the back office stays Russian.
    const [preview] = await Promise.all([
      browser.context.waitForEvent('page'),
      page.getByRole('link', { name: 'Открыть страницу в магазине (EN)' }).click(),
    ]);
    await preview.getByRole('heading', { level: 1, name: 'Payment' }).waitFor();
    expect(new URL(preview.url()).searchParams.get('preview')).toBe('1');
    await preview.close();
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Страницы сайта' }).waitFor();
    const cookies = await browser.context.cookies(baseUrl);
    expect(cookies.find((cookie) => cookie.name === 'locale')?.value).toBe('ru');
  }, 120_000);
});

describe('the file manager writes through the Files route (issue 33, point 4)', () => {
  const browser = useBrowser({ viewport: { width: 1440, height: 900 } });

  it('makes, renames and deletes a folder, and renames, moves and deletes a file in it', async () => {
    const { page } = browser;
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.goto('/admin/files');
    await page.getByRole('heading', { level: 1, name: 'Files' }).waitFor();
    const manager = page.locator('.file-manager');
    const folders = manager.getByRole('list', { name: 'Folders' });
    const folder = `journey-${suffix}`;
    const answer = (text: string) => page.once('dialog', (dialog) => void dialog.accept(text));

    // The contract's rule refuses a name with capitals before anything is sent.
    await manager.getByLabel('New folder').fill('Not Lowercase');
    await manager.getByRole('button', { name: 'Create' }).click();
    await manager.getByText(/^Folder names use lowercase letters/).waitFor();
    await manager.getByLabel('New folder').fill(folder);
    await manager.getByRole('button', { name: 'Create' }).click();
    await folders.getByRole('button', { name: folder, exact: true }).waitFor();
    expect(await manager.getByLabel('New folder').inputValue()).toBe('');

    // A file uploaded in the top folder is renamed, then moved into the new folder.
    const uploaded = `files-${suffix}.png`;
    const renamed = `renamed-${suffix}.png`;
    await manager
      .getByLabel('Upload files')
      .setInputFiles([{ name: uploaded, mimeType: 'image/png', buffer: await picture(90, 160, 60) }]);
    const files = manager.getByRole('list', { name: 'Files in this folder' });
    await files.getByRole('checkbox', { name: uploaded }).waitFor();
    answer(renamed);
    await files.getByRole('button', { name: `Rename ${uploaded}` }).click();
    await files.getByRole('checkbox', { name: renamed }).waitFor();
    answer(folder);
    await files.getByRole('button', { name: `Move ${renamed}` }).click();
    await files.getByRole('checkbox', { name: renamed }).waitFor({ state: 'detached' });

    // A folder holding a file is not deleted: the API's refusal shows in the manager.
    answer('');
    await folders.getByRole('button', { name: `Delete ${folder}` }).click();
    await manager.getByRole('alert').filter({ hasText: 'The folder is not empty' }).waitFor();

    await folders.getByRole('button', { name: folder, exact: true }).click();
    await manager.getByRole('navigation', { name: 'Folder' }).getByRole('button', { name: folder }).waitFor();
    expect(await manager.getByRole('alert').count()).toBe(0);
    answer('');
    await files.getByRole('button', { name: `Delete ${renamed}` }).click();
    await manager.getByText('No files in this folder yet.').waitFor();

    // The emptied folder is renamed, then deleted.
    await manager.getByRole('button', { name: 'All files' }).click();
    answer(`${folder}-moved`);
    await folders.getByRole('button', { name: `Rename or move ${folder}` }).click();
    await folders.getByRole('button', { name: `${folder}-moved`, exact: true }).waitFor();
    answer('');
    await folders.getByRole('button', { name: `Delete ${folder}-moved` }).click();
    await folders
      .getByRole('button', { name: `${folder}-moved`, exact: true })
      .waitFor({ state: 'detached' });
    expect(await manager.getByRole('alert').count()).toBe(0);
  });
});
