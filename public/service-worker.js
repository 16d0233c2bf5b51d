/*
 * Vitrina's offline-reading worker (registered by src/web/lib/service-worker.ts).
 *
 * - Precaches the offline shell: the home page, the manifest and the icons.
 * - Hashed build assets (/assets/*) and uploaded images (/img/*) never change under one name:
 *   cache-first.
 * - Catalogue and info pages (and their React Router `.data` requests) are network-first; offline
 *   they come from the cache, and a page never seen falls back to the cached home page.
 * - Personal and transactional pages (/api/, /admin, /cart, /order, /profile, /wishlist, sign-in …)
 *   and every non-GET request go straight to the network and are never stored.
 *
 * Bump VERSION when the caching rules change: activation deletes the caches of older versions.
 */
const VERSION = 'v1';
const CACHE_PREFIX = 'vitrina-';
const SHELL_CACHE = `${CACHE_PREFIX}shell-${VERSION}`;
const STATIC_CACHE = `${CACHE_PREFIX}static-${VERSION}`;
const PAGES_CACHE = `${CACHE_PREFIX}pages-${VERSION}`;
const CURRENT_CACHES = [SHELL_CACHE, STATIC_CACHE, PAGES_CACHE];

const SHELL = ['/', '/manifest.webmanifest', '/favicon.svg', '/icon-192.png'];
/** Oldest entries beyond these counts are dropped, so the caches do not grow forever. */
const MAX_STATIC_ENTRIES = 300;
const MAX_PAGE_ENTRIES = 80;

const NEVER_CACHED =
  /^\/(api|admin|cart|order|profile|wishlist|login|logout|registration|restore|reset|activate|feedback|locale|overlay)(\/|\.|$)/;
const CATALOGUE_PAGE =
  /^\/($|(category|project|product|search)\/[^/]+\/?$|(shipping|payment|about|partners|privacy-policy)\/?$)/;
const STATIC_FILE = /^\/(assets|img)\//;

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(SHELL_CACHE)
      .then((cache) =>
        // One missing file must not stop the worker from installing.
        Promise.all(
          SHELL.map((url) => cache.add(new Request(url, { cache: 'reload' })).catch(() => undefined)),
        ),
      )
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) =>
        Promise.all(
          names
            .filter((name) => name.startsWith(CACHE_PREFIX) && !CURRENT_CACHES.includes(name))
            .map((name) => caches.delete(name)),
        ),
      )
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (NEVER_CACHED.test(url.pathname)) return;

  if (STATIC_FILE.test(url.pathname)) {
    event.respondWith(cacheFirst(request));
    return;
  }
  const page = pagePath(url.pathname);
  if (page !== null && CATALOGUE_PAGE.test(page)) {
    event.respondWith(networkFirst(request, request.mode === 'navigate'));
    return;
  }
  // React Router's route discovery: needed to follow links client-side while offline.
  if (SHELL.includes(url.pathname) || url.pathname === '/__manifest') {
    event.respondWith(networkFirst(request, false));
  }
});

/** The page a request is for: the path itself, or the page behind a React Router `.data` request. */
function pagePath(pathname) {
  if (pathname === '/_root.data') return '/';
  if (pathname.endsWith('/_.data')) return pathname.slice(0, -'_.data'.length);
  if (pathname.endsWith('.data')) return pathname.slice(0, -'.data'.length);
  return pathname;
}

const cacheable = (response) => response.ok && response.type === 'basic';

async function cacheFirst(request) {
  const cache = await caches.open(STATIC_CACHE);
  const cached = await cache.match(request);
  if (cached) return cached;
  const response = await fetch(request);
  if (cacheable(response)) {
    await cache.put(request, response.clone());
    void trim(STATIC_CACHE, MAX_STATIC_ENTRIES);
  }
  return response;
}

async function networkFirst(request, isNavigation) {
  const cache = await caches.open(PAGES_CACHE);
  try {
    const response = await fetch(request);
    if (cacheable(response)) {
      await cache.put(request, response.clone());
      void trim(PAGES_CACHE, MAX_PAGE_ENTRIES);
    }
    return response;
  } catch (error) {
    const cached = (await cache.match(request)) ?? (await caches.match(request));
    if (cached) return cached;
    if (isNavigation) {
      const home = (await cache.match('/')) ?? (await caches.match('/'));
      if (home) return home;
    }
    throw error;
  }
}

/** Keeps a cache to its most recent entries (a cache lists its keys in insertion order). */
async function trim(name, maxEntries) {
  const cache = await caches.open(name);
  const keys = await cache.keys();
  await Promise.all(keys.slice(0, Math.max(0, keys.length - maxEntries)).map((key) => cache.delete(key)));
}
