import { describe, expect, inject, it } from 'vitest';

/** The admin the e2e server seeds (tests/e2e/server.global.ts). */
const ADMIN = { email: 'admin@vitrina.example', password: 'e2e-admin-password' };

/**
 * The page cache against the real server: catalogue pages for visitors without a session come
 * from the cache, and an admin's change shows on the very next anonymous visit.
 */
describe('page cache of catalogue pages', () => {
  const baseUrl = inject('baseUrl');

  // In Russian, whose pages show (and describe for search engines) prices in roubles.
  const visit = async (path: string, cookie = '') => {
    const response = await fetch(`${baseUrl}${path}`, {
      headers: { cookie: ['locale=ru', cookie].filter(Boolean).join('; ') },
    });
    const html = await response.text();
    const price = html.match(/"priceCurrency":"RUB","price":"([\d.]+)"/)?.[1];
    return { status: response.status, cache: response.headers.get('x-page-cache'), html, price };
  };

  async function signInAsAdmin() {
    const response = await fetch(`${baseUrl}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: baseUrl },
      body: JSON.stringify({ ...ADMIN, remember: 1 }),
    });
    expect(response.status).toBe(200);
    const cookie = response.headers
      .getSetCookie()
      .map((line) => line.split(';', 1)[0])
      .join('; ');
    return (path: string, init: RequestInit = {}) =>
      fetch(`${baseUrl}${path}`, {
        ...init,
        headers: { 'content-type': 'application/json', origin: baseUrl, cookie, ...init.headers },
      });
  }

  it('serves a product page from the cache and shows an admin price change at once', async () => {
    const initial = (await (await fetch(`${baseUrl}/api/initial?locale=en`)).json()) as {
      week: Array<{ id: number; link: string }>;
    };
    const product = initial.week[0];
    if (!product) throw new Error('the demo data has no featured product');
    const path = `/product/${product.link}`;

    await visit(path);
    const kept = await visit(path);
    expect(kept.cache).toBe('hit');
    // Visitors with a session share a kept page of their own, which shows nobody's data (ADR 0048).
    expect((await visit(path, 'vitrina.sid=someone')).cache).toBe('miss');
    expect((await visit(path, 'vitrina.sid=someone-else')).cache).toBe('hit');

    const admin = await signInAsAdmin();
    const editable = (await (await admin(`/api/admin/products/${product.id}`)).json()) as {
      product: Record<string, unknown> & { price: number; sale: number };
    };
    const newPrice = Math.max(editable.product.price, editable.product.sale) + 111;
    const saved = await admin(`/api/admin/products/${product.id}`, {
      method: 'PATCH',
      body: JSON.stringify({ ...editable.product, price: newPrice }),
    });
    expect(saved.status, await saved.clone().text()).toBe(200);

    const after = await visit(path);
    expect(after.cache).toBe('miss');
    expect(Number(after.price)).toBe(newPrice);
    expect(Number((await visit(path)).price)).toBe(newPrice);
    expect(Number((await visit(path, 'vitrina.sid=someone')).price)).toBe(newPrice);
  });
});
