import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeViolations } from './axe.ts';
import { sidewaysOverflow, useBrowser } from './browser.ts';
import { waitForMail } from './outbox.ts';
import { acceptStaffInvitation } from './shop-api.ts';

/** The admin the e2e server seeds (tests/e2e/server.global.ts). */
const ADMIN = { email: 'admin@vitrina.example', password: 'e2e-admin-password' };
const suffix = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

async function signIn(page: Page, email: string, password: string) {
  await page.goto('/login');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('banner').getByRole('link', { name: email }).waitFor();
}

/** A confirmed customer account, made through registration and its mailed link. */
async function registerCustomer(page: Page, baseUrl: string, email: string, password: string) {
  const registered = await page.request.post('/api/registration', {
    headers: { origin: baseUrl },
    data: { locale: 'en', email, password, password_confirmation: password, privacy_policy: 1 },
  });
  expect(registered.status(), await registered.text()).toBe(200);
  const mail = await waitForMail(email, /\/activate\?token=/);
  const link = new URL(mail.match(/https?:\/\/[^\s"<>]+\/activate\?token=[^\s"<>]+/)?.[0] ?? '');
  await page.goto(link.pathname + link.search);
  await page.getByRole('banner').getByRole('link', { name: email }).waitFor();
  await signOut(page, baseUrl);
}

/** Ends the session; the test-mode notice stays dismissed. */
async function signOut(page: Page, baseUrl: string) {
  await page.context().clearCookies();
  await page.context().addCookies([{ name: 'overlay-test-info', value: 'hidden', url: baseUrl }]);
}

describe('back office customers', () => {
  const browser = useBrowser();

  it('a manager finds a customer, adds notes, blocks the account (which then cannot sign in), in English and Russian', async () => {
    const { page, baseUrl } = browser;
    const email = `customer-${suffix}@example.test`;
    const password = 'customer-password-1';
    await registerCustomer(page, baseUrl, email, password);

    await signIn(page, ADMIN.email, ADMIN.password);
    await page.goto('/admin');
    await page
      .getByRole('navigation', { name: 'Back office' })
      .getByRole('link', { name: 'Customers' })
      .click();
    await page.getByRole('heading', { level: 1, name: 'Customers' }).waitFor();
    await page.getByLabel('E-mail, name or phone').fill(`customer-${suffix}`);
    await page.getByRole('main').getByRole('button', { name: 'Search' }).click();
    await page.getByRole('link', { name: email }).click();
    await page.getByRole('heading', { level: 1, name: email }).waitFor();
    expect(await axeViolations(page, 'main')).toEqual([]);

    // Two notes: a timeline, oldest first, each with its author.
    for (const note of ['Called about the delivery', 'Asked for a gift box']) {
      await page.getByLabel('New note').fill(note);
      await page.getByRole('button', { name: 'Add note' }).click();
      await page.locator('.admin-timeline').getByText(note).waitFor();
    }
    const notes = page.locator('.admin-timeline > li');
    expect(await notes.count()).toBe(2);
    expect(await notes.first().textContent()).toContain(ADMIN.email);
    expect(await notes.last().textContent()).toContain('Asked for a gift box');

    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Block account' }).click();
    await page.getByRole('button', { name: 'Let in again' }).waitFor();

    // In Russian, on a phone: the same screens, no sideways scrolling.
    await page.context().addCookies([{ name: 'locale', value: 'ru', url: baseUrl }]);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/admin/customers?search=${encodeURIComponent(email)}`);
    await page.getByRole('heading', { level: 1, name: 'Покупатели' }).waitFor();
    await page.getByRole('columnheader', { name: 'Имя' }).waitFor();
    await page.getByText('Заблокирован').waitFor();
    expect(await sidewaysOverflow(page)).toEqual([]);
    expect(await axeViolations(page, 'main')).toEqual([]);

    // The blocked customer is told so when signing in.
    await signOut(page, baseUrl);
    await page.context().addCookies([{ name: 'locale', value: 'en', url: baseUrl }]);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto('/login');
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('This account is blocked').waitFor();
  });

  it('an admin invites a manager, who accepts once registered with the address and runs the back office without staff or deletions', async () => {
    const { page, baseUrl } = browser;
    const email = `manager-${suffix}@example.test`;
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.goto('/admin/staff');
    await page.getByRole('heading', { level: 1, name: 'Staff' }).waitFor();
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Role', { exact: true }).selectOption('manager');
    await page.getByRole('button', { name: 'Send the invitation' }).click();
    await page.getByText(`An invitation has been sent to ${email}.`).waitFor();
    // Pending: nothing is granted until its owner accepts it (ADR 0056).
    await page.getByText('Invitations waiting to be accepted').waitFor();
    expect(await page.getByRole('combobox', { name: `Role of ${email}` }).count()).toBe(0);
    expect(await axeViolations(page, 'main')).toEqual([]);

    await signOut(page, baseUrl);
    const password = 'manager-password-1';
    await acceptStaffInvitation(baseUrl, email, password);

    await signIn(page, email, password);
    await page.goto('/admin/products');
    const navigation = page.getByRole('navigation', { name: 'Back office' });
    await navigation.getByRole('link', { name: 'Customers' }).waitFor();
    expect(await navigation.getByRole('link', { name: 'Staff' }).count()).toBe(0);
    expect((await page.request.get('/api/admin/staff')).status()).toBe(403);
  });
});
