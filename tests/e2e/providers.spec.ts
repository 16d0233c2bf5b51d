import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { RouteConfigEntry } from '@react-router/dev/routes';
import { eq } from 'drizzle-orm';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/server/accounts/passwords.ts';
import { users } from '../../src/server/db/schema.ts';
import { createRussianPostSimulator } from '../../src/server/providers/simulators/russian-post.ts';
import routes from '../../src/web/routes.ts';
import { prepareDemoShop } from './own-shop.ts';
import { startShop } from './server.global.ts';

/**
 * Shops in production outside test mode (ADR 0054): one that offers Robokassa and Russian Post only
 * and is given Robokassa's credentials alone; one with every provider on. Both are configured with a
 * distinctive fake value for every secret setting, and no page (both languages; anonymous, shopper
 * and admin), asset or API answer they serve carries any of them, in its body or its headers.
 */

const ADMIN = { email: 'admin@vitrina.example', password: 'SECRET-admin-password-5f1c' };
const SHOPPER = { email: 'scan-shopper@example.com', password: 'scan shopper password' };
/** Nothing listens there: the real providers are never called from a test. */
const NOWHERE = 'http://127.0.0.1:9';

/** Secrets every shop has, whatever it offers. */
const SHOP_SECRETS = {
  SESSION_SECRET: 'SECRET-session-7d3e0b9a2c4f4e1a8b6d5c3e2f1a0b9c',
  SMTP_URL: 'smtp://mailer:SECRET-smtp-password-91ab@127.0.0.1:9',
  METRICS_TOKEN: 'SECRET-metrics-token-3c7d',
  ADMIN_PASSWORD: ADMIN.password,
  S3_BUCKET: 'vitrina-scan',
  S3_ENDPOINT: NOWHERE,
  S3_ACCESS_KEY_ID: 'SECRET-s3-key-id-AKIA77',
  S3_SECRET_ACCESS_KEY: 'SECRET-s3-secret-key-0e4f',
};
const ROBOKASSA_SECRETS = {
  ROBOKASSA_LOGIN: 'vitrina-scan-shop',
  ROBOKASSA_PASSWORD1: 'SECRET-robokassa-password-1-aa11',
  ROBOKASSA_PASSWORD2: 'SECRET-robokassa-password-2-bb22',
  ROBOKASSA_PASSWORD3: 'SECRET-robokassa-password-3-cc33',
};
const OTHER_PROVIDER_SECRETS = {
  PAYPAL_CLIENT_ID: 'paypal-scan-client-id',
  PAYPAL_CLIENT_SECRET: 'SECRET-paypal-client-secret-ee55',
  PAYPAL_WEBHOOK_ID: 'paypal-scan-webhook-id',
  BOXBERRY_TOKEN: 'SECRET-boxberry-api-token-0a77',
  RUSSIAN_POST_ACCESS_TOKEN: 'SECRET-russian-post-token-1b88',
  RUSSIAN_POST_LOGIN: 'shipping@vitrina.example',
  RUSSIAN_POST_PASSWORD: 'SECRET-russian-post-password-2c99',
  RUSSIAN_POST_TRACKING_LOGIN: 'tracking-scan-login',
  RUSSIAN_POST_TRACKING_PASSWORD: 'SECRET-russian-post-tracking-3daa',
};
/** Setting names whose values are not secret (an address, a login, a bucket name, an app's id). */
const NOT_SECRET = new Set([
  'S3_BUCKET',
  'S3_ENDPOINT',
  'ROBOKASSA_LOGIN',
  'PAYPAL_CLIENT_ID',
  'PAYPAL_WEBHOOK_ID',
  'RUSSIAN_POST_LOGIN',
  'RUSSIAN_POST_TRACKING_LOGIN',
]);

/** The secret values among `env`'s settings (the SMTP password out of its URL). */
const secretsOf = (env: Record<string, string>) =>
  Object.entries(env)
    .filter(([name]) => name in { ...SHOP_SECRETS, ...ROBOKASSA_SECRETS, ...OTHER_PROVIDER_SECRETS })
    .filter(([name]) => !NOT_SECRET.has(name))
    .map(([name, value]) => ({ name, value: name === 'SMTP_URL' ? 'SECRET-smtp-password-91ab' : value }));

let russianPost: FastifyInstance;
let russianPostUrl: string;

beforeAll(async () => {
  russianPost = Fastify();
  await russianPost.register(createRussianPostSimulator().plugin);
  russianPostUrl = `${await russianPost.listen({ port: 0, host: '127.0.0.1' })}/sandbox/russian-post`;
});
afterAll(() => russianPost?.close());

async function ownShop(env: Record<string, string>) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'vitrina-providers-'));
  await prepareDemoShop(dataDir, async (db) => {
    await db
      .update(users)
      .set({ passwordHash: await hashPassword(ADMIN.password) })
      .where(eq(users.email, ADMIN.email));
    await db.insert(users).values({
      email: SHOPPER.email,
      passwordHash: await hashPassword(SHOPPER.password),
      emailVerifiedAt: new Date(),
    });
  });
  const shop = await startShop(dataDir, {
    TEST_MODE: 'false',
    RUSSIAN_POST_URL: russianPostUrl,
    RATES_CBR_URL: `${NOWHERE}/scripts/XML_daily.asp`,
    RATES_MOEX_URL: `${NOWHERE}/iss/securities.json`,
    BOXBERRY_URL: `${NOWHERE}/json.php`,
    ROBOKASSA_URL: `${NOWHERE}/Merchant/Index.aspx`,
    PAYPAL_URL: `${NOWHERE}/cgi-bin/webscr`,
    ...env,
  });
  return {
    ...shop,
    async stop() {
      await shop.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Signs in and answers the cookie header to send. */
async function signIn(baseUrl: string, account: { email: string; password: string }) {
  const response = await fetch(`${baseUrl}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: baseUrl },
    body: JSON.stringify(account),
  });
  expect(response.status).toBe(200);
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0])
    .join('; ');
}

/** Every path of the route list, its parameters filled with `values` (optional ones left out). */
function routePaths(
  entries: readonly RouteConfigEntry[],
  values: Record<string, string>,
  prefix = '',
): string[] {
  return entries.flatMap((entry) => {
    const own = entry.path === undefined ? prefix : `${prefix}/${entry.path}`;
    const filled = own
      .split('/')
      .map((part) =>
        part.endsWith('?') ? '' : part.startsWith(':') ? (values[part.slice(1)] ?? part) : part,
      )
      .filter((part) => part !== '' && part !== '*')
      .join('/');
    const here = entry.path === undefined && !entry.index ? [] : [`/${filled}`];
    return [...here, ...routePaths(entry.children ?? [], values, own)];
  });
}

/** The values of a page's radio buttons named `name` (React writes `value` after the other attributes). */
const choices = (html: string, name: string) =>
  [...html.matchAll(/<input[^>]*>/g)]
    .filter((input) => input[0].includes(`name="${name}"`))
    .map((input) => input[0].match(/ value="([^"]*)"/)?.[1]);

/** Puts the first product of the sitemap that can be bought as it is into the shopper's basket. */
async function fillBasket(baseUrl: string, cookie: string) {
  const headers = { cookie, origin: baseUrl };
  const sitemap = await (await fetch(`${baseUrl}/sitemap.xml`)).text();
  const links = new Set([...sitemap.matchAll(/<loc>[^<]*\/product\/([^<?]+)/g)].map((match) => match[1]));
  for (const link of links) {
    const answer = await fetch(`${baseUrl}/api/product?link=${link}&locale=ru`, { headers });
    const { product } = (await answer.json()) as { product?: { id: number } };
    if (!product) continue;
    const added = await fetch(`${baseUrl}/api/basket`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ product: product.id }),
    });
    if (added.ok) return;
  }
  throw new Error('no product of the sitemap could be put in the basket');
}

interface Leak {
  url: string;
  secret: string;
  where: 'body' | 'headers';
}

/**
 * Requests every page of the route list and the sitemap, each asset those pages name, and every
 * GET of the API's own description, in both languages with `cookie`; answers what was requested
 * and any secret found.
 */
async function scan(baseUrl: string, cookie: string, secrets: { name: string; value: string }[]) {
  const leaks: Leak[] = [];
  const seen = new Set<string>();
  const texts = (value: string) => [value, encodeURIComponent(value), Buffer.from(value).toString('base64')];
  const get = async (url: string) => {
    if (seen.has(url)) return '';
    seen.add(url);
    const response = await fetch(`${baseUrl}${url}`, { headers: { cookie }, redirect: 'manual' });
    const body = Buffer.from(await response.arrayBuffer()).toString('latin1');
    const headers = [...response.headers.entries()].map(([name, value]) => `${name}: ${value}`).join('\n');
    for (const secret of secrets) {
      for (const form of texts(secret.value)) {
        if (body.includes(form)) leaks.push({ url, secret: secret.name, where: 'body' });
        if (headers.includes(form)) leaks.push({ url, secret: secret.name, where: 'headers' });
      }
    }
    return response.headers.get('content-type')?.includes('html') ? body : '';
  };

  const sitemap = await (await fetch(`${baseUrl}/sitemap.xml`)).text();
  const sitemapPaths = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map(
    (match) => new URL(match[1] ?? '').pathname,
  );
  const productLink = sitemapPaths.find((page) => page.startsWith('/product/'))?.split('/')[2] ?? 'none';
  const pages = [
    ...routePaths(routes, {
      link: productLink,
      search: 'shirt',
      id: '1',
      provider: 'robokassa',
      page: 'about',
    }),
    ...sitemapPaths,
  ];
  const api = (await (await fetch(`${baseUrl}/api/docs/json`)).json()) as {
    paths: Record<string, Record<string, unknown>>;
  };
  const apiGets = Object.entries(api.paths)
    .filter(([, methods]) => 'get' in methods)
    .map(([route]) => route.replace(/\{[^}]+\}/g, '1'));

  for (const lang of ['ru', 'en']) {
    for (const page of pages) {
      const html = await get(`${page}${page.includes('?') ? '&' : '?'}lang=${lang}`);
      for (const match of html.matchAll(/(?:src|href)="(\/[^"/][^"]*)"/g)) {
        const asset = (match[1] ?? '').replaceAll('&amp;', '&');
        if (!asset.startsWith('/api/') && /\.[a-z0-9]+(\?|$)/i.test(asset)) await get(asset);
      }
    }
    for (const route of apiGets) await get(`${route}?locale=${lang}`);
  }
  return { leaks, requested: seen.size };
}

const production = { NODE_ENV: 'production', PAYMENT_METHODS: 'robokassa', DELIVERY_METHODS: 'russian_post' };

describe("a shop with only Robokassa enabled, given Robokassa's credentials alone", () => {
  let shop: Awaited<ReturnType<typeof ownShop>>;
  const env = { ...production, ...SHOP_SECRETS, ...ROBOKASSA_SECRETS };

  beforeAll(async () => {
    shop = await ownShop(env);
  });
  afterAll(() => shop?.stop());

  it('starts in production, and its payment step shows Robokassa alone', async () => {
    const cookie = await signIn(shop.baseUrl, SHOPPER);
    const send = (url: string, init: RequestInit = {}) =>
      fetch(`${shop.baseUrl}${url}`, {
        redirect: 'manual',
        ...init,
        headers: { cookie, origin: shop.baseUrl, ...(init.headers as Record<string, string>) },
      });
    await fillBasket(shop.baseUrl, cookie);

    const shipping = await send('/order/shipping?lang=ru', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        deliveryMethod: 'russian_post',
        email: SHOPPER.email,
        firstName: 'Анна',
        lastName: 'Петрова',
        phone: '+7 900 000-00-00',
        country: 'RU',
        city: 'Новосибирск',
        zip: '630099',
        address: 'Красный пр-кт, д.29',
      }).toString(),
    });
    expect(shipping.status).toBe(302);
    expect(shipping.headers.get('location')).toMatch(/\/order\/payment$/);

    const paymentPage = await send('/order/payment?lang=ru');
    expect([paymentPage.status, paymentPage.headers.get('location')]).toEqual([200, null]);
    const payment = await paymentPage.text();
    expect(choices(payment, 'paymentMethod')).toEqual(['robokassa']);
    const shippingPage = await (await send('/order/shipping?lang=en')).text();
    expect(choices(shippingPage, 'deliveryMethod')).toEqual(['russian_post']);
  });

  it('serves none of its secrets to anyone, in any page, asset or API answer', async () => {
    const secrets = secretsOf(env);
    for (const account of [null, SHOPPER, ADMIN]) {
      const cookie = account ? await signIn(shop.baseUrl, account) : '';
      const { leaks, requested } = await scan(shop.baseUrl, cookie, secrets);
      expect(leaks).toEqual([]);
      expect(requested).toBeGreaterThan(150);
    }
  }, 600_000);
});

describe('a shop with every provider on', () => {
  let shop: Awaited<ReturnType<typeof ownShop>>;
  const env = {
    NODE_ENV: 'production',
    ...SHOP_SECRETS,
    ...ROBOKASSA_SECRETS,
    ...OTHER_PROVIDER_SECRETS,
    BOXBERRY_WIDGET_KEY: 'public-boxberry-widget-key',
  };

  beforeAll(async () => {
    shop = await ownShop(env);
  });
  afterAll(() => shop?.stop());

  it("serves none of its secrets, Boxberry's API token included, to a signed-in shopper or admin", async () => {
    const secrets = secretsOf(env);
    const shopper = await signIn(shop.baseUrl, SHOPPER);
    await fillBasket(shop.baseUrl, shopper);
    // The shipping step opens Boxberry's widget with its public key.
    const shipping = await fetch(`${shop.baseUrl}/order/shipping?lang=ru`, { headers: { cookie: shopper } });
    expect(await shipping.text()).toContain('public-boxberry-widget-key');
    // The public widget key goes along as a canary: the scan must find it, or it finds nothing at all.
    const canary = { name: 'BOXBERRY_WIDGET_KEY', value: 'public-boxberry-widget-key' };
    for (const cookie of [shopper, await signIn(shop.baseUrl, ADMIN)]) {
      const { leaks } = await scan(shop.baseUrl, cookie, [...secrets, canary]);
      expect(leaks.filter((leak) => leak.secret !== canary.name)).toEqual([]);
      if (cookie === shopper) expect(leaks).toContainEqual(expect.objectContaining({ secret: canary.name }));
    }
  }, 600_000);
});
