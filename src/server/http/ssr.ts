import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createRequestHandler, reactRouterFastify } from '@mcansh/remix-fastify/react-router';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppLoadContext, ServerBuild } from 'react-router';
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
 * The React Router app: server-rendered pages and their hashed, immutable assets. Kept in its own
 * encapsulated plugin so its raw-body handling does not clash with the API's parsers. Loaders reach
 * the domain only through the load context built here.
 */
export async function serverRenderedApp(app: FastifyInstance, options: { services: Services; dev: boolean }) {
  const { services, dev } = options;
  const getLoadContext = (request: FastifyRequest): AppLoadContext => ({
    services,
    account: accountActions(services, request),
    shopper: shopperActions(services, request),
    checkout: checkoutActions(services, request),
    ip: request.ip,
    locale: requestLocale(request),
    testMode: services.config.testMode,
    publicUrl: services.config.publicUrl,
  });
  await app.register(reactRouterFastify, {
    buildDirectory: BUILD_DIRECTORY,
    // Vite's dev server serves every route from one build.
    ...(dev ? {} : { serverBuildFile: SERVER_BUNDLES.shop }),
    mode: dev ? 'development' : 'production',
    fastifyStaticOptions: {
      setHeaders(response, file) {
        const assets = path.join(BUILD_DIRECTORY, 'client', 'assets');
        response.setHeader(
          'cache-control',
          file.startsWith(assets)
            ? 'public, max-age=31536000, immutable'
            : file.endsWith('service-worker.js')
              ? 'no-cache'
              : 'public, max-age=3600',
        );
      },
    },
    getLoadContext: (request) => getLoadContext(request as unknown as FastifyRequest),
  });
  if (dev) return;
  for (const file of [SERVER_BUNDLES.admin, SERVER_BUNDLES.resources]) {
    await app.register(serverBundle, { file, getLoadContext });
  }
}

/**
 * One of the other server bundles: Fastify sends it the pages of its own routes and their `.data`
 * requests. The raw body goes to React Router as for the shop's pages.
 */
async function serverBundle(
  app: FastifyInstance,
  options: { file: string; getLoadContext: (request: FastifyRequest) => AppLoadContext },
) {
  const build = (await import(
    pathToFileURL(path.join(BUILD_DIRECTORY, 'server', options.file)).href
  )) as ServerBuild;
  const handler = createRequestHandler({
    build,
    mode: 'production',
    getLoadContext: (request) => options.getLoadContext(request as unknown as FastifyRequest),
  });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
  for (const url of routeUrls(build.routes)) app.all(url, handler);
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
