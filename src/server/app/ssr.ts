import { existsSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { pathToFileURL } from 'node:url';
import fastifyMiddie from '@fastify/middie';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type AppLoadContext, createRequestHandler, type ServerBuild } from 'react-router';
import { OVERLAY_COOKIE } from '../../contract/cookies.ts';
import { currencyFor } from '../../contract/money.ts';
import { requestLocale } from '../http/locale.ts';
import { type PageAudience, pageCache } from '../http/page-cache.ts';
import { SESSION_COOKIE } from '../http/session.ts';
import { counter } from '../metrics.ts';
import { checkoutActions } from '../requests/checkout-actions.ts';
import type { Services } from '../requests/services.ts';
import { accountActions } from '../requests/session-actions.ts';
import { shopperActions } from '../requests/shopper-actions.ts';

export const BUILD_DIRECTORY = path.resolve('build');

/**
 * Home, lists, product pages and the static information pages: the same document for every visitor
 * (a visitor's own parts load after hydration, ADR 0048). Their `.data` requests are not.
 */
const SHARED_PAGE =
  /^\/(?:(?:category|project|search|product)\/[^/]+\/?|(?:products|shipping|payment|about|privacy-policy)\/?)?$/;
/**
 * A path the URL parser would rewrite (a backslash, a `.` or `..` segment, also percent-encoded):
 * React Router would render another address than the one a page would be kept under.
 */
const REWRITTEN_PATH = /\\|(?:^|\/)(?:\.|%2e){1,2}(?:\/|$)/i;
const isSharedPage = (path: string) =>
  SHARED_PAGE.test(path) && !path.endsWith('.data') && !REWRITTEN_PATH.test(path);

/**
 * Who a catalogue page's document is for: `anyone` without a session; `session`, every visitor with
 * one (signed in, or a guest with a basket), rendered without their own data (who is signed in,
 * the badges, the wishlist heart), which the page loads once hydrated, so that one render serves
 * them all (ADR 0048); `personal`, the page a plain form sends its visitor back to (`?added=`,
 * `?reviewed=`), which shows a browser without JavaScript the outcome with the visitor's own badges.
 */
function pageAudience(request: FastifyRequest): PageAudience {
  if (request.cookies[SESSION_COOKIE] === undefined) return 'anyone';
  return FORM_OUTCOME.test(request.url) ? 'personal' : 'session';
}
const FORM_OUTCOME = /[?&](?:added|reviewed)=/;

/** A catalogue page's document rendered for every visitor with a session (see pageAudience). */
function ownDataLater(request: FastifyRequest) {
  const path = request.url.split('?', 1)[0] ?? '/';
  return (
    (request.method === 'GET' || request.method === 'HEAD') &&
    isSharedPage(path) &&
    pageAudience(request) === 'session'
  );
}

const pageCacheLookups = counter({
  name: 'vitrina_page_cache_lookups_total',
  help: 'Catalogue pages asked of the page cache, by outcome (hit, miss)',
  labelNames: ['outcome'],
});

/** The keys of the catalogue answers each page request's loaders read: what its page shows. */
const keysReadFor = new WeakMap<FastifyRequest, Set<string>>();

/** React Router's server build: every route of the app in one module. */
const SERVER_BUILD = path.join(BUILD_DIRECTORY, 'server', 'index.js');

export const hasWebBuild = () => existsSync(SERVER_BUILD);

/**
 * Kept catalogue pages (ADR 0010, 0048). Registered on the root, before the security headers, the
 * origin check, the session and the input checks: a kept page is sent from the first hooks, and
 * the pages it keeps are the server-rendered app's.
 */
export function catalogPageCache(app: FastifyInstance, services: Services) {
  if (services.config.pageCacheBytes <= 0) return;
  pageCache(app, {
    maxBytes: services.config.pageCacheBytes,
    cacheable: isSharedPage,
    audience: pageAudience,
    variant: (request) => {
      const locale = requestLocale(request);
      const overlay = services.config.testMode ? request.cookies[OVERLAY_COOKIE] === 'hidden' : false;
      return `${locale} ${currencyFor(locale)} ${overlay ? 'overlay-hidden' : 'overlay'}`;
    },
    keys: (request) => keysReadFor.get(request) ?? [],
    changes: services.catalog.changes,
    canKeep: services.catalog.canKeep,
    purging: services.config.cdnPurgeUrl !== undefined,
    onLookup: (outcome) => pageCacheLookups.inc({ outcome }),
  });
}

/**
 * The React Router app: server-rendered pages, their `.data` requests and resource routes, and the
 * hashed, immutable assets. Loaders reach the domain only through the load context built here.
 * Every path no other route claims goes to React Router's request handler, which alone decides what
 * it is (ADR 0025). Vite's dev server serves the build, and the assets, in development.
 */
export async function serverRenderedApp(app: FastifyInstance, options: { services: Services; dev: boolean }) {
  const { services, dev } = options;
  const loadContext = (request: FastifyRequest, reply: FastifyReply): AppLoadContext => {
    // Every route but the API's is answered with nonces (security-headers.ts).
    const { cspNonce } = reply;
    if (!cspNonce) throw new Error(`${request.url} has no CSP nonces`);
    const keys = new Set<string>();
    keysReadFor.set(request, keys);
    const catalog = {
      ...services.catalog,
      ...services.catalog.readsFor((read) => {
        for (const key of read) keys.add(key);
      }),
    };
    return {
      services: { ...services, catalog },
      account: accountActions(services, request),
      shopper: shopperActions(services, request),
      checkout: checkoutActions(services, request),
      ip: request.ip,
      locale: requestLocale(request),
      ownDataLater: ownDataLater(request),
      testMode: services.config.testMode,
      publicUrl: services.config.publicUrl,
      log: request.log,
      cspNonce,
    };
  };
  if (dev) {
    const vite = await (await import('vite')).createServer({ server: { middlewareMode: true } });
    app.addHook('onClose', () => vite.close());
    await app.register(fastifyMiddie);
    app.use(vite.middlewares);
    const build = () => vite.ssrLoadModule('virtual:react-router/server-build') as Promise<ServerBuild>;
    await app.register(reactRouterApp, { build, mode: 'development', loadContext });
    return;
  }
  const assets = path.join(BUILD_DIRECTORY, 'client', 'assets');
  await app.register(fastifyStatic, {
    root: path.join(BUILD_DIRECTORY, 'client'),
    wildcard: false,
    // The build's scripts and styles come compressed beside them (vite.config.ts, ADR 0064).
    preCompressed: true,
    cacheControl: false,
    setHeaders(response, file) {
      response.setHeader(
        'cache-control',
        file.startsWith(assets)
          ? 'public, max-age=31536000, immutable'
          : file.endsWith('service-worker.js')
            ? 'no-cache'
            : 'public, max-age=3600',
      );
    },
  });
  const build = (await import(pathToFileURL(SERVER_BUILD).href)) as ServerBuild;
  await app.register(reactRouterApp, { build, mode: 'production', loadContext });
}

/**
 * React Router's request handler behind one catch-all route, in a scope of its own: the raw body
 * goes to React Router as it came, and the request's signal is aborted when the visitor hangs up.
 */
async function reactRouterApp(
  app: FastifyInstance,
  options: {
    build: ServerBuild | (() => Promise<ServerBuild>);
    mode: 'development' | 'production';
    loadContext: (request: FastifyRequest, reply: FastifyReply) => AppLoadContext;
  },
) {
  const handle = createRequestHandler(options.build, options.mode);
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
  app.all('*', async (request, reply) => {
    const hangUp = new AbortController();
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) hangUp.abort();
    });
    const response = await handle(fetchRequest(request, hangUp.signal), options.loadContext(request, reply));
    reply.status(response.status);
    for (const [name, value] of response.headers) reply.header(name, value);
    return reply.send(
      response.body === null ? undefined : Readable.fromWeb(response.body as NodeReadableStream),
    );
  });
}

/** A request React Router could only fail on with a 500: refused with a 4xx before it gets there. */
class UnreadableRequest extends Error {
  constructor(
    readonly statusCode: 400 | 415,
    message: string,
  ) {
    super(message);
  }
}

/** A Host header: a name or an IPv4 or bracketed IPv6 address, and a port. */
const HOST = /^(?:[a-z0-9_](?:[a-z0-9_.-]*[a-z0-9_])?|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/** Every form of the app, with JavaScript or without, is sent as one of these. */
const FORM_BODY = /^\s*(?:application\/x-www-form-urlencoded|multipart\/form-data)\s*(?:;|$)/i;

/**
 * The Fetch API request React Router takes, made from Fastify's. Its address is made from the Host
 * header, as React Router compares a form's Origin header with it (a foreign or malformed Origin
 * never gets here: see security/origin.ts); a Host that names no host, and a body that is no form (the
 * pages' actions read forms), are refused.
 */
function fetchRequest(request: FastifyRequest, signal: AbortSignal): Request {
  // A host and a port only: anything more would change the address React Router renders.
  if (!HOST.test(request.host)) throw new UnreadableRequest(400, 'The Host header does not name a host');
  const url = `${request.protocol}://${request.host}${request.originalUrl}`;
  if (!URL.canParse(url)) throw new UnreadableRequest(400, 'The Host header does not name a host');
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
  if (hasBody && !FORM_BODY.test(request.headers['content-type'] ?? '')) {
    throw new UnreadableRequest(
      415,
      'Pages take forms: application/x-www-form-urlencoded or multipart/form-data',
    );
  }
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (Array.isArray(value)) for (const each of value) headers.append(name, each);
    else if (value !== undefined) headers.set(name, value);
  }
  return new Request(url, {
    method: request.method,
    headers,
    signal,
    ...(hasBody ? { body: Readable.toWeb(request.raw) as ReadableStream<Uint8Array>, duplex: 'half' } : {}),
  });
}
