import { Link } from 'react-router';
import { useShop } from '../lib/shop.ts';

const TEXTS = {
  403: ['access-denied', 'access-denied-details'],
  404: ['page-not-found', 'page-not-found-details'],
  500: ['internal-server-error', 'internal-server-error-details'],
} as const;

export function ErrorPage({ status }: { status: number }) {
  const { t } = useShop();
  const [title, details] = TEXTS[status as keyof typeof TEXTS] ?? TEXTS[500];
  return (
    <section className="error-page">
      <title>{`${t(title)} · ${t('site-title')}`}</title>
      <p className="error-page__status">{status}</p>
      <h1>{t(title)}</h1>
      <p>{t(details)}</p>
      <Link to="/" className="button button--primary">
        {t('go-home')}
      </Link>
    </section>
  );
}

/**
 * "You are offline": the page the service worker answers with for an address it has not saved
 * while there is no connection, and what a page shows when following a link fails offline. "Try
 * again" asks for the same address once more.
 */
export function OfflinePage() {
  const { t } = useShop();
  return (
    <section className="error-page">
      <title>{`${t('offline')} · ${t('site-title')}`}</title>
      <meta name="robots" content="noindex" />
      <h1>{t('offline')}</h1>
      <p>{t('offline-details')}</p>
      <p className="error-page__actions">
        {/* biome-ignore lint/a11y/useValidAnchor: an empty address is this page's own: a plain reload of it */}
        <a href="" className="button button--primary">
          {t('offline-retry')}
        </a>
        <Link to="/" className="button">
          {t('go-home')}
        </Link>
      </p>
    </section>
  );
}
