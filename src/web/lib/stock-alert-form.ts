import { type AppLoadContext, redirect } from 'react-router';
import { basketLineBody } from '../../contract/shopping.ts';
import { isEnhanced } from './enhanced-forms.ts';
import { actionError, invalidForm, parseForm } from './forms.ts';
import { backTo } from './shopper-forms.ts';

/** "Notify me when back" (components/back-in-stock.tsx): keeps the signed-in shopper's wish. */
export async function stockAlertAction(context: AppLoadContext, formData: FormData, fallback: string) {
  const returnTo = backTo(formData, fallback);
  const parsed = parseForm(basketLineBody, formData);
  if (!parsed.ok) return invalidForm(parsed.errors, context.locale, formData);
  try {
    const { variantId } = await context.shopper.stockAlert.ask(
      parsed.data.product,
      parsed.data.variant,
      context.locale,
    );
    if (!isEnhanced(formData)) throw redirect(returnTo);
    return { alerted: variantId };
  } catch (error) {
    if (error instanceof Response) throw error;
    return actionError(error, context.locale, formData);
  }
}
