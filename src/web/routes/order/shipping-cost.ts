import { deliveryQuery } from '../../../contract/delivery.ts';
import { translateError } from '../../../contract/error-messages.ts';
import { type QuoteAnswer, quoteKey, refusalOf } from '../../lib/checkout.ts';
import { requireUser } from '../../lib/require-user.ts';
import type { Route } from './+types/shipping-cost';

/**
 * `GET /order/shipping/cost?method=&country=&zip=&pickupPointCode=`: the delivery cost of the signed-in shopper's
 * basket for the shipping step's live update. The answer names the inputs it is for, so the page can
 * drop an answer to inputs that have changed since.
 */
export async function loader({ context, url }: Route.LoaderArgs): Promise<QuoteAnswer> {
  const { locale } = context;
  const query = Object.fromEntries(url.searchParams);
  const key = quoteKey(query.method ?? '', query.country ?? '', query.zip ?? '', query.pickupPointCode ?? '');
  await requireUser(context, { refusal: { key, error: translateError(locale, 'sign-in-required') } });
  const parsed = deliveryQuery.safeParse(query);
  if (!parsed.success) {
    return { key, error: translateError(locale, parsed.error.issues[0]?.message ?? 'request-invalid') };
  }
  try {
    const quote = await context.checkout.quote(parsed.data, locale);
    return { key, cost: quote.cost, days: quote.days };
  } catch (error) {
    // A refusal (a postcode, a method) or an unreachable carrier is shown in the methods list.
    const refusal = refusalOf(error);
    if (refusal) return { key, error: translateError(locale, refusal.message) };
    throw error;
  }
}
