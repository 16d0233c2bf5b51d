import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { waitForMail } from './outbox.ts';

const SHOPPER_PASSWORD = 'checkout-password-1';
const ACTIVATE_LINK = /https?:\/\/[^\s"<>]+\/activate\?token=[^\s"<>]+/;

/** A new, confirmed and signed-in shopper (registration through the API, confirmation by the mailed link). */
export async function signUp(page: Page, locale: 'en' | 'ru'): Promise<string> {
  const email = `checkout-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.test`;
  await page.goto('/');
  const status = await page.evaluate(
    async (body) =>
      (
        await fetch('/api/registration', {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify(body),
        })
      ).status,
    { locale, email, password: SHOPPER_PASSWORD, password_confirmation: SHOPPER_PASSWORD, privacy_policy: 1 },
  );
  expect(status).toBe(200);
  const link = (await waitForMail(email, ACTIVATE_LINK)).match(ACTIVATE_LINK)?.[0];
  if (!link) throw new Error('no activation link');
  const url = new URL(link);
  await page.goto(`${url.pathname}${url.search}`);
  await page.waitForURL((current) => current.pathname === '/profile');
  return email;
}
