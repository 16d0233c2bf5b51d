import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fastifyCookie from '@fastify/cookie';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { createChangeLog } from '../caches/changes.ts';
import { loadConfig } from '../config.ts';
import { createTestApp } from '../testing/app.ts';
import { pageCache } from './page-cache.ts';
import { securityHeaders } from './security-headers.ts';

const nonceOf = (policy: unknown) => /script-src [^;]*'nonce-([0-9a-f]+)'/.exec(String(policy))?.[1];

describe('security headers', () => {
  let shop: Awaited<ReturnType<typeof createTestApp>> | undefined;
  afterEach(async () => {
    await shop?.close();
    shop = undefined;
  });

  it('forbid sniffing, framing and full referrers on every answer, images included, and leave HSTS out on http', async () => {
    shop = await createTestApp({ env: { PUBLIC_URL: 'http://shop.example' } });
    const { storage } = shop.services.config;
    if (storage.kind !== 'local') throw new Error('the test app keeps images on disk');
    mkdirSync(path.join(storage.root, 'img', 'products', '160'), { recursive: true });
    writeFileSync(path.join(storage.root, 'img', 'products', '160', '0123456789abcdef.webp'), 'webp bytes');

    for (const url of [
      '/img/products/160/0123456789abcdef.webp',
      '/api/initial?locale=en',
      '/no-such-page',
    ]) {
      const answer = await shop.app.inject({ method: 'GET', url });
      expect(answer.headers['x-content-type-options'], url).toBe('nosniff');
      expect(answer.headers['x-frame-options'], url).toBe('DENY');
      expect(answer.headers['content-security-policy'], url).toContain("frame-ancestors 'none'");
      expect(answer.headers['referrer-policy'], url).toBe('strict-origin-when-cross-origin');
      expect(answer.headers['strict-transport-security'], url).toBeUndefined();
      expect(answer.headers['content-security-policy'], url).not.toContain('upgrade-insecure-requests');
    }
    const image = await shop.app.inject({ method: 'GET', url: '/img/products/160/0123456789abcdef.webp' });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/webp');
  });

  it('ask browsers for https only when the public URL is https', async () => {
    shop = await createTestApp({ env: { PUBLIC_URL: 'https://shop.example' } });
    const answer = await shop.app.inject({ method: 'GET', url: '/api/initial?locale=en' });
    expect(answer.headers['strict-transport-security']).toBe('max-age=31536000');
    expect(answer.headers['content-security-policy']).toContain('upgrade-insecure-requests');
  });

  it('give each answer outside the API a nonce of its own and allow no inline script without it', async () => {
    shop = await createTestApp();
    const policies = await Promise.all(
      [1, 2, 3].map(
        async () =>
          (await shop?.app.inject({ method: 'GET', url: '/no-such-page' }))?.headers[
            'content-security-policy'
          ],
      ),
    );
    const nonces = policies.map(nonceOf);
    expect(nonces.every((nonce) => nonce && nonce.length >= 32)).toBe(true);
    expect(new Set(nonces).size).toBe(3);
    for (const policy of policies) {
      expect(policy).not.toMatch(/script-src[^;]*'unsafe-inline'/);
      expect(policy).toContain("script-src-attr 'none'");
      // Boxberry's widget is the one foreign script, and it comes from this host alone.
      expect(policy).toMatch(/script-src 'self' https:\/\/points\.boxberry\.ru 'nonce-/);
    }
  });

  it("send the API's JSON answers their policy and headers without a nonce, which nothing in them could use", async () => {
    shop = await createTestApp();
    for (const [method, url] of [
      ['GET', '/api/initial?locale=en'],
      ['GET', '/api/product?locale=en&link=no-such-product'],
      ['GET', '/api/no-such-call'],
      ['POST', '/api/basket'],
    ] as const) {
      const answer = await shop.app.inject({
        method,
        url,
        headers: { origin: shop.services.config.publicUrl },
      });
      expect(answer.headers['content-type'], url).toMatch(/^application\/json/);
      const policy = String(answer.headers['content-security-policy']);
      expect(policy, url).not.toContain('nonce-');
      expect(policy, url).toContain("default-src 'self'");
      expect(policy, url).toContain("frame-ancestors 'none'");
      expect(policy, url).toContain("script-src 'self' https://points.boxberry.ru;");
      expect(policy, url).toContain("style-src 'self';");
      expect(answer.headers['x-content-type-options'], url).toBe('nosniff');
      expect(answer.headers['x-frame-options'], url).toBe('DENY');
      expect(answer.headers['referrer-policy'], url).toBe('strict-origin-when-cross-origin');
    }
  });
});

describe('a kept page and its Content-Security-Policy', () => {
  it('is sent again with the policy that names the nonce its scripts carry', async () => {
    const app = Fastify();
    await app.register(fastifyCookie);
    pageCache(app, {
      maxBytes: 1024 * 1024,
      cacheable: () => true,
      audience: () => 'anyone',
      variant: () => 'en',
      keys: () => [],
      changes: createChangeLog(),
      canKeep: () => true,
      purging: false,
    });
    await securityHeaders(app, loadConfig({ NODE_ENV: 'test' }));
    app.get('/', async (_request, reply) =>
      reply
        .type('text/html; charset=utf-8')
        .send(`<script nonce="${reply.cspNonce?.script}">start()</script>`),
    );
    const rendered = await app.inject({ method: 'GET', url: '/' });
    const kept = await app.inject({ method: 'GET', url: '/' });
    await app.close();

    expect(kept.headers['x-page-cache']).toBe('hit');
    expect(kept.body).toBe(rendered.body);
    const nonce = nonceOf(kept.headers['content-security-policy']);
    expect(nonce).toBe(nonceOf(rendered.headers['content-security-policy']));
    expect(kept.body).toContain(`nonce="${nonce}"`);
    // Every header of the render but those of one response, though helmet's hook did not run.
    const { 'x-page-cache': _miss, 'x-request-id': _id, date: _date, ...renderedHeaders } = rendered.headers;
    const { 'x-page-cache': _hit, 'x-request-id': _id2, date: _date2, ...keptHeaders } = kept.headers;
    expect(keptHeaders).toEqual(renderedHeaders);
    expect(kept.headers['x-frame-options']).toBe('DENY');
  });
});
