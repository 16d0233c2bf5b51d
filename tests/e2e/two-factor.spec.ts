import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Secret, TOTP } from 'otpauth';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useBrowser } from './browser.ts';
import { prepareDemoShop } from './own-shop.ts';
import { startShop } from './server.global.ts';

/**
 * Two-step sign-in for staff in the browser (ADR 0055), in a shop of its own that requires it of
 * admins: the admin is sent to the enrolment page, scans (here: reads) the key, confirms with the
 * app's code and gets the recovery codes; from then on sign-in asks for a code after the password,
 * and a recovery code stands in for the app once.
 */
const ADMIN = { email: 'admin@vitrina.example', password: 'e2e-admin-password' };

let dataDir: string;
let shop: Awaited<ReturnType<typeof startShop>>;
const pathOf = (page: Page) => new URL(page.url()).pathname;

async function signInWithPassword(page: Page) {
  await page.goto('/login?lang=en');
  await page.getByLabel('E-mail').fill(ADMIN.email);
  await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

describe('two-step sign-in for staff, in a shop that requires it of admins', () => {
  const state = useBrowser();
  let key = '';
  let recoveryCodes: string[] = [];
  const appCode = () => new TOTP({ secret: Secret.fromBase32(key) }).generate();

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'vitrina-e2e-two-factor-'));
    await prepareDemoShop(dataDir, async () => {});
    shop = await startShop(dataDir, { ADMIN_TWO_FACTOR: 'required' });
    state.baseUrl = shop.baseUrl;
  }, 300_000);

  afterAll(async () => {
    await shop?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('sends an admin without it to the enrolment page, which turns it on with a code from the app', async () => {
    const { page } = state;
    await signInWithPassword(page);
    await page.waitForURL((url) => url.pathname !== '/login');
    await page.goto('/admin');
    expect(pathOf(page)).toBe('/admin/two-factor');
    await page.getByText('Admins turn on two-step sign-in before using the back office.').waitFor();

    await page.getByRole('button', { name: 'Turn on two-step sign-in' }).click();
    await page.locator('.admin-qr-code svg').waitFor();
    key = (await page.locator('form code').first().textContent()) ?? '';
    expect(key).toMatch(/^[A-Z2-7]{32}$/);
    await page.getByLabel('Code from the app').fill(appCode());
    await page.getByRole('button', { name: 'Confirm and turn on' }).click();
    await page.getByText('Two-step sign-in is on.').waitFor();
    recoveryCodes = await page.locator('.admin-recovery-codes code').allTextContents();
    expect(recoveryCodes).toHaveLength(10);

    await page.goto('/admin');
    expect(pathOf(page)).toBe('/admin');
  });

  it('asks for the code after the password and opens the back office with it', async () => {
    const { page } = state;
    await signInWithPassword(page);
    await page.getByRole('heading', { name: 'Two-step sign-in' }).waitFor();
    await page.getByLabel('Code').fill(appCode());
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.waitForURL((url) => url.pathname !== '/login');
    await page.goto('/admin');
    expect(pathOf(page)).toBe('/admin');
  });

  it('takes a recovery code instead of the app once, and refuses it the second time', async () => {
    const { page } = state;
    const [code = ''] = recoveryCodes;
    await signInWithPassword(page);
    await page.getByLabel('Code').fill(code);
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.waitForURL((url) => url.pathname !== '/login');

    await page.context().clearCookies({ name: 'vitrina.sid' });
    await signInWithPassword(page);
    await page.getByLabel('Code').fill(code);
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('The code is wrong or has expired.').waitFor();
    expect(pathOf(page)).toBe('/login');
  });
});
