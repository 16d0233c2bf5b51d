import { DELIVERY_METHODS, type DeliveryMethod, hasPickupPointPrefix } from '../../contract/delivery.ts';
import { type Amounts, type Kopecks, majorToMinor, minorToMajor } from '../../contract/money.ts';
import { PAYMENT_METHODS, type PaymentMethod, type TotalChanged } from '../../contract/orders.ts';
import { Conflict, Invalid } from '../errors.ts';

/**
 * Checkout rules about the recipient and the delivery, checked here for every adapter alike: the
 * shipping page's step, the payment page's order and `POST /api/order`. (Items must be orderable,
 * in stock and priced above 0: `createOrder` checks that as it takes the stock.)
 */

/**
 * A Boxberry pickup point's address starts with the pickup-point label (spec section 4), and the
 * point's code comes with it: the parcel goes to that point and its price is quoted for it.
 */
export function requirePickupPoint(
  method: DeliveryMethod,
  recipient: { address: string; pickupPointCode?: string | undefined },
): void {
  if (method === 'boxberry' && !(hasPickupPointPrefix(recipient.address) && recipient.pickupPointCode)) {
    throw new Invalid('request-invalid', { address: ['pickup-point-required'] }, 'pickup-point-required');
  }
}

/** No delivery cost quoted yet: the shopper goes back to the shipping step. */
export const deliveryCostRequired = () => new Invalid('delivery-cost-required', {}, 'delivery-cost-required');

/** An order is placed only with a delivery cost the server quoted above 0. */
export function requireDeliveryCost(cost: Kopecks): void {
  if (!(cost > 0)) throw deliveryCostRequired();
}

/** The methods a shop offers (`PAYMENT_METHODS`, `DELIVERY_METHODS`; ADR 0054). */
export interface OfferedMethods {
  payment: readonly [PaymentMethod, ...PaymentMethod[]];
  delivery: readonly [DeliveryMethod, ...DeliveryMethod[]];
}

/** Every method: the default settings. */
export const ALL_METHODS: OfferedMethods = { payment: PAYMENT_METHODS, delivery: DELIVERY_METHODS };

/** A payment method the shop has switched off is refused before anything changes. */
export function requireOfferedPayment(method: PaymentMethod, offered: OfferedMethods): void {
  if (!(offered.payment as readonly string[]).includes(method)) {
    throw new Invalid('payment-method-off', { paymentMethod: ['payment-method-off'] }, 'payment-method-off');
  }
}

/** A delivery method the shop has switched off is neither quoted nor ordered. */
export function requireOfferedDelivery(method: DeliveryMethod, offered: OfferedMethods): void {
  if (!offered.delivery.includes(method)) {
    throw new Invalid(
      'delivery-method-off',
      { deliveryMethod: ['delivery-method-off'] },
      'delivery-method-off',
    );
  }
}

/**
 * The amount shown is the amount charged (ADR 0059): when the page says which total it showed, an
 * order whose total would differ is refused with the figures that would be charged, in the shown
 * currency (409, `changed`), and nothing is placed.
 */
export function requireShownTotal(shownTotal: number | undefined, amounts: Amounts): void {
  if (shownTotal === undefined || majorToMinor(shownTotal) === amounts.total) return;
  const changed: TotalChanged = {
    currency: amounts.currency,
    goods: minorToMajor(amounts.products),
    delivery: minorToMajor(amounts.delivery),
    total: minorToMajor(amounts.total),
  };
  throw new Conflict('total-changed', { total: ['total-changed'] }, 'total-changed', { changed });
}
