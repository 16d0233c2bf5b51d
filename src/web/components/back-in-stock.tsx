import { Link, useFetcher, useLocation } from 'react-router';
import { INTENT } from '../lib/enhanced-forms.ts';
import type { FormFailure } from '../lib/forms.ts';
import { signInPath } from '../lib/redirects.ts';
import { useShop } from '../lib/shop.ts';
import { EnhancedField, failureText, useReturnPath } from './shopper-buttons.tsx';

/** The query parameter a plain (no JavaScript) form comes back with once the wish is kept. */
const NOTIFY_PARAMETER = 'notify';

type Answer = { alerted: number | null } | FormFailure;

/**
 * "Notify me when back" for a sold-out variant (issue 16): a signed-in shopper's wish is kept and
 * one mail goes out when the variant is in stock again (src/server/catalog/stock-alerts.ts). A
 * guest is sent to sign in first. `variantId` is the chosen variant; none for a product without
 * options. The product page's action handles the form (`stockAlertAction`).
 */
export function BackInStock({
  productId,
  variantId,
  signedIn,
}: {
  productId: number;
  variantId?: number | undefined;
  signedIn: boolean;
}) {
  const { t } = useShop();
  const { pathname, search } = useLocation();
  const fetcher = useFetcher<Answer>({ key: `back-in-stock-${productId}-${variantId ?? ''}` });
  const marker = String(variantId ?? productId);
  const returnPath = useReturnPath({ [NOTIFY_PARAMETER]: marker }, ['added', 'reviewed']);

  if (!signedIn) {
    return (
      <p className="back-in-stock">
        <Link to={signInPath(pathname, search)}>{t('notify-when-back-sign-in')}</Link>
      </p>
    );
  }
  const answer = fetcher.state === 'idle' ? fetcher.data : undefined;
  const refused = answer && 'errors' in answer ? failureText(answer) : undefined;
  const kept =
    (answer !== undefined && 'alerted' in answer) ||
    new URLSearchParams(search).get(NOTIFY_PARAMETER) === marker;
  if (kept)
    return (
      <p className="back-in-stock notice" role="status">
        {t('notify-when-back-done')}
      </p>
    );
  return (
    <fetcher.Form method="post" action={pathname} className="back-in-stock">
      <input type="hidden" name="intent" value={INTENT.stockAlert} />
      <input type="hidden" name="product" value={productId} />
      {variantId === undefined ? null : <input type="hidden" name="variant" value={variantId} />}
      <input type="hidden" name="redirectTo" value={returnPath} />
      <EnhancedField />
      <button type="submit" className="button" disabled={fetcher.state !== 'idle'}>
        {t('notify-when-back')}
      </button>
      {refused ? (
        <span className="form-field__error" role="alert">
          {refused}
        </span>
      ) : null}
    </fetcher.Form>
  );
}
