import type { Page } from 'playwright-core';
import { beforeAll, expect } from 'vitest';
import type { InitialResponse } from '../../src/contract/catalog.ts';
import { waitForMail } from './outbox.ts';

/**
 * What journeys set up through the API rather than through pages: the admin's products made for one
 * test (so counts and stock are the test's own) and confirmed, signed-in shoppers.
 */

/** The admin the e2e server seeds (tests/e2e/server.global.ts). */
const ADMIN = { email: 'admin@vitrina.example', password: 'e2e-admin-password' };

const ACTIVATE_LINK = /https?:\/\/[^\s"<>]+\/activate\?token=[^\s"<>]+/;

export const unique = (name: string) => `${name}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;

/** JSON calls to the API as a browser on the shop's own origin would make them. */
export async function call<T>(
  baseUrl: string,
  method: string,
  path: string,
  body?: unknown,
  cookie?: string,
): Promise<{ status: number; json: T; cookies: string[] }> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      origin: baseUrl,
      accept: 'application/json',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(cookie ? { cookie } : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return {
    status: response.status,
    json: (await response.json()) as T,
    cookies: response.headers.getSetCookie(),
  };
}

export interface AdminProduct {
  id: number;
  link: string;
  [field: string]: unknown;
}

/** The admin's session, and products made for one test (so counts and stock are the test's own). */
export function useCatalogue(browser: { baseUrl: string }) {
  const state = { cookie: '', projectId: 0 };
  beforeAll(async () => {
    const baseUrl = browser.baseUrl;
    const login = await call(baseUrl, 'POST', '/api/login', { ...ADMIN, remember: 1 });
    expect(login.status).toBe(200);
    state.cookie = login.cookies.map((cookie) => cookie.split(';')[0]).join('; ');
    const initial = await call<InitialResponse>(baseUrl, 'GET', '/api/initial?locale=en');
    const project = initial.json.projects[0];
    if (!project) throw new Error('demo data has no projects');
    state.projectId = project.id;
  });
  return {
    async product(name: string, quantity: number, price = 1000): Promise<AdminProduct> {
      const link = unique(name.toLowerCase().replace(/[^a-z0-9]+/g, '-'));
      const answer = await call<{ product: AdminProduct }>(
        browser.baseUrl,
        'POST',
        '/api/admin/products',
        {
          project: state.projectId,
          name_en: `${name} ${link.slice(-6)}`,
          name_ru: `${name} ${link.slice(-6)}`,
          link,
          price,
          quantity,
          visible: true,
        },
        state.cookie,
      );
      expect(answer.status).toBe(200);
      return answer.json.product;
    },
    async setStock(product: AdminProduct, quantity: number) {
      const current = await call<{ product: AdminProduct }>(
        browser.baseUrl,
        'GET',
        `/api/admin/products/${product.id}`,
        undefined,
        state.cookie,
      );
      const answer = await call(
        browser.baseUrl,
        'PATCH',
        `/api/admin/products/${product.id}`,
        {
          ...current.json.product,
          quantity,
          quantityHardset: true,
          quantity_seen: current.json.product.currentQuantity,
        },
        state.cookie,
      );
      expect(answer.status).toBe(200);
    },
  };
}

/** A new account, confirmed through the mailed link: the browser is then signed in, on the profile. */
export async function signUp(page: Page, baseUrl: string, locale: 'en' | 'ru' = 'en'): Promise<string> {
  const email = `${unique('shopper')}@example.test`;
  const password = 'shopper-journey-password';
  const registration = await call(baseUrl, 'POST', '/api/registration', {
    locale,
    email,
    password,
    password_confirmation: password,
    privacy_policy: 1,
  });
  expect(registration.status).toBe(200);
  const link = new URL((await waitForMail(email, ACTIVATE_LINK)).match(ACTIVATE_LINK)?.[0] ?? '');
  await page.goto(`${link.pathname}${link.search}`);
  await page.waitForURL((url) => url.pathname === '/profile');
  return email;
}

const INVITATION_LINK = /https?:\/\/[^\s"<>]+\/staff-invitation\?token=[^\s"<>]+/;

/**
 * The invitee's side of a staff invitation the admin has sent (ADR 0056): it grants nothing until
 * accepted, so the invitee signs in (registering with the invited address and confirming it first
 * when it has no account) and accepts the link. The browser is not touched: the caller signs in
 * with the password afterwards.
 */
export async function acceptStaffInvitation(
  baseUrl: string,
  email: string,
  password: string,
  options: { hasAccount?: boolean } = {},
) {
  const invitation = new URL((await waitForMail(email, INVITATION_LINK)).match(INVITATION_LINK)?.[0] ?? '');
  const signedIn = options.hasAccount
    ? await call(baseUrl, 'POST', '/api/login', { email, password })
    : await registerAndConfirm(baseUrl, email, password);
  expect(signedIn.status).toBe(200);
  const cookie = signedIn.cookies.map((entry) => entry.split(';')[0]).join('; ');
  const accepted = await call(
    baseUrl,
    'POST',
    '/api/staff-invitation',
    { token: invitation.searchParams.get('token') },
    cookie,
  );
  expect(accepted.status, JSON.stringify(accepted.json)).toBe(200);
}

/** A new account confirmed through its mailed link; answers the confirmation's sign-in. */
async function registerAndConfirm(baseUrl: string, email: string, password: string) {
  const registration = await call(baseUrl, 'POST', '/api/registration', {
    locale: 'en',
    email,
    password,
    password_confirmation: password,
    privacy_policy: 1,
  });
  expect(registration.status).toBe(200);
  const activate = new URL((await waitForMail(email, ACTIVATE_LINK)).match(ACTIVATE_LINK)?.[0] ?? '');
  return call(
    baseUrl,
    'GET',
    `/api/verify?token=${encodeURIComponent(activate.searchParams.get('token') ?? '')}`,
  );
}
