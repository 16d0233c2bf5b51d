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

export const hasWebBuild = () => existsSync(path.join(BUILD_DIRECTORY, 'server', 'index.js'));

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

/** A Fetch request for React Router, from Fastify's; aborted when the client goes away first. */
function fetchRequest(request: FastifyRequest, reply: FastifyReply): Request {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (Array.isArray(value)) for (const each of value) headers.append(name, each);
    else if (value !== undefined) headers.set(name, value);
  }
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
  return new Request(`${request.protocol}://${request.host}${request.originalUrl}`, {
    method: request.method,
    headers,
    signal: controller.signal,
    ...(hasBody ? { body: Readable.toWeb(request.raw) as ReadableStream, duplex: 'half' } : {}),
  } as RequestInit);
}

/**
 * Sends React Router's answer. Its bodies are whole pages or data the loaders already awaited
 * (entry.server.tsx renders into one buffer), so the body goes out as one buffer with its length,
 * not piped through a web stream and a Node stream in chunks.
 */
async function sendResponse(reply: FastifyReply, response: Response) {
  reply.status(response.status);
  // Each `set-cookie` comes separately; Fastify keeps them all.
  for (const [name, value] of response.headers) reply.header(name, value);
  return reply.send(response.body ? Buffer.from(await response.arrayBuffer()) : undefined);
}

/**
 * The React Router app: server-rendered pages, their hashed, immutable assets and the data
 * requests of client-side navigations. In its own encapsulated plugin, where request bodies stay
 * unparsed for React Router to read. Loaders reach the domain only through the load context built
 * here. In development Vite serves the modules and builds the server code on each request.
 */
export async function serverRenderedApp(app: FastifyInstance, options: { services: Services; dev: boolean }) {
  const { services, dev } = options;
  const vite = dev
    ? await (await import('vite')).createServer({ server: { middlewareMode: true } })
    : undefined;
  const handle = createRequestHandler(
    vite
      ? () => vite.ssrLoadModule('virtual:react-router/server-build') as Promise<ServerBuild>
      : ((await import(pathToFileURL(path.join(BUILD_DIRECTORY, 'server', 'index.js')).href)) as ServerBuild),
    dev ? 'development' : 'production',
  );
  if (vite) {
    await app.register(fastifyMiddie);
    app.use(vite.middlewares);
  } else {
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
  }
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
  await app.register(async (pages) => {
    pages.removeAllContentTypeParsers();
    pages.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    pages.all('*', async (request, reply) =>
      sendResponse(reply, await handle(fetchRequest(request, reply), loadContext(request))),
    );
  });
}
