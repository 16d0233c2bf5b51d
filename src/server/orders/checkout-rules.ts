import { type DeliveryMethod, hasPickupPointPrefix } from '../../contract/delivery.ts';
import type { Kopecks } from '../../contract/money.ts';
import { Invalid } from '../errors.ts';

/**
 * Checkout rules about the recipient and the delivery, checked here for every adapter alike: the
 * shipping page's step, the payment page's order and `POST /api/order`. (Items must be orderable,
 * in stock and priced above 0: `createOrder` checks that as it takes the stock.)
 */

/** A Boxberry pickup point's address starts with the pickup-point label (spec section 4). */
export function requirePickupPoint(method: DeliveryMethod, address: string): void {
  if (method === 'boxberry' && !hasPickupPointPrefix(address)) {
    throw new Invalid('request-invalid', { address: ['pickup-point-required'] }, 'pickup-point-required');
  }
}

/** No delivery cost quoted yet: the shopper goes back to the shipping step. */
export const deliveryCostRequired = () => new Invalid('delivery-cost-required', {}, 'delivery-cost-required');

/** An order is placed only with a delivery cost the server quoted above 0. */
export function requireDeliveryCost(cost: Kopecks): void {
  if (!(cost > 0)) throw deliveryCostRequired();
}
