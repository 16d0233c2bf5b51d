import { buffer } from 'node:stream/consumers';
import { promisify } from 'node:util';
import { brotliCompress, gzip, constants as zlib } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import { type ChangeLog, type Mark, STOCK_GRACE_MS } from '../caches/changes.ts';
import { gauge } from '../metrics.ts';
import { PRIVATE_CACHE_CONTROL, sharedCacheHeaders } from './cdn.ts';

/** See PageCacheOptions.audience. */
export type PageAudience = 'anyone' | 'session' | 'personal';

/**
 * Server-rendered catalogue pages, the same for every visitor who asks, kept ready to send.
 *
 * A page is kept per URL, per audience (anyone, or every visitor with a session: ADR 0048) and per
 * `variant` (locale, currency and anything else that changes the page) with the keys of what it
 * shows (the catalogue answers its loaders read) and the moment its render began. A change of one
 * of those keys (here or, through Redis, on another instance) makes it stale at once. A change of
 * stock only lets it be shown for a while (ADR 0042, 0049): once it is STOCK_RENDER_AGAIN_MS old,
 * the next visitor renders it again, and the others go on getting the kept page while that render
 * runs, until it is STOCK_GRACE_MS old. So a drop's orders cost about two renders of a page a
 * second, the crowd never waits for them, and no page shows stock more than a second old.
 * A page whose render began before a change of what it shows is not kept. While a page renders,
 * other visitors asking for a page they may not be shown wait for that render rather than render
 * it again. Pages are compressed once (brotli and gzip), not per request.
 *
 * Every HTML answer gets a Cache-Control: kept pages the CDN headers (cdn.ts) with their keys,
 * unless a session came with the request (a CDN does not tell sessions apart); anything else
 * `private, no-cache`.
 */
/** What the page cache is told by its owner (app/ssr.ts). */
export interface PageCacheOptions {
  maxBytes: number;
  /** Which paths are catalogue pages, the same for every visitor of an audience. */
  cacheable: (path: string) => boolean;
  /**
   * Whom the page is for: `anyone`; `session`, every visitor with a session, kept apart and never
   * offered to a shared cache (a CDN does not tell sessions apart); `personal`, never kept or served.
   */
  audience: (request: FastifyRequest) => PageAudience;
  variant: (request: FastifyRequest) => string;
  /** What the page rendered for this request shows, in the key scheme of catalog/changes.ts. */
  keys: (request: FastifyRequest) => Iterable<string>;
  changes: ChangeLog;
  /** False while a change elsewhere could go unnoticed. */
  canKeep: () => boolean;
  /** True when a CDN purge hook is configured (longer shared max-age, cdn.ts). */
  purging: boolean;
  onLookup?: (outcome: 'hit' | 'miss') => void;
}

/** A request whose page was not kept: the key to keep it under, and when its render began. */
interface Miss {
  key: string;
  audience: PageAudience;
  mark: Mark;
  done: (page?: KeptPage) => void;
}

interface KeptPage {
  mark: Mark;
  keys: readonly string[];
  headers: Record<string, string>;
  body: Buffer;
  br: Buffer;
  gzip: Buffer;
}

/**
 * Headers that belong to one response rather than to the page: everything else a rendered page was
 * sent with is sent again with it. That includes the security headers, as kept pages are sent
 * before helmet's hook runs (it would make new nonces for nothing), and the
 * Content-Security-Policy with them: the page's inline scripts carry the nonce it names (ADR 0026).
 */
const RESPONSE_HEADERS = new Set([
  'content-length',
  'content-encoding',
  'transfer-encoding',
  'vary',
  'set-cookie',
  'x-request-id',
  'x-page-cache',
]);
/**
 * How old a kept page whose stock changed may grow before the next visitor renders it again: far
 * enough below STOCK_GRACE_MS for that render to end, under load, before the page must not be shown.
 */
export const STOCK_RENDER_AGAIN_MS = 500;
const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Bytes of the pages kept by the process's page cache. */
let keptPagesBytes = () => 0;
gauge({
  name: 'vitrina_page_cache_bytes',
  help: 'Bytes of the catalogue pages kept in memory (plain, brotli and gzip)',
  collect() {
    this.set(keptPagesBytes());
  },
});

export function pageCache(app: FastifyInstance, options: PageCacheOptions) {
  const pages = new LRUCache<string, KeptPage>({
    maxSize: options.maxBytes,
    sizeCalculation: (page) => page.body.length + page.br.length + page.gzip.length + 512,
  });
  keptPagesBytes = () => pages.calculatedSize;
  /** Requests that missed, with the key their page would be kept under and when their render began. */
  const misses = new WeakMap<FastifyRequest, Miss>();
  /**
   * Pages being rendered, by key: resolved with the rendered page when it is sent (or with nothing
   * when it could not be shared: not a 200 page, a cookie set, the request abandoned).
   */
  const rendering = new Map<string, Promise<KeptPage | undefined>>();
  /** The page kept under `key`, if it may be shown with stock up to `stockGraceMs` old. */
  const keptPage = (key: string, stockGraceMs: number) => {
    const page = pages.get(key);
    return page && options.changes.isFresh(page.mark, page.keys, stockGraceMs) ? page : undefined;
  };

  /** The key this request's page is kept under and its audience, or nothing for a page never kept. */
  function placeOf(request: FastifyRequest): { key: string; audience: PageAudience } | undefined {
    if (request.method !== 'GET') return;
    const path = request.url.split('?', 1)[0] ?? '/';
    if (!options.cacheable(path)) return;
    const audience = options.audience(request);
    if (audience === 'personal') return;
    return { key: `${options.variant(request)} ${audience} ${request.url}`, audience };
  }

  /**
   * For a page not kept (or too stale to show): the render under way, if it gives a page; else the
   * request is marked to render (and keep) it.
   */
  async function waitOrRender(
    request: FastifyRequest,
    reply: FastifyReply,
    { key, audience }: { key: string; audience: PageAudience },
  ): Promise<KeptPage | undefined> {
    const pending = rendering.get(key);
    // Who asked while the page was rendering gets that render, kept or not: it is as fresh as
    // their own would be, and a drop's crowd costs one render at a time, not one each.
    const page = pending ? ((await pending) ?? keptPage(key, STOCK_GRACE_MS)) : undefined;
    if (page) {
      options.onLookup?.('hit');
      return page;
    }
    options.onLookup?.('miss');
    reply.header('x-page-cache', 'miss');
    // The first to miss renders; who waited for it and still found nothing renders on its own.
    let done: (page?: KeptPage) => void = () => {};
    if (!pending) {
      const render = new Promise<KeptPage | undefined>((resolve) => {
        done = (rendered) => {
          if (rendering.get(key) === render) rendering.delete(key);
          resolve(rendered);
        };
      });
      rendering.set(key, render);
    }
    misses.set(request, { key, audience, mark: options.changes.mark(), done });
  }
  // A kept page is sent without calling `done`: the hooks registered after this one (security
  // headers, session, body checks) do not run for it, as Fastify documents for an early answer
  // from onRequest. An async hook would let them run while the answer goes out (ADR 0078).
  // A page kept and fresh is sent at once, in the turn the request arrived in: no promise is
  // made for it, and with the onSend hooks written as callbacks its answer is written before
  // Node reads the end of the request.
  app.addHook('onRequest', (request, reply, done) => {
    const place = placeOf(request);
    if (!place) {
      done();
      return;
    }
    // A page whose stock changed is rendered again early, by one visitor; the others get it still.
    const kept = keptPage(place.key, rendering.has(place.key) ? STOCK_GRACE_MS : STOCK_RENDER_AGAIN_MS);
    if (kept) {
      options.onLookup?.('hit');
      sendKept(request, reply, kept);
      return;
    }
    waitOrRender(request, reply, place).then((page) => {
      if (page) sendKept(request, reply, page);
      else done();
    }, done);
  });
  const finish = (request: FastifyRequest) => misses.get(request)?.done();
  app.addHook('onResponse', (request, _reply, done) => {
    finish(request);
    done();
  });
  app.addHook('onRequestAbort', (request, done) => {
    finish(request);
    done();
  });

  app.addHook('onSend', (request, reply, payload, done) => {
    const html = String(reply.getHeader('content-type') ?? '').startsWith('text/html');
    const miss = misses.get(request);
    const keepable = miss && html && reply.statusCode === 200 && !reply.hasHeader('set-cookie');
    if (!keepable || reply.hasHeader('cache-control')) {
      if (html && !reply.hasHeader('cache-control')) reply.header('cache-control', PRIVATE_CACHE_CONTROL);
      done(null, payload);
      return;
    }
    keep(request, reply, payload, miss).then((sent) => done(null, sent), done);
  });

  /** Keeps the page rendered for a miss, compressed, and answers with it as the browser asks. */
  async function keep(request: FastifyRequest, reply: FastifyReply, payload: unknown, miss: Miss) {
    const keys = [...new Set(options.keys(request))];
    if (miss.audience === 'session') reply.header('cache-control', PRIVATE_CACHE_CONTROL);
    else sharedCacheHeaders(reply, keys, options.purging);
    const body = await readPayload(payload);
    if (body === undefined) return payload;
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(reply.getHeaders())) {
      if (value !== undefined && !RESPONSE_HEADERS.has(name)) headers[name] = String(value);
    }
    // Shared and kept compressed only: a page kept plain would be compressed again for every
    // visitor who asks before its compressed forms are ready, which a drop's crowd makes many.
    const page = await compress({ mark: miss.mark, keys, headers, body });
    miss.done(page);
    if (options.changes.isFresh(miss.mark, keys, STOCK_GRACE_MS) && options.canKeep()) {
      pages.set(miss.key, page);
    }
    return sendCompressed(request, reply, page);
  }

  return {
    clear: () => pages.clear(),
    get size() {
      return pages.size;
    },
  };
}

function sendKept(request: FastifyRequest, reply: FastifyReply, page: KeptPage) {
  reply.headers(page.headers);
  reply.header('x-page-cache', 'hit');
  reply.send(sendCompressed(request, reply, page));
}

/** The page's body in the encoding the browser prefers, with the headers that say so. */
function sendCompressed(request: FastifyRequest, reply: FastifyReply, page: KeptPage): Buffer {
  reply.header('vary', 'accept-encoding');
  const encoding = preferredEncoding(request.headers['accept-encoding']);
  if (!encoding) return page.body;
  reply.header('content-encoding', encoding);
  return page[encoding];
}

/** 'br' or 'gzip' when the browser accepts it; undefined for identity. */
function preferredEncoding(header: string | undefined): 'br' | 'gzip' | undefined {
  if (!header) return undefined;
  const accepted = new Set(
    header
      .split(',')
      .map((part) => part.trim().toLowerCase())
      .filter((part) => !/;\s*q=0(?:\.0*)?$/.test(part))
      .map((part) => part.split(';', 1)[0]),
  );
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return undefined;
}

async function readPayload(payload: unknown): Promise<Buffer | undefined> {
  if (Buffer.isBuffer(payload)) return payload;
  if (typeof payload === 'string') return Buffer.from(payload);
  if (payload && typeof (payload as NodeJS.ReadableStream).pipe === 'function') {
    return buffer(payload as NodeJS.ReadableStream);
  }
  return undefined;
}

async function compress(page: Omit<KeptPage, 'br' | 'gzip'>): Promise<KeptPage> {
  const [br, gzipped] = await Promise.all([
    brotli(page.body, {
      params: { [zlib.BROTLI_PARAM_QUALITY]: 6, [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT },
    }),
    gzipAsync(page.body, { level: 6 }),
  ]);
  return { ...page, br, gzip: gzipped };
}
