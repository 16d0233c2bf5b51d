import { type AppLoadContext, redirect } from 'react-router';
import { promoCodeBody } from '../../contract/shopping.ts';
import { isEnhanced } from './enhanced-forms.ts';
import { actionError, invalidForm, parseForm } from './forms.ts';
import { backTo } from './shopper-forms.ts';

/** What the promo code form asks for (its `intent` field). */
export const PROMO_INTENT = { enter: 'promo-enter', remove: 'promo-remove' } as const;

/**
 * Enters or removes the basket's promo code (ADR 0058). A refusal answers its reason in the
 * visitor's language; a plain form post that succeeds goes back to the page it came from.
 */
export async function promoCodeAction(context: AppLoadContext, formData: FormData, fallback: string) {
  const returnTo = backTo(formData, fallback);
  try {
    if (formData.get('intent') === PROMO_INTENT.remove) {
      await context.shopper.basket.removePromo();
    } else {
      const parsed = parseForm(promoCodeBody, formData);
      if (!parsed.ok) return invalidForm(parsed.errors, context.locale, formData);
      await context.shopper.basket.enterPromo(parsed.data.code);
    }
  } catch (error) {
    return actionError(error, context.locale, formData);
  }
  if (!isEnhanced(formData)) throw redirect(returnTo);
  return { promo: 'saved' as const };
}
