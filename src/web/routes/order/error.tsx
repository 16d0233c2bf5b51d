import { Link } from 'react-router';
import { translateError } from '../../../contract/error-messages.ts';
import { PrivatePageHead } from '../../components/page-head.tsx';
import { useShop } from '../../lib/shop.ts';
import type { Route } from './+types/error';

/**
 * `/order/error`: why the order was refused. The error is read once from the session and forgotten,
 * so it is gone once the shopper leaves (a later visit shows the general text).
 */
export async function loader({ context }: Route.LoaderArgs) {
  const error = await context.checkout.errors.take();
  // The translation of intlError if there is one, else the error text (translated when it is a key).
  const text = error ? translateError(context.locale, error.intlError || error.error) : '';
  return { message: text === '' ? null : text };
}

export default function OrderErrorPage({ loaderData }: Route.ComponentProps) {
  const { t } = useShop();
  return (
    <section className="order-outcome" aria-labelledby="order-error-heading">
      <PrivatePageHead title={t('internal-server-error')} />
      <h1 id="order-error-heading">{t('internal-server-error')}</h1>
      <p className="form-alert" role="alert">
        {loaderData.message ?? t('internal-server-error-details')}
      </p>
      <p>{t('order-error-help')}</p>
      <p className="order-outcome__links">
        <Link to="/cart" className="button button--primary">
          {t('go-to-cart')}
        </Link>
        <Link to="/feedback" className="button">
          {t('feedback')}
        </Link>
      </p>
    </section>
  );
}
