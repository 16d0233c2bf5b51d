import { useEffect } from 'react';
import {
  isRouteErrorResponse,
  Links,
  Outlet,
  Scripts,
  ScrollRestoration,
  type ShouldRevalidateFunction,
  useLocation,
  useMatches,
  useRevalidator,
  useRouteError,
} from 'react-router';
import type { Route } from './+types/root';
import { CartDrawerHost } from './components/cart-drawer-host.tsx';
import { ErrorPage, OfflinePage } from './components/error-page.tsx';
import { Footer } from './components/footer.tsx';
import { Header } from './components/header.tsx';
import { MenuProvider } from './components/menu.tsx';
import { NavigationPanel } from './components/navigation-panel.tsx';
import { Overlay } from './components/overlay.tsx';
import { useCspNonce } from './lib/csp-nonce.ts';
import { OVERLAY_COOKIE, readCookie, useShop } from './lib/shop.ts';
import './load-context.ts';
import shopStyles from './styles.css?url';

/**
 * The shop's stylesheet is a file of its own, kept by the browser and the service worker under its
 * hashed name, as React Router links a route's styles (ADR 0097); the back office adds its own.
 */
export const links: Route.LinksFunction = () => [
  { rel: 'stylesheet', href: shopStyles },
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
  { rel: 'manifest', href: '/manifest.webmanifest' },
  { rel: 'apple-touch-icon', href: '/icon-192.png' },
];

export async function loader({ context, request }: Route.LoaderArgs) {
  const { services, locale, testMode, publicUrl, ownDataLater } = context;
  const menu = (await services.catalog.menu(locale)).value;
  const user = ownDataLater ? null : await context.account.currentUser();
  return {
    locale,
    testMode,
    publicUrl,
    shopEmail: services.config.shopEmail,
    currencyUsd: menu.currencyUsd,
    projects: menu.projects,
    categories: menu.categories,
    /** Only what the header and the menu show; the profile page loads the rest. */
    user: user ? { email: user.email, isAdmin: user.isAdmin } : null,
    /** The header's badges: units in the basket, products in the wishlist. */
    counts: ownDataLater ? { basket: 0, wishlist: 0 } : await context.shopper.counts(),
    /** A shared catalogue page: the user and the badges above are not this visitor's yet (ADR 0048). */
    ownDataLater,
    overlayVisible: testMode && readCookie(request, OVERLAY_COOKIE) !== 'hidden',
  };
}

/**
 * The catalogue sections rarely change: only reload them after a form is sent (language, sign-in,
 * and the fetchers that change the basket or wishlist, for the header's badges), or when a page
 * asks for fresh data explicitly (`useRevalidator`: the same URL, no form).
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({
  formMethod,
  currentUrl,
  nextUrl,
  defaultShouldRevalidate,
}) => {
  if (formMethod !== undefined && formMethod !== 'GET') return defaultShouldRevalidate;
  return formMethod === undefined && currentUrl.href === nextUrl.href ? defaultShouldRevalidate : false;
};

/**
 * What a route module may say in its `handle`: `hydrate: false` sends its page without the app's
 * scripts (the offline page, which the service worker shows at other addresses).
 */
export interface RouteHandle {
  hydrate?: boolean;
}

export function Layout({ children }: { children: React.ReactNode }) {
  const { data, locale, t } = useShop();
  const nonce = useCspNonce();
  const hydrate = useMatches().every((match) => (match.handle as RouteHandle | undefined)?.hydrate !== false);
  return (
    <html lang={locale}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#1d1b3a" />
        {/* The style nonce lets the back office's editor add its own style (lib/csp-nonce.ts). */}
        <Links nonce={nonce.style} />
      </head>
      <body>
        <a className="skip-link" href="#content">
          {t('catalogue')}
        </a>
        <MenuProvider>
          {/* A landmark of its own, so nothing on the page sits outside one. */}
          {data?.testMode ? <aside className="test-banner">{t('test-mode-banner')}</aside> : null}
          <Header />
          <NavigationPanel />
          <main id="content" className="page">
            {children}
          </main>
          <Footer />
          {/* A page without scripts is the offline page: nothing there to acknowledge. */}
          {data?.overlayVisible && hydrate ? <Overlay /> : null}
          {data?.ownDataLater && hydrate ? <OwnDataOnceHydrated /> : null}
          {hydrate ? <CartDrawerHost /> : null}
        </MenuProvider>
        {hydrate ? (
          <>
            {/* Back restores where the shopper was; a new page opens at its top or at its #anchor. */}
            <ScrollRestoration nonce={nonce.script} />
            <Scripts nonce={nonce.script} />
          </>
        ) : null}
      </body>
    </html>
  );
}

export default function App() {
  useEffect(registerServiceWorkerLater, []);
  return <Outlet />;
}

/**
 * The offline-reading worker is registered once the page has loaded: its code is a script of its
 * own, fetched after hydration rather than with the page's first scripts (ADR 0086).
 */
function registerServiceWorkerLater() {
  let cleanup: (() => void) | undefined;
  let unmounted = false;
  void import('./lib/service-worker.ts').then(({ registerServiceWorker }) => {
    if (!unmounted) cleanup = registerServiceWorker();
  });
  return () => {
    unmounted = true;
    cleanup?.();
  };
}

/**
 * A shared catalogue page came without the visitor's own parts (ADR 0048): once hydrated, the
 * router loads the page's data again, the visitor's own, in one `.data` request. A leaf of its
 * own, mounted only then, as `useRevalidator` re-renders its component on every change of the
 * router's state.
 */
function OwnDataOnceHydrated() {
  const { revalidate } = useRevalidator();
  // Again after each navigation while it has not arrived: a link followed at once cancels the
  // reload, and the root's data is not reloaded by a navigation (shouldRevalidate).
  const { key } = useLocation();
  useEffect(() => {
    if (key) void revalidate();
  }, [key, revalidate]);
  return null;
}

export function ErrorBoundary() {
  const error = useRouteError();
  // A link followed without a connection to a page the service worker has not saved.
  if (!isRouteErrorResponse(error) && typeof navigator !== 'undefined' && !navigator.onLine) {
    return <OfflinePage />;
  }
  const status = isRouteErrorResponse(error) ? error.status : 500;
  // The server logs it with the request's id (entry.server.tsx, `handleError`); this is the browser's.
  if (!isRouteErrorResponse(error) && typeof document !== 'undefined') console.error(error);
  return <ErrorPage status={status} />;
}
