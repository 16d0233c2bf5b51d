import { translateError } from '../../../contract/error-messages.ts';
import type { PickupPoint } from '../../../server/requests/checkout-actions.ts';
import { refusalOf } from '../../lib/checkout.ts';
import { requireUser } from '../../lib/require-user.ts';
import type { Route } from './+types/pickup-points';

export type PickupPointsAnswer = { city: string; points: PickupPoint[] } | { city: string; error: string };

const MAX_QUERY_LENGTH = 100;

/**
 * `GET /order/shipping/points?city=&zip=`: Boxberry pickup points for the built-in picker (test
 * mode, or no real Boxberry token): of the city by name, else of the city nearest the postcode.
 */
export async function loader({ context, url }: Route.LoaderArgs): Promise<PickupPointsAnswer> {
  const { locale } = context;
  const query = url.searchParams;
  const city = (query.get('city') ?? '').trim().slice(0, MAX_QUERY_LENGTH);
  const zip = (query.get('zip') ?? '').trim().slice(0, MAX_QUERY_LENGTH);
  await requireUser(context, { refusal: { city, error: translateError(locale, 'sign-in-required') } });
  try {
    return { city, points: await context.checkout.pickupPoints({ city, zip }) };
  } catch (error) {
    const refusal = refusalOf(error);
    if (refusal) return { city, error: translateError(locale, refusal.message) };
    throw error;
  }
}
