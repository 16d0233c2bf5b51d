/*
 * Vitrina's offline-reading worker (registered by src/web/lib/service-worker.ts).
 *
 * - Precaches the home page, the manifest, the icons and the offline page in each language.
 * - Hashed build assets (/assets/*) and uploaded images (/img/*) never change under one name:
 *   cache-first. The page hands over the code of every shop page of its build (React Router's
 *   manifest, src/web/lib/service-worker.ts), kept ahead so that a link followed offline to a kind
 *   of page never opened finds its code and shows the offline page instead of reloading.
 * - Catalogue and info pages (and their React Router `.data` requests) are network-first and kept
 *   under their own address; offline, a page comes back only as it was saved for that address.
 * - Any other page (the cart, the wishlist, the profile, sign-in …) always comes from the network
 *   and is never stored: personal pages stay off the disk.
 * - Offline, a page opened for the first time, or one never stored, is answered with the offline
 *   page ("you are offline") in the shopper's language; a link followed inside the app shows the
 *   same page (the app's error boundary sees that the browser is offline).
 * - Requests whose GET may change something, or that come back from a payment provider (/logout,
 *   /activate, /order/… other than the history, /locale, /overlay, /api, /admin, /sandbox) and
 *   every non-GET request are not touched: the browser sends them as they are.
 *
 * Bump VERSION when the caching rules change: activation deletes the caches of older versions.
 */
const VERSION = 'v4';
const CACHE_PREFIX = 'vitrina-';
const SHELL_CACHE = `${CACHE_PREFIX}shell-${VERSION}`;
const STATIC_CACHE = `${CACHE_PREFIX}static-${VERSION}`;
const PAGES_CACHE = `${CACHE_PREFIX}pages-${VERSION}`;
const CURRENT_CACHES = [SHELL_CACHE, STATIC_CACHE, PAGES_CACHE];

const SHELL = ['/', '/manifest.webmanifest', '/favicon.svg', '/icon-192.png'];
/** The shop's languages (src/contract/locale.ts) and the one it falls back to. */
const LOCALES = ['ru', 'en'];
const DEFAULT_LOCALE = 'en';
const LOCALE_COOKIE = 'locale';
/** Where the offline page of a language is kept in the shell cache. */
const offlineKey = (locale) => `/offline?locale=${locale}`;
/** Oldest entries beyond these counts are dropped, so the caches do not grow forever. */
const MAX_STATIC_ENTRIES = 300;
const MAX_PAGE_ENTRIES = 80;

const NOT_HANDLED =
  /^\/(api|admin|sandbox|logout|activate|locale|overlay|order\/(?!history(\/|\.|$)))(\/|\.|$)/;
const CATALOGUE_PAGE =
  /^\/($|(category|project|product|search)\/[^/]+\/?$|(products|shipping|payment|about|partners|privacy-policy)\/?$)/;
const STATIC_FILE = /^\/(assets|img)\//;
/** A file of the build, as the page's route manifest names it. */
const BUILD_ASSET = /^\/assets\/[\w.-]+$/;

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(SHELL_CACHE)
      .then((cache) =>
        // One missing file must not stop the worker from installing.
        Promise.all([
          ...SHELL.map((url) => cache.add(new Request(url, { cache: 'reload' })).catch(() => undefined)),
          ...LOCALES.map((locale) => storeOfflinePage(cache, locale).catch(() => undefined)),
        ]),
      )
      .then(() => self.skipWaiting()),
  );
});

/**
 * The offline page in `locale`, asked for as a visitor without a session who prefers that language
 * (no cookies, so neither the stored language nor an account changes it).
 */
async function storeOfflinePage(cache, locale) {
  const response = await fetch('/offline', {
    credentials: 'omit',
    cache: 'reload',
    headers: { 'accept-language': locale },
  });
  if (response.ok) await cache.put(offlineKey(locale), response);
}

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
  if (NOT_HANDLED.test(url.pathname)) return;

  if (STATIC_FILE.test(url.pathname)) {
    event.respondWith(cacheFirst(request));
    return;
  }
  const isNavigation = request.mode === 'navigate';
  const page = pagePath(url.pathname);
  if (page !== null && CATALOGUE_PAGE.test(page)) {
    event.respondWith(networkFirst(request, isNavigation));
    return;
  }
  if (SHELL.includes(url.pathname)) {
    event.respondWith(networkFirst(request, false));
    return;
  }
  // Every other page: from the network only, the offline page when there is none.
  if (isNavigation) event.respondWith(fetch(request).catch(() => offlinePage(url)));
});

self.addEventListener('message', (event) => {
  const { data } = event;
  if (data?.type !== 'precache' || !Array.isArray(data.urls)) return;
  event.waitUntil(
    precacheAssets(data.urls.filter((url) => typeof url === 'string' && BUILD_ASSET.test(url))),
  );
});

/** Stores the build's files not stored yet; one that fails is fetched again when a page asks for it. */
async function precacheAssets(urls) {
  const cache = await caches.open(STATIC_CACHE);
  await Promise.all(
    urls.map(async (url) => {
      if (await cache.match(url)) return;
      await cache.add(url).catch(() => undefined);
    }),
  );
  void trim(STATIC_CACHE, MAX_STATIC_ENTRIES);
}

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
    // This address as it was saved, never another page in its place.
    const cached = (await cache.match(request)) ?? (await caches.match(request));
    if (cached) return cached;
    if (isNavigation) return offlinePage(new URL(request.url));
    throw error;
  }
}

/**
 * The offline page in the shopper's language: the address's `?lang=` (ADR 0034), else the shop's
 * language cookie, else the browser's.
 */
async function offlinePage(url) {
  const asked = url?.searchParams.get('lang');
  const locale = asked && LOCALES.includes(asked) ? asked : await shopperLocale();
  const cache = await caches.open(SHELL_CACHE);
  const page = (await cache.match(offlineKey(locale))) ?? (await cache.match(offlineKey(DEFAULT_LOCALE)));
  return page ?? Response.error();
}

async function shopperLocale() {
  try {
    const cookie = await self.cookieStore?.get(LOCALE_COOKIE);
    if (cookie && LOCALES.includes(cookie.value)) return cookie.value;
  } catch {
    // No Cookie Store API in this browser: its languages decide, as they do on the server.
  }
  const languages = self.navigator.languages ?? [self.navigator.language];
  for (const language of languages) {
    const locale = LOCALES.find((candidate) => language.toLowerCase().split('-')[0] === candidate);
    if (locale) return locale;
  }
  return DEFAULT_LOCALE;
}

/** Keeps a cache to its most recent entries (a cache lists its keys in insertion order). */
async function trim(name, maxEntries) {
  const cache = await caches.open(name);
  const keys = await cache.keys();
  await Promise.all(keys.slice(0, Math.max(0, keys.length - maxEntries)).map((key) => cache.delete(key)));
}
