import { useEffect } from 'react';
import {
  isRouteErrorResponse,
  Links,
  Outlet,
  Scripts,
  type ShouldRevalidateFunction,
  useLocation,
  useRouteError,
} from 'react-router';
import type { Route } from './+types/root';
import { ErrorPage } from './components/error-page.tsx';
import { Footer } from './components/footer.tsx';
import { Header } from './components/header.tsx';
import { useLinkNavigation } from './components/link.tsx';
import { MenuProvider } from './components/menu.tsx';
import { NavigationPanel } from './components/navigation-panel.tsx';
import { Overlay } from './components/overlay.tsx';
import { registerServiceWorker } from './lib/service-worker.ts';
import { OVERLAY_COOKIE, readCookie, useShop } from './lib/shop.ts';
import { renderedStylesheet, STYLESHEET_ID } from './lib/stylesheet.ts';
import './load-context.ts';

const stylesheet = renderedStylesheet();

export const links: Route.LinksFunction = () => [
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
  { rel: 'manifest', href: '/manifest.webmanifest' },
  { rel: 'apple-touch-icon', href: '/icon-192.png' },
];

export async function loader({ context, request }: Route.LoaderArgs) {
  const { services, locale, testMode, publicUrl } = context;
  const initial = (await services.catalog.initial(locale)).value;
  const user = await context.account.currentUser();
  return {
    locale,
    testMode,
    publicUrl,
    shopEmail: services.config.shopEmail,
    currencyUsd: initial.currencyUsd,
    projects: initial.projects,
    categories: initial.categories,
    /** Only what the header and the menu show; the profile page loads the rest. */
    user: user ? { email: user.email, isAdmin: user.isAdmin } : null,
    /** The header's badges: units in the basket, products in the wishlist. */
    counts: await context.shopper.counts(locale),
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

export function Layout({ children }: { children: React.ReactNode }) {
  const { data, locale, t } = useShop();
  useLinkNavigation();
  return (
    <html lang={locale}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#1d1b3a" />
        <Links />
        {/* Filled in by the server's entry (lib/stylesheet.ts). */}
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: our own stylesheet, from the page */}
        <style id={STYLESHEET_ID} dangerouslySetInnerHTML={{ __html: stylesheet }} suppressHydrationWarning />
      </head>
      <body>
        <a className="skip-link" href="#content">
          {t('catalogue')}
        </a>
        <MenuProvider>
          {data?.testMode ? <p className="test-banner">{t('test-mode-banner')}</p> : null}
          <Header />
          <NavigationPanel />
          <main id="content" className="page">
            {children}
          </main>
          <Footer />
          {data?.overlayVisible ? <Overlay /> : null}
        </MenuProvider>
        <Scripts />
      </body>
    </html>
  );
}

/** On each navigation: scroll to the hash element if there is one, else to the top. */
function useScrollOnNavigation() {
  const { pathname, hash } = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on every route change by design
  useEffect(() => {
    if (hash) {
      document.getElementById(decodeURIComponent(hash.slice(1)))?.scrollIntoView();
    } else {
      window.scrollTo(0, 0);
    }
  }, [pathname, hash]);
}

export default function App() {
  useScrollOnNavigation();
  useEffect(registerServiceWorker, []);
  return <Outlet />;
}

export function ErrorBoundary() {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  if (!isRouteErrorResponse(error)) console.error(error);
  return <ErrorPage status={status} />;
}
