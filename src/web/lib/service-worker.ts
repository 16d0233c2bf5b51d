/**
 * The offline-reading service worker (public/service-worker.js): registered on load, and removed,
 * with its caches, when the shopper turns offline reading off on the about page. That choice is
 * remembered in this browser so the next visit does not register the worker again.
 */
import type { UNSAFE_AssetsManifest as AssetsManifest } from 'react-router';

declare global {
  interface Window {
    /** The build's route manifest React Router puts in every page (`routeDiscovery: 'initial'`). */
    __reactRouterManifest?: AssetsManifest;
  }
}

const SCRIPT_URL = '/service-worker.js';
/** Every cache the worker creates starts with this (see CACHE_PREFIX in public/service-worker.js). */
const CACHE_PREFIX = 'vitrina-';
const DISABLED_KEY = 'offline-reading';

const supported = () => typeof window !== 'undefined' && 'serviceWorker' in navigator;

function storedChoice(): string | null {
  try {
    return window.localStorage.getItem(DISABLED_KEY);
  } catch {
    return null;
  }
}

function storeChoice(value: 'off' | null) {
  try {
    if (value) window.localStorage.setItem(DISABLED_KEY, value);
    else window.localStorage.removeItem(DISABLED_KEY);
  } catch {
    // Storage can be blocked; the choice then lasts until the page is closed.
  }
}

/** True when the shopper turned offline reading off in this browser. */
export const isOfflineReadingOff = () => supported() && storedChoice() === 'off';

/** Logs when a newly installed worker has cached the site: a first install or an update. */
function reportInstall(worker: ServiceWorker | null, seen: WeakSet<ServiceWorker>) {
  if (!worker || seen.has(worker)) return;
  seen.add(worker);
  worker.addEventListener('statechange', () => {
    if (worker.state !== 'installed') return;
    if (navigator.serviceWorker.controller) {
      console.log('New content is available and will be used on the next page load.');
    } else {
      console.log('Content is cached for offline use.');
    }
  });
}

/** The back office's routes: never offline, so shoppers do not download their code ahead. */
const BACK_OFFICE_ROUTE = /^routes\/admin\//;

/**
 * The code of every shop page in this build (route modules, the chunks they import, their styles),
 * from React Router's manifest in the page.
 */
export function shopRouteAssets(manifest: AssetsManifest): string[] {
  const assets = new Set<string>([manifest.entry.module, ...manifest.entry.imports]);
  for (const route of Object.values(manifest.routes)) {
    if (!route || BACK_OFFICE_ROUTE.test(route.id)) continue;
    for (const url of [route.module, ...(route.imports ?? []), ...(route.css ?? [])]) assets.add(url);
  }
  return [...assets];
}

/**
 * Hands the worker the code of every shop page, so that a link followed offline to a kind of page
 * this browser never opened finds its code and shows the offline page (ADR 0032): without it React
 * Router reloads the current page when a route module cannot be loaded.
 */
async function precacheShopRoutes() {
  const manifest = window.__reactRouterManifest;
  if (!manifest) return;
  // The page's preloads name its language's texts too, which the route manifest does not (ADR 0086).
  const preloaded = [...document.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]')].map(
    (link) => new URL(link.href).pathname,
  );
  const { active } = await navigator.serviceWorker.ready;
  active?.postMessage({ type: 'precache', urls: [...new Set([...shopRouteAssets(manifest), ...preloaded])] });
}

async function register() {
  try {
    const registration = await navigator.serviceWorker.register(SCRIPT_URL);
    const seen = new WeakSet<ServiceWorker>();
    // The browser may have started installing an update (on navigation) before `register` resolved.
    reportInstall(registration.installing, seen);
    registration.addEventListener('updatefound', () => reportInstall(registration.installing, seen));
    await precacheShopRoutes();
  } catch (error) {
    console.error('Error during service worker registration:', error);
  }
}

/**
 * Registers the worker once the page has loaded (an effect: returns its cleanup). Skipped in
 * development, where Vite serves unhashed modules that must not be cached.
 */
export function registerServiceWorker(): (() => void) | undefined {
  if (!supported() || !import.meta.env.PROD || isOfflineReadingOff()) return undefined;
  if (document.readyState === 'complete') {
    void register();
    return undefined;
  }
  const onLoad = () => void register();
  window.addEventListener('load', onLoad, { once: true });
  return () => window.removeEventListener('load', onLoad);
}

/**
 * Turns offline reading off: unregisters every registration of this origin and deletes the caches
 * the worker made. Resolves true when no worker and no cache is left, false when that failed.
 */
export async function unregisterServiceWorker(): Promise<boolean> {
  if (!supported()) return true;
  storeChoice('off');
  try {
    const registrations = await navigator.serviceWorker.getRegistrations();
    const results = await Promise.all(registrations.map((registration) => registration.unregister()));
    if ('caches' in window) {
      const names = await caches.keys();
      await Promise.all(
        names.filter((name) => name.startsWith(CACHE_PREFIX)).map((name) => caches.delete(name)),
      );
    }
    return results.every(Boolean);
  } catch (error) {
    console.error('Error during service worker unregistration:', error);
    return false;
  }
}

/** Turns offline reading back on after it was turned off. */
export async function enableOfflineReading(): Promise<void> {
  if (!supported()) return;
  storeChoice(null);
  await register();
}
