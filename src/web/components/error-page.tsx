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
