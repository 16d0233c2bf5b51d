import { buffer } from 'node:stream/consumers';
import { promisify } from 'node:util';
import { brotliCompress, gzip, constants as zlib } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';

/**
 * Server-rendered catalogue pages for visitors without a personal session, kept ready to send.
 *
 * A page is kept per URL and per `variant` (locale, currency and anything else that changes the
 * page for an anonymous visitor) together with the catalogue generation it was rendered at; a
 * write anywhere (here or, through Redis, on another instance) moves the generation, so a kept
 * page is never served after a change of price, stock or rate. A page whose render started before
 * a change is not kept. Pages are compressed once (brotli and gzip), not per request.
 */
export interface PageCacheOptions {
  maxBytes: number;
  /** Which paths are catalogue pages the same for every anonymous visitor. */
  cacheable: (path: string) => boolean;
  /** True when the request carries a personal session: such pages are never kept or served. */
  isPersonal: (request: FastifyRequest) => boolean;
  variant: (request: FastifyRequest) => string;
  generation: () => number;
  /** False while a change elsewhere could go unnoticed. */
  canKeep: () => boolean;
  onLookup?: (outcome: 'hit' | 'miss') => void;
}

interface KeptPage {
  generation: number;
  headers: Record<string, string>;
  body: Buffer;
  br?: Buffer;
  gzip?: Buffer;
}

/**
 * Headers of a rendered page that belong to the page itself rather than to one response. The
 * Content-Security-Policy is one: the page's inline scripts carry the nonce it names (ADR 0026).
 */
const PAGE_HEADERS = ['content-type', 'cache-control', 'content-language', 'link', 'content-security-policy'];
const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

export function pageCache(app: FastifyInstance, options: PageCacheOptions) {
  const pages = new LRUCache<string, KeptPage>({
    maxSize: options.maxBytes,
    sizeCalculation: (page) => page.body.length + (page.br?.length ?? 0) + (page.gzip?.length ?? 0) + 512,
  });
  /** Requests that missed, with the key and generation their page would be kept under. */
  const misses = new WeakMap<FastifyRequest, { key: string; generation: number }>();

  app.addHook('onRequest', async (request, reply) => {
    if (request.method !== 'GET' || options.isPersonal(request)) return;
    const path = request.url.split('?', 1)[0] ?? '/';
    if (!options.cacheable(path)) return;
    const key = `${options.variant(request)} ${request.url}`;
    const generation = options.generation();
    const page = pages.get(key);
    if (page && page.generation === generation) {
      options.onLookup?.('hit');
      return sendKept(request, reply, page);
    }
    options.onLookup?.('miss');
    reply.header('x-page-cache', 'miss');
    misses.set(request, { key, generation });
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const miss = misses.get(request);
    if (!miss || reply.statusCode !== 200 || reply.hasHeader('set-cookie')) return payload;
    if (!String(reply.getHeader('content-type') ?? '').startsWith('text/html')) return payload;
    const body = await readPayload(payload);
    if (body === undefined) return payload;
    if (miss.generation === options.generation() && options.canKeep()) {
      const headers: Record<string, string> = {};
      for (const name of PAGE_HEADERS) {
        const value = reply.getHeader(name);
        if (value !== undefined) headers[name] = String(value);
      }
      const page: KeptPage = { generation: miss.generation, headers, body };
      pages.set(miss.key, page);
      void compress(page).then((compressed) => {
        // Only if the same page is still kept (not replaced or dropped meanwhile).
        if (pages.peek(miss.key) === page) pages.set(miss.key, compressed);
      });
    }
    return body;
  });

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
  reply.header('vary', 'accept-encoding');
  const encoding = preferredEncoding(request.headers['accept-encoding'], page);
  if (encoding) reply.header('content-encoding', encoding);
  return reply.send(encoding === 'br' ? page.br : encoding === 'gzip' ? page.gzip : page.body);
}

/** 'br' or 'gzip' when the browser accepts it and the page has it ready; undefined for identity. */
function preferredEncoding(header: string | undefined, page: KeptPage): 'br' | 'gzip' | undefined {
  if (!header) return undefined;
  const accepted = new Set(
    header
      .split(',')
      .map((part) => part.trim().toLowerCase())
      .filter((part) => !/;\s*q=0(?:\.0*)?$/.test(part))
      .map((part) => part.split(';', 1)[0]),
  );
  if (page.br && accepted.has('br')) return 'br';
  if (page.gzip && accepted.has('gzip')) return 'gzip';
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

async function compress(page: KeptPage): Promise<KeptPage> {
  const [br, gzipped] = await Promise.all([
    brotli(page.body, {
      params: { [zlib.BROTLI_PARAM_QUALITY]: 6, [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT },
    }),
    gzipAsync(page.body, { level: 6 }),
  ]);
  return { ...page, br, gzip: gzipped };
}
