import { useId } from 'react';
import { useFetcher } from 'react-router';
import { translateError } from '../../contract/error-messages.ts';
import type { Basket } from '../../contract/shopping.ts';
import { type FormFailure, formFailure } from '../lib/forms.ts';
import { PROMO_INTENT } from '../lib/promo-forms.ts';
import { useShop } from '../lib/shop.ts';
import { EnhancedField, failureText } from './shopper-buttons.tsx';

/**
 * The cart's promo code: a field and Apply, or the code entered with its discount (or why it does
 * not apply now) and a Remove button. Plain forms without JavaScript; a fetcher with it, whose
 * answer revalidates the cart so the lines show their shares (ADR 0058).
 */
export function PromoCodeForm({
  promo,
  discount,
  action,
}: {
  promo: Basket['promo'];
  /** The discount as the summary formats it, in the shopper's currency. */
  discount: string | null;
  action: string;
}) {
  const { locale, t } = useShop();
  const fetcher = useFetcher<{ promo: 'saved' } | FormFailure>();
  const id = useId();
  const failure = fetcher.state === 'idle' ? formFailure(fetcher.data) : undefined;
  const refused = failure ? failureText(failure) : undefined;
  if (promo) {
    return (
      <fetcher.Form method="post" action={action} className="promo-code">
        <input type="hidden" name="intent" value={PROMO_INTENT.remove} />
        <input type="hidden" name="redirectTo" value={action} />
        <EnhancedField />
        <p className="promo-code__state" role="status">
          {promo.refused === null
            ? t('promo-code-applied', { code: promo.code, amount: discount ?? '' })
            : t('promo-code-refused', { code: promo.code, reason: translateError(locale, promo.refused) })}
        </p>
        <button type="submit" className="button button--compact">
          {t('promo-code-remove')}
        </button>
      </fetcher.Form>
    );
  }
  return (
    <fetcher.Form method="post" action={action} className="promo-code">
      <input type="hidden" name="intent" value={PROMO_INTENT.enter} />
      <input type="hidden" name="redirectTo" value={action} />
      <EnhancedField />
      <label htmlFor={`${id}-code`}>{t('promo-code')}</label>
      <div className="promo-code__row">
        <input
          id={`${id}-code`}
          name="code"
          type="text"
          autoComplete="off"
          autoCapitalize="characters"
          maxLength={40}
          required
          aria-invalid={refused ? true : undefined}
          aria-describedby={refused ? `${id}-error` : undefined}
        />
        <button type="submit" className="button button--compact">
          {t('promo-code-apply')}
        </button>
      </div>
      {refused ? (
        <p id={`${id}-error`} className="form-field__error" role="alert">
          {refused}
        </p>
      ) : null}
    </fetcher.Form>
  );
}
