import { type AppLoadContext, redirect } from 'react-router';
import { productBody } from '../../contract/shopping.ts';
import { isEnhanced } from './enhanced-forms.ts';
import { actionError, invalidForm, parseForm } from './forms.ts';
import { backTo } from './shopper-forms.ts';

/**
 * "Remind me" of an announced product (components/release-countdown.tsx): `remind=1` keeps the
 * signed-in shopper's reminder, `remind=0` takes it back. Both are idempotent.
 */
export async function releaseReminderAction(context: AppLoadContext, formData: FormData, fallback: string) {
  const returnTo = backTo(formData, fallback);
  const parsed = parseForm(productBody, formData);
  if (!parsed.ok) return invalidForm(parsed.errors, context.locale, formData);
  const remind = formData.get('remind') === '1';
  try {
    if (remind) await context.shopper.releaseReminder.ask(parsed.data.product, context.locale);
    else await context.shopper.releaseReminder.forget(parsed.data.product);
    if (!isEnhanced(formData)) throw redirect(returnTo);
    return { reminded: remind };
  } catch (error) {
    if (error instanceof Response) throw error;
    return actionError(error, context.locale, formData);
  }
}
