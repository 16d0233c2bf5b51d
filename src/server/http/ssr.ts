import { existsSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import fastifyMiddie from '@fastify/middie';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type AppLoadContext, createRequestHandler, type ServerBuild } from 'react-router';
import { OVERLAY_COOKIE } from '../../contract/cookies.ts';
import { currencyFor } from '../../contract/money.ts';
import { accountActions } from '../accounts/session-actions.ts';
import { shopperActions } from '../cart/shopper-actions.ts';
import { checkoutActions } from '../checkout/checkout-actions.ts';
import { counter } from '../metrics.ts';
import type { Services } from '../services.ts';
import { requestLocale } from './locale.ts';
import { pageCache } from './page-cache.ts';
import { SESSION_COOKIE } from './session.ts';

export const BUILD_DIRECTORY = path.resolve('build');

/** Home, lists and product pages: the same for every visitor without a session. */
const CATALOGUE_PAGE = /^\/(?:(?:category|project|search|product)\/[^/]+\/?)?$/;

const pageCacheLookups = counter({
  name: 'vitrina_page_cache_lookups_total',
  help: 'Catalogue pages asked of the page cache by visitors without a session, by outcome (hit, miss)',
  labelNames: ['outcome'],
});

/**
 * The server bundles of the build (react-router.config.ts). The shop's pages answer every path the
 * others do not claim.
 */
const SERVER_BUNDLES = { shop: 'shop/index.js', admin: 'admin/index.js', resources: 'resources/index.js' };

export const hasWebBuild = () =>
  Object.values(SERVER_BUNDLES).every((file) => existsSync(path.join(BUILD_DIRECTORY, 'server', file)));

/**
 * Kept catalogue pages for visitors without a session (ADR 0010). Registered on the root, before
 * the origin check, the session and the input checks: a kept page is sent from the first hooks,
 * and the pages it keeps are the server-rendered app's.
 */
export function catalogPageCache(app: FastifyInstance, services: Services) {
  if (services.config.pageCacheBytes <= 0) return;
  pageCache(app, {
    maxBytes: services.config.pageCacheBytes,
    cacheable: (path) => CATALOGUE_PAGE.test(path),
    isPersonal: (request) => request.cookies[SESSION_COOKIE] !== undefined,
    variant: (request) => {
      const locale = requestLocale(request);
      const overlay = services.config.testMode ? request.cookies[OVERLAY_COOKIE] === 'hidden' : false;
      return `${locale} ${currencyFor(locale)} ${overlay ? 'overlay-hidden' : 'overlay'}`;
    },
    generation: () => services.catalog.generation,
    canKeep: services.catalog.canKeep,
    onLookup: (outcome) => pageCacheLookups.inc({ outcome }),
  });
}

/**
 * The React Router app: server-rendered pages, their `.data` requests and resource routes, and the
 * hashed, immutable assets. Loaders reach the domain only through the load context built here.
 *
 * In production each server bundle is mounted on the paths of its routes, the shop's on all the
 * others (ADR 0019). A response goes out as one buffer with its length: the pages are rendered
 * whole (ADR 0017) and so are the `.data` answers, whose loaders await all their data (ADR 0009).
 * Vite's dev server serves every route from one build, and the assets, in development.
 */
export async function serverRenderedApp(app: FastifyInstance, options: { services: Services; dev: boolean }) {
  const { services, dev } = options;
  const loadContext = (request: FastifyRequest): AppLoadContext => ({
    services,
    account: accountActions(services, request),
    shopper: shopperActions(services, request),
    checkout: checkoutActions(services, request),
    ip: request.ip,
    locale: requestLocale(request),
    testMode: services.config.testMode,
    publicUrl: services.config.publicUrl,
  });
  if (dev) {
    const vite = await (await import('vite')).createServer({ server: { middlewareMode: true } });
    app.addHook('onClose', () => vite.close());
    await app.register(fastifyMiddie);
    app.use(vite.middlewares);
    const build = () => vite.ssrLoadModule('virtual:react-router/server-build') as Promise<ServerBuild>;
    await app.register(reactRouterRoutes, { build, mode: 'development', urls: ['*'], loadContext });
    return;
  }
  const assets = path.join(BUILD_DIRECTORY, 'client', 'assets');
  await app.register(fastifyStatic, {
    root: path.join(BUILD_DIRECTORY, 'client'),
    wildcard: false,
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
  for (const [name, file] of Object.entries(SERVER_BUNDLES)) {
    const build = (await import(
      pathToFileURL(path.join(BUILD_DIRECTORY, 'server', file)).href
    )) as ServerBuild;
    const urls = name === 'shop' ? ['*'] : routeUrls(build.routes);
    await app.register(reactRouterRoutes, { build, mode: 'production', urls, loadContext });
  }
}

/** One build of the app on the given paths. The raw body goes to React Router as it came. */
async function reactRouterRoutes(
  app: FastifyInstance,
  options: {
    build: ServerBuild | (() => Promise<ServerBuild>);
    mode: 'development' | 'production';
    urls: string[];
    loadContext: (request: FastifyRequest) => AppLoadContext;
  },
) {
  const handle = createRequestHandler(options.build, options.mode);
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const response = await handle(readableRequest(request), options.loadContext(request));
    reply.status(response.status);
    for (const [name, value] of response.headers) reply.header(name, value);
    return reply.send(response.body === null ? undefined : Buffer.from(await response.arrayBuffer()));
  };
  for (const url of options.urls) app.all(url, handler);
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

/** Every form of the app, with JavaScript or without, is sent as one of these. */
const FORM_BODY = /^\s*(?:application\/x-www-form-urlencoded|multipart\/form-data)\s*(?:;|$)/i;

/**
 * The Fetch API request React Router takes, made from Fastify's. Its address is made from the Host
 * header, as React Router compares a form's Origin header with it (a foreign or malformed Origin
 * never gets here: see security/origin.ts); a Host that names no host, and a body that is no form (the
 * pages' actions read forms), are refused.
 */
function readableRequest(request: FastifyRequest): Request {
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
    ...(hasBody ? { body: Readable.toWeb(request.raw) as ReadableStream<Uint8Array>, duplex: 'half' } : {}),
  });
}

/**
 * The Fastify paths of a bundle's routes, each with its `.data` twin (React Router's data requests):
 * nested paths joined, an optional segment (`:provider?`) spelt with and without it. The root route
 * is in every bundle and claims nothing.
 */
export function routeUrls(routes: ServerBuild['routes']): string[] {
  const pathOf = (id: string | undefined): string => {
    const route = id === undefined || id === 'root' ? undefined : routes[id];
    if (!route) return '';
    const parent = pathOf(route.parentId);
    return route.path ? `${parent}/${route.path}` : parent;
  };
  const urls = new Set<string>();
  for (const id of Object.keys(routes)) {
    if (id === 'root') continue;
    for (const url of spelledOut(pathOf(id))) {
      urls.add(url);
      if (!url.endsWith('*')) urls.add(`${url}.data`);
    }
  }
  return [...urls];
}

/** A path with each optional segment present and left out. */
function spelledOut(path: string): string[] {
  let paths = [''];
  for (const segment of path.split('/').filter(Boolean)) {
    paths = segment.endsWith('?')
      ? paths.flatMap((start) => [start, `${start}/${segment.slice(0, -1)}`])
      : paths.map((start) => `${start}/${segment}`);
  }
  return paths.map((each) => each || '/');
}
