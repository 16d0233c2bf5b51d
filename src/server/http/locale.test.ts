import fastifyCookie from '@fastify/cookie';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { previewPath } from '../../contract/locale.ts';
import { rememberAddressLocale, requestLocale } from './locale.ts';

/**
 * An address with `?lang=` stores its language as the visitor's choice (ADR 0034), except a
 * back-office preview: the info-page editor's "open the English page" shows English without
 * switching the staff member's back office to it (issue 30, point 5).
 */

const app = Fastify();
beforeAll(async () => {
  await app.register(fastifyCookie);
  rememberAddressLocale(app);
  app.get('/payment', async (request) => ({ locale: requestLocale(request) }));
  await app.ready();
});
afterAll(() => app.close());

describe('the language of an address', () => {
  it('is stored when a page is opened at its address', async () => {
    const reply = await app.inject({ url: '/payment?lang=en', cookies: { locale: 'ru' } });
    expect(reply.json()).toEqual({ locale: 'en' });
    expect(reply.headers['set-cookie']).toMatch(/^locale=en;/);
  });

  it("is shown but not stored by the back office's preview, which keeps the admin's language", async () => {
    const path = previewPath('/payment', 'en');
    expect(path).toBe('/payment?lang=en&preview=1');
    const reply = await app.inject({ url: path, cookies: { locale: 'ru' } });
    expect(reply.json()).toEqual({ locale: 'en' });
    expect(reply.headers['set-cookie']).toBeUndefined();
    // The back office, opened again with the same cookie, is still Russian.
    expect((await app.inject({ url: '/payment', cookies: { locale: 'ru' } })).json()).toEqual({
      locale: 'ru',
    });
  });

  it('keeps a fragment after the preview parameter', () => {
    expect(previewPath('/about#wishlist', 'ru')).toBe('/about?lang=ru&preview=1#wishlist');
  });
});
