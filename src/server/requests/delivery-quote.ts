import type { FastifyRequest } from 'fastify';
import type { DeliveryQuery } from '../../contract/delivery.ts';
import type { Locale } from '../../contract/locale.ts';
import { type DeliveryQuote, MINIMUM_BILLABLE_GRAMS } from '../delivery/service.ts';
import { Invalid, Unavailable } from '../errors.ts';
import { requireOfferedDelivery } from '../orders/checkout-rules.ts';
import type { Services } from './services.ts';
import { shopperActions } from './shopper-actions.ts';

/**
 * The delivery cost of the requester's basket: its weight, box and value, by the chosen method to the
 * chosen country and postcode (and the chosen pickup point). Shared by `GET /api/delivery` and the checkout's loaders and actions.
 */
export async function quoteForRequest(
  services: Services,
  request: FastifyRequest,
  query: Pick<DeliveryQuery, 'method' | 'country' | 'zip' | 'pickupPointCode'> & { locale?: Locale },
): Promise<DeliveryQuote> {
  requireOfferedDelivery(query.method, services.config.offered);
  const parcel = await shopperActions(services, request).basket.parcel();
  if (parcel.count === 0) throw new Invalid('basket-empty', { basket: ['basket-empty'] });
  try {
    return await services.delivery.quote({
      method: query.method,
      country: query.country,
      zip: query.zip,
      pickupPointCode: query.pickupPointCode,
      // Products without a weight still make a parcel.
      weightGrams: Math.max(parcel.grams, MINIMUM_BILLABLE_GRAMS),
      orderSumKopecks: parcel.totalKopecks,
      box: parcel.box,
    });
  } catch (error) {
    if (error instanceof Unavailable) {
      request.log.warn({ err: (error as { cause?: unknown }).cause }, 'delivery provider unavailable');
    }
    throw error;
  }
}
