/**
 * The offline-reading service worker (public/service-worker.js): registered on load, and removed,
 * with its caches, when the shopper turns offline reading off on the about page. That choice is
 * remembered in this browser so the next visit does not register the worker again.
 */

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

async function register() {
  try {
    const registration = await navigator.serviceWorker.register(SCRIPT_URL);
    const seen = new WeakSet<ServiceWorker>();
    // The browser may have started installing an update (on navigation) before `register` resolved.
    reportInstall(registration.installing, seen);
    registration.addEventListener('updatefound', () => reportInstall(registration.installing, seen));
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
