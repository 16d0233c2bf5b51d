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

/** The server bundles of the build (react-router.config.ts): the shop's pages and the back office's. */
const SERVER_BUNDLES = { shop: 'shop/index.js', admin: 'admin/index.js' } as const;

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
  if (!dev) await app.register(backOfficeBundle, { getLoadContext });
}

/**
 * The back office's pages (`/admin` and below, and their `.data` requests) go to its own server
 * bundle; everything else, `*` included, to the shop's. The raw body goes to React Router as for
 * the shop's pages.
 */
async function backOfficeBundle(
  app: FastifyInstance,
  options: { getLoadContext: (request: FastifyRequest) => AppLoadContext },
) {
  const build = (await import(
    pathToFileURL(path.join(BUILD_DIRECTORY, 'server', SERVER_BUNDLES.admin)).href
  )) as ServerBuild;
  const handler = createRequestHandler({
    build,
    mode: 'production',
    getLoadContext: (request) => options.getLoadContext(request as unknown as FastifyRequest),
  });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
  for (const url of ['/admin', '/admin.data', '/admin/*']) app.all(url, handler);
}
