import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserRole } from '../../contract/accounts.ts';
import { hashPassword } from '../accounts/passwords.ts';
import { auditLog, staticPages, users } from '../db/schema.ts';
import { SESSION_COOKIE } from '../http/session.ts';
import { createTestApp } from '../testing/app.ts';

let shop: Awaited<ReturnType<typeof createTestApp>>;
const cookies: Partial<Record<UserRole, Record<string, string>>> = {};
const ids: Partial<Record<UserRole, number>> = {};

beforeAll(async () => {
  shop = await createTestApp();
  const password = 'staff password 1';
  const passwordHash = await hashPassword(password);
  for (const role of ['manager', 'customer'] as const) {
    const email = `${role}@example.com`;
    const [user] = await shop.db
      .insert(users)
      .values({ email, passwordHash, role, emailVerifiedAt: new Date() })
      .returning();
    ids[role] = user?.id;
    const login = await shop.app.inject({ method: 'POST', url: '/api/login', payload: { email, password } });
    const session = login.cookies.find((cookie) => cookie.name === SESSION_COOKIE)?.value ?? '';
    cookies[role] = { [SESSION_COOKIE]: session };
  }
});
afterAll(() => shop.close());

const save = (role: UserRole | 'guest', page: string, payload: object, locale = 'en') =>
  shop.app.inject({
    method: 'PATCH',
    url: `/api/admin/pages/${page}?locale=${locale}`,
    payload,
    ...(role === 'guest' ? {} : { cookies: cookies[role] }),
  });

describe('static pages in the back office', () => {
  it('lists the four pages, unsaved ones empty so the shop shows its built-in text', async () => {
    const response = await shop.app.inject({
      method: 'GET',
      url: '/api/admin/pages',
      cookies: cookies.manager,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().pages).toEqual(
      ['shipping', 'payment', 'about', 'privacy-policy'].map((page) => ({
        page,
        html_ru: '',
        html_en: '',
        version: 0,
        updatedAt: null,
      })),
    );
  });

  it('lets a manager save a page, sanitized, and the shop reads the new text at once', async () => {
    const before = await shop.services.catalog.staticPage('about');
    expect(before.value.html_en).toBe('');

    const response = await save('manager', 'about', {
      html_ru: '<h2 id="wishlist">Избранное</h2><p>Текст<script>alert(1)</script></p>',
      html_en:
        '<h2>About</h2><table><tbody><tr><th scope="col">Size</th></tr><tr><td>M</td></tr></tbody></table>' +
        '<p><img src="/img/products/640/0123456789abcdef.webp" alt="Mug" /> <a href="javascript:alert(1)">x</a></p>',
      version: 0,
    });
    expect(response.statusCode).toBe(200);
    const page = response.json().page;
    expect(page).toMatchObject({ page: 'about', version: 1 });
    expect(page.html_ru).toBe('<h2 id="wishlist">Избранное</h2><p>Текст</p>');
    expect(page.html_en).toContain('<th scope="col">Size</th>');
    expect(page.html_en).toContain('<img src="/img/products/640/0123456789abcdef.webp" alt="Mug" />');
    expect(page.html_en).not.toContain('javascript');

    expect((await shop.services.catalog.staticPage('about')).value.html_ru).toBe(page.html_ru);

    const [audit] = await shop.db.select().from(auditLog).where(eq(auditLog.entity, 'static-page'));
    expect(audit).toMatchObject({ actorId: ids.manager, action: 'create', entityId: 'about' });
  });

  it('refuses a save from a stale version with 409 in the caller language and keeps the text', async () => {
    const first = await save('manager', 'shipping', {
      html_ru: '<p>Один</p>',
      html_en: '<p>One</p>',
      version: 0,
    });
    expect(first.statusCode).toBe(200);
    // Another editor also started from "never saved".
    const stale = await save(
      'manager',
      'shipping',
      { html_ru: '<p>Два</p>', html_en: '<p>Two</p>', version: 0 },
      'ru',
    );
    expect(stale.statusCode).toBe(409);
    expect(stale.json().errors.version[0]).toMatch(/[а-я]/i);
    const older = await save('manager', 'shipping', {
      html_ru: '<p>Три</p>',
      html_en: '<p>Three</p>',
      version: 7,
    });
    expect(older.statusCode).toBe(409);

    const next = await save('manager', 'shipping', { html_ru: '', html_en: '<p>Four</p>', version: 1 });
    expect(next.json().page).toMatchObject({ html_ru: '', html_en: '<p>Four</p>', version: 2 });
    const [row] = await shop.db.select().from(staticPages).where(eq(staticPages.page, 'shipping'));
    expect(row).toMatchObject({ htmlRu: '', htmlEn: '<p>Four</p>', version: 2 });
  });

  it('keeps customers and visitors out, before reading anything', async () => {
    const payload = { html_ru: '<p>x</p>', html_en: '<p>x</p>', version: 0 };
    expect((await save('customer', 'privacy-policy', payload)).statusCode).toBe(403);
    expect((await save('guest', 'privacy-policy', payload)).statusCode).toBe(401);
    const list = await shop.app.inject({ method: 'GET', url: '/api/admin/pages', cookies: cookies.customer });
    expect(list.statusCode).toBe(403);
    expect(
      (await shop.db.select().from(staticPages).where(eq(staticPages.page, 'privacy-policy'))).length,
    ).toBe(0);
  });

  it('answers an unknown page or a bad body with a message, not a 500', async () => {
    const unknown = await save('manager', 'terms', { html_ru: '', html_en: '', version: 0 });
    expect([404, 422]).toContain(unknown.statusCode);
    const bad = await save('manager', 'about', { html_ru: 5, version: 'x' });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors)).toEqual(expect.arrayContaining(['html_ru', 'html_en', 'version']));
  });
});
