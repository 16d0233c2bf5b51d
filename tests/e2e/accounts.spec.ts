import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { hydrated, useBrowser } from './browser.ts';
import { waitForMail } from './outbox.ts';

/** The admin the e2e server seeds (tests/e2e/server.global.ts). */
const ADMIN = { email: 'admin@vitrina.example', password: 'e2e-admin-password' };

const uniqueEmail = (name: string) =>
  `${name}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.test`;

/** The path and query of the link matching `pattern` in the newest mail to `recipient`. */
async function mailedLink(recipient: string, pattern: RegExp): Promise<string> {
  const link = (await waitForMail(recipient, pattern)).match(pattern)?.[0] ?? '';
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
}

const ACTIVATE_LINK = /https?:\/\/[^\s"<>]+\/activate\?token=[^\s"<>]+/;
const RESET_LINK = /https?:\/\/[^\s"<>]+\/reset\?token=[^\s"<>]+/;

const pathOf = (page: Page) => new URL(page.url()).pathname;

async function signIn(page: Page, email: string, password: string) {
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

describe('accounts', () => {
  const browser = useBrowser();

  it('registers → confirms the e-mail → signs out → restores and resets the password → signs in → saves personal details', async () => {
    const { page } = browser;
    const email = uniqueEmail('journey');
    const firstPassword = 'first-password-1';
    const newPassword = 'second-password-2';

    // Registration: the privacy consent is unticked and required (issue 29); success replaces the form.
    await page.goto('/registration');
    await page.getByRole('heading', { level: 1, name: 'Registration' }).waitFor();
    expect(await page.title()).toBe('Registration · Vitrina');
    const consent = page.getByRole('checkbox', { name: /personal data/ });
    expect(await consent.isChecked()).toBe(false);
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(firstPassword);
    await page.getByLabel('Password confirmation').fill(firstPassword);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByText('Please accept the personal data agreement.').waitFor();
    await consent.check();
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { level: 1, name: 'Check your e-mail' }).waitFor();
    await page.getByText(`We have sent a confirmation e-mail to ${email}`).waitFor();

    // The confirmation link signs the new user in and opens the profile, which says it is confirmed.
    await page.goto(await mailedLink(email, ACTIVATE_LINK));
    await page.getByRole('heading', { level: 1, name: 'Personal details' }).waitFor();
    await page.getByText('Your e-mail is confirmed. Thank you!').waitFor();
    expect(pathOf(page)).toBe('/profile');
    await page.getByRole('banner').getByRole('link', { name: email }).waitFor();

    // Sign out from the menu.
    await hydrated(page);
    await page.getByRole('button', { name: 'Menu' }).click();
    const menu = page.getByRole('navigation', { name: 'Menu' });
    await menu.getByRole('link', { name: 'Order history' }).waitFor();
    expect(await menu.getByRole('link', { name: 'Shop admin' }).count()).toBe(0);
    await menu.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('banner').getByRole('link', { name: 'Sign in' }).waitFor();
    expect(pathOf(page)).toBe('/');
    expect(await page.getByRole('banner').getByRole('link', { name: email }).count()).toBe(0);

    // Forgot the password: the restore page answers neutrally and mails a link.
    await page.getByRole('banner').getByRole('link', { name: 'Sign in' }).click();
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByRole('heading', { level: 1, name: 'Password recovery' }).waitFor();
    await page.getByLabel('E-mail').fill(email);
    await page.getByRole('button', { name: 'Send the link' }).click();
    await page.getByText('If this address is registered with us, we have sent a link').waitFor();

    // The reset link: e-mail prefilled, a new password, then the sign-in page with a note.
    await page.goto(await mailedLink(email, RESET_LINK));
    await page.getByRole('heading', { level: 1, name: 'Set a new password' }).waitFor();
    expect(await page.getByLabel('E-mail').inputValue()).toBe(email);
    await page.getByLabel('New password', { exact: true }).fill(newPassword);
    await page.getByLabel('Password confirmation').fill(newPassword);
    await page.getByRole('button', { name: 'Change the password' }).click();
    await page.getByText('Your password has been changed. Sign in with the new one.').waitFor();
    expect(pathOf(page)).toBe('/login');

    // The old password no longer works; the new one does.
    await signIn(page, email, firstPassword);
    await page.getByRole('alert').filter({ hasText: 'Wrong e-mail or password.' }).waitFor();
    await signIn(page, email, newPassword);
    await page.getByRole('banner').getByRole('link', { name: email }).waitFor();
    expect(pathOf(page)).toBe('/');

    // Personal details are saved and still there after a reload.
    await page.getByRole('banner').getByRole('link', { name: email }).click();
    await page.getByRole('heading', { level: 1, name: 'Personal details' }).waitFor();
    const details = {
      'First name': 'Ada',
      'Last name': 'Lovelace',
      Phone: '+44 20 7946 0958',
      City: 'London',
      Postcode: 'EC1A 1BB',
      Address: '12 Analytical Row',
    };
    for (const [label, value] of Object.entries(details)) await page.getByLabel(label).fill(value);
    await page.getByLabel('Country').selectOption('GB');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Your personal details have been saved.').waitFor();
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Personal details' }).waitFor();
    for (const [label, value] of Object.entries(details)) {
      expect(await page.getByLabel(label).inputValue(), label).toBe(value);
    }
    expect(await page.getByLabel('Country').inputValue()).toBe('GB');
  });

  it('keeps a signed-in visitor out of the sign-in and registration pages', async () => {
    const { page } = browser;
    await page.goto('/profile');
    // A guest is sent to sign in and comes back to the profile afterwards.
    await page.waitForURL(/\/login\?redirectTo=%2Fprofile|\/login\?redirectTo=\/profile/);
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.getByRole('heading', { level: 1, name: 'Personal details' }).waitFor();
    expect(pathOf(page)).toBe('/profile');

    await page.goto('/login');
    expect(pathOf(page)).toBe('/');
    await page.goto('/registration');
    expect(pathOf(page)).toBe('/');
    await hydrated(page);
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('navigation', { name: 'Menu' }).getByRole('link', { name: 'Shop admin' }).waitFor();
  });

  it('refuses a used or unknown confirmation link with a way to get a new one', async () => {
    const { page } = browser;
    const response = await page.goto('/activate?token=not-a-real-token');
    expect(response?.status()).toBe(400);
    await page.getByRole('alert').filter({ hasText: 'The link is invalid, has expired' }).waitFor();
    await page.getByRole('link', { name: 'Request a new link' }).click();
    await page.getByRole('heading', { level: 1, name: 'Password recovery' }).waitFor();
  });
});

describe('account forms without JavaScript, in Russian', () => {
  const browser = useBrowser({ javaScriptEnabled: false, locale: 'ru-RU' });

  it('shows the errors under the fields and keeps what was typed', async () => {
    const { page } = browser;
    const email = uniqueEmail('plain');
    await page.goto('/registration');
    await page.getByRole('heading', { level: 1, name: 'Регистрация' }).waitFor();
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Пароль', { exact: true }).fill('long-enough-1');
    await page.getByLabel('Подтверждение пароля').fill('something-else');
    expect(await page.getByRole('checkbox', { name: /персональных данных/ }).isChecked()).toBe(false);
    await page.getByRole('button', { name: 'Зарегистрироваться' }).click();
    await page.getByText('Пароли не совпадают.').waitFor();
    await page.getByText('Примите соглашение об обработке персональных данных.').waitFor();
    expect(await page.getByLabel('E-mail').inputValue()).toBe(email);
    expect(await page.getByLabel('Подтверждение пароля').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByRole('checkbox', { name: /персональных данных/ }).isChecked()).toBe(false);

    await page.goto('/login');
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Пароль', { exact: true }).fill('wrong-password');
    await page.getByRole('button', { name: 'Войти' }).click();
    await page.getByRole('alert').filter({ hasText: 'Неверный e-mail или пароль.' }).waitFor();
  });

  it('signs in with a plain form; a link to /logout asks first, and its button signs out to the home page', async () => {
    const { page } = browser;
    await page.goto('/login');
    await page.getByLabel('E-mail').fill(ADMIN.email);
    await page.getByLabel('Пароль', { exact: true }).fill(ADMIN.password);
    await page.getByRole('button', { name: 'Войти' }).click();
    // The home page is every session's (ADR 0048): without JavaScript its header links the profile.
    await page.getByRole('banner').getByRole('link', { name: 'Профиль' }).waitFor();
    expect(pathOf(page)).toBe('/');

    // Opening the address (the spec's /logout/ too) changes nothing: a confirmation, still signed in.
    for (const address of ['/logout/', '/logout']) {
      await page.goto(address);
      await page.getByRole('heading', { level: 1, name: 'Выйти из аккаунта?' }).waitFor();
      await page.getByRole('banner').getByRole('link', { name: ADMIN.email }).waitFor();
    }
    await page
      .getByRole('region', { name: 'Выйти из аккаунта?' })
      .getByRole('button', { name: 'Выйти' })
      .click();
    await page.getByRole('banner').getByRole('link', { name: 'Вход' }).waitFor();
    expect(pathOf(page)).toBe('/');
    // Signed out, the address has nothing to ask.
    await page.goto('/logout/');
    expect(pathOf(page)).toBe('/');
  });

  it('sends feedback: errors first, then a confirmation and an empty form', async () => {
    const { page } = browser;
    await page.goto('/feedback');
    await page.getByRole('heading', { level: 1, name: 'Обратная связь' }).waitFor();
    await page.getByRole('button', { name: 'Отправить' }).click();
    expect(await page.getByText('Это поле обязательно.').count()).toBe(2);
    await page.getByText('Введите e-mail.').waitFor();
    await page.getByLabel('Ваше имя').fill('Маша');
    await page.getByLabel('E-mail').fill(uniqueEmail('feedback'));
    await page.getByLabel('Сообщение').fill('Будет ли кружка с Ember Hollow?');
    await page.getByRole('button', { name: 'Отправить' }).click();
    await page.getByText('Спасибо! Сообщение отправлено.').waitFor();
    expect(await page.getByLabel('Сообщение').inputValue()).toBe('');
  });
});
