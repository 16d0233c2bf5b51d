import { Readable } from 'node:stream';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import fastifyCookie from '@fastify/cookie';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { type CatalogChange, createChangeLog, EVERYTHING, STOCK_GRACE_MS } from '../caches/changes.ts';
import { pageCache, STOCK_RENDER_AGAIN_MS } from './page-cache.ts';

/**
 * A stand-in for the server-rendered app: a page that prints the "catalogue" price it read, as a
 * stream like React Router's adapter sends, behind the same plugins the shop uses. A product page
 * `/product/x` shows the key `product:x`, any other page `home`.
 */
async function shopWithPageCache(options: { status?: number; setCookie?: boolean; purging?: boolean } = {}) {
  const catalogue = { price: 100, renders: 0, canKeep: true, now: 1_000_000 };
  const changes = createChangeLog(() => catalogue.now);
  let pause: Promise<void> | undefined;
  let renderStarted = () => {};
  const app = Fastify();
  await app.register(fastifyCookie);
  await app.register(fastifyCompress, { global: true, threshold: 1024, encodings: ['br', 'gzip'] });
  await app.register(async (pages) => {
    const cache = pageCache(pages, {
      maxBytes: 1024 * 1024,
      cacheable: (path) => path === '/' || path.startsWith('/product/'),
      audience: (request) =>
        request.cookies.sid === undefined
          ? 'anyone'
          : request.url.includes('added=')
            ? 'personal'
            : 'session',
      variant: (request) => request.cookies.locale ?? 'en',
      keys: (request) => {
        const path = request.url.split('?', 1)[0] ?? '/';
        return [path.startsWith('/product/') ? `product:${path.slice('/product/'.length)}` : 'home'];
      },
      changes,
      canKeep: () => catalogue.canKeep,
      purging: options.purging ?? false,
    });
    pages.get('/*', async (request, reply) => {
      catalogue.renders += 1;
      const price = catalogue.price;
      renderStarted();
      await pause;
      if (options.setCookie) reply.header('set-cookie', 'seen=1');
      reply.status(options.status ?? 200).type('text/html; charset=utf-8');
      const html = `<p>${request.cookies.locale ?? 'en'} ${request.url} costs ${price}</p>${'<i></i>'.repeat(400)}`;
      return reply.send(Readable.from([html]));
    });
    return cache;
  });
  const change = (price: number, what: CatalogChange = EVERYTHING) => {
    catalogue.price = price;
    changes.record(what);
  };
  /** Renders wait until `release()`; `rendering` settles once the next render has started. */
  const holdRenders = () => {
    let release = () => {};
    pause = new Promise((resolve) => {
      release = () => {
        pause = undefined;
        resolve();
      };
    });
    const rendering = new Promise<void>((resolve) => {
      renderStarted = resolve;
    });
    return { release, rendering };
  };
  return { app, catalogue, change, holdRenders };
}

const page = async (
  app: Awaited<ReturnType<typeof shopWithPageCache>>['app'],
  url: string,
  headers: Record<string, string> = {},
) => {
  const response = await app.inject({ method: 'GET', url, headers });
  return {
    status: response.statusCode,
    cache: response.headers['x-page-cache'],
    text: response.body,
    headers: response.headers,
  };
};

describe('page cache', () => {
  let shop: Awaited<ReturnType<typeof shopWithPageCache>>;
  afterEach(async () => shop?.app.close());

  it('renders a catalogue page once and serves the kept copy to the next anonymous visitor', async () => {
    shop = await shopWithPageCache();
    const first = await page(shop.app, '/product/cap');
    const second = await page(shop.app, '/product/cap');
    expect(first.cache).toBe('miss');
    expect(second.cache).toBe('hit');
    expect(second.text).toBe(first.text);
    expect(shop.catalogue.renders).toBe(1);
  });

  it('never serves a page kept before a catalogue change', async () => {
    shop = await shopWithPageCache();
    expect((await page(shop.app, '/product/cap')).text).toContain('costs 100');
    shop.change(80);
    const after = await page(shop.app, '/product/cap');
    expect(after.cache).toBe('miss');
    expect(after.text).toContain('costs 80');
    expect((await page(shop.app, '/product/cap')).text).toContain('costs 80');
  });

  it('does not keep a page whose render started before a change', async () => {
    shop = await shopWithPageCache();
    const { release, rendering: started } = shop.holdRenders();
    const rendering = page(shop.app, '/product/cap');
    await started;
    shop.change(80);
    release();
    expect((await rendering).text).toContain('costs 100');
    const next = await page(shop.app, '/product/cap');
    expect(next.cache).toBe('miss');
    expect(next.text).toContain('costs 80');
  });

  it('keeps one copy per URL (query included) and per variant such as the language', async () => {
    shop = await shopWithPageCache();
    await page(shop.app, '/product/cap');
    expect((await page(shop.app, '/product/cap?sort=asc')).cache).toBe('miss');
    const russian = await page(shop.app, '/product/cap', { cookie: 'locale=ru' });
    expect(russian.cache).toBe('miss');
    expect(russian.text).toContain('ru /product/cap');
    expect((await page(shop.app, '/product/cap', { cookie: 'locale=ru' })).text).toContain('ru /product/cap');
    expect((await page(shop.app, '/product/cap')).text).toContain('en /product/cap');
  });

  it('keeps the page of visitors with a session apart, shared by all of them', async () => {
    shop = await shopWithPageCache();
    await page(shop.app, '/product/cap');
    expect((await page(shop.app, '/product/cap', { cookie: 'sid=abc' })).cache).toBe('miss');
    expect((await page(shop.app, '/product/cap', { cookie: 'sid=other' })).cache).toBe('hit');
    expect((await page(shop.app, '/product/cap')).cache).toBe('hit');
    expect(shop.catalogue.renders).toBe(2);
  });

  it("leaves a page that is one visitor's own to the renderer", async () => {
    shop = await shopWithPageCache();
    for (const sid of ['abc', 'abc']) {
      expect((await page(shop.app, '/product/cap?added=1', { cookie: `sid=${sid}` })).cache).toBeUndefined();
    }
    expect(shop.catalogue.renders).toBe(2);
  });

  it('leaves other pages and other methods to the renderer', async () => {
    shop = await shopWithPageCache();
    expect((await page(shop.app, '/cart')).cache).toBeUndefined();
    expect((await page(shop.app, '/cart')).cache).toBeUndefined();
    expect(shop.catalogue.renders).toBe(2);
  });

  it('keeps nothing that is not a plain 200 page or that sets a cookie', async () => {
    shop = await shopWithPageCache({ status: 404 });
    await page(shop.app, '/product/missing');
    expect((await page(shop.app, '/product/missing')).cache).toBe('miss');
    await shop.app.close();
    shop = await shopWithPageCache({ setCookie: true });
    await page(shop.app, '/');
    expect((await page(shop.app, '/')).cache).toBe('miss');
  });

  it('keeps nothing while changes elsewhere could go unnoticed', async () => {
    shop = await shopWithPageCache();
    shop.catalogue.canKeep = false;
    await page(shop.app, '/');
    expect((await page(shop.app, '/')).cache).toBe('miss');
  });

  it('sends the kept page compressed as the browser accepts, once compressed', async () => {
    shop = await shopWithPageCache();
    // Kept, compressed, before the first answer is sent.
    const plain = await page(shop.app, '/product/cap');
    const br = await shop.app.inject({ url: '/product/cap', headers: { 'accept-encoding': 'gzip, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.text);
    const gzip = await shop.app.inject({
      url: '/product/cap',
      headers: { 'accept-encoding': 'gzip, br;q=0' },
    });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(plain.text);
    const identity = await shop.app.inject({
      url: '/product/cap',
      headers: { 'accept-encoding': 'identity' },
    });
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.body).toBe(plain.text);
  });

  it("keeps a product's page when another product's stock or price changes", async () => {
    shop = await shopWithPageCache();
    await page(shop.app, '/product/cap');
    await page(shop.app, '/product/mug');
    shop.change(80, { keys: ['product:mug'], stockOnly: true });
    shop.change(80, { keys: ['product:mug'] });
    shop.catalogue.now += STOCK_GRACE_MS;
    const cap = await page(shop.app, '/product/cap');
    expect(cap.cache).toBe('hit');
    expect(cap.text).toContain('costs 100');
    expect((await page(shop.app, '/product/mug')).text).toContain('costs 80');
  });

  it('drops a page at once when a price it shows changes, and renders it again within a second when only its stock does', async () => {
    shop = await shopWithPageCache();
    await page(shop.app, '/product/cap');
    shop.change(90, { keys: ['product:cap'], stockOnly: true });
    shop.catalogue.now += STOCK_RENDER_AGAIN_MS - 1;
    // Rendered less than half a second ago: the old stock may still show.
    expect((await page(shop.app, '/product/cap')).cache).toBe('hit');
    shop.catalogue.now += 1;
    const after = await page(shop.app, '/product/cap');
    expect(after.cache).toBe('miss');
    expect(after.text).toContain('costs 90');
    shop.change(70, { keys: ['product:cap'] });
    expect((await page(shop.app, '/product/cap')).text).toContain('costs 70');
  });

  it('shows the kept page while one visitor renders it again after a stock change, until it is a second old', async () => {
    shop = await shopWithPageCache();
    await page(shop.app, '/product/cap');
    shop.change(90, { keys: ['product:cap'], stockOnly: true });
    shop.catalogue.now += STOCK_RENDER_AGAIN_MS;
    const { release, rendering: started } = shop.holdRenders();
    const rendering = page(shop.app, '/product/cap');
    await started;
    const meanwhile = await page(shop.app, '/product/cap');
    expect(meanwhile.cache).toBe('hit');
    expect(meanwhile.text).toContain('costs 100');
    // A second after the kept page's render began, its stock may no longer show: visitors wait.
    shop.catalogue.now += STOCK_GRACE_MS - STOCK_RENDER_AGAIN_MS;
    const waiting = page(shop.app, '/product/cap');
    await new Promise((resolve) => setTimeout(resolve, 20));
    release();
    const [rendered, waited] = await Promise.all([rendering, waiting]);
    expect(rendered.cache).toBe('miss');
    expect(rendered.text).toContain('costs 90');
    expect(waited.text).toBe(rendered.text);
    expect(shop.catalogue.renders).toBe(2);
  });

  it('renders a page once for visitors who ask while it is being rendered', async () => {
    shop = await shopWithPageCache();
    const { release, rendering } = shop.holdRenders();
    const asked = [
      page(shop.app, '/product/cap'),
      page(shop.app, '/product/cap'),
      page(shop.app, '/product/cap'),
    ];
    await rendering;
    release();
    const answers = await Promise.all(asked);
    expect(shop.catalogue.renders).toBe(1);
    expect(answers.map((answer) => answer.cache).sort()).toEqual(['hit', 'hit', 'miss']);
    expect(new Set(answers.map((answer) => answer.text)).size).toBe(1);
  });

  it('tells shared caches what a kept page shows, and keeps what a session sees private', async () => {
    shop = await shopWithPageCache();
    for (const answer of [await page(shop.app, '/product/cap'), await page(shop.app, '/product/cap')]) {
      expect(answer.headers['cache-control']).toBe('public, max-age=0, s-maxage=1');
      expect(answer.headers['surrogate-key']).toBe('shop product:cap');
      expect(answer.headers['cache-tag']).toBe('shop,product:cap');
    }
    for (const sid of ['abc', 'other']) {
      const withSession = await page(shop.app, '/product/cap', { cookie: `sid=${sid}` });
      expect(withSession.headers['cache-control']).toBe('private, no-cache');
      expect(withSession.headers['surrogate-key']).toBeUndefined();
    }
    expect((await page(shop.app, '/cart')).headers['cache-control']).toBe('private, no-cache');
    await shop.app.close();
    shop = await shopWithPageCache({ purging: true });
    expect((await page(shop.app, '/')).headers['cache-control']).toBe('public, max-age=0, s-maxage=86400');
  });
});
