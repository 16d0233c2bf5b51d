import {
  cityWithoutKind,
  type DeliveryDays,
  type DeliveryMethod,
  deliveryMethods,
} from '../../contract/delivery.ts';
import type { Locale } from '../../contract/locale.ts';
import type { PaymentMethod } from '../../contract/orders.ts';
import type { Basket } from '../../contract/shopping.ts';
import type { MessageKey, Translate } from '../i18n/messages.ts';
import { plural } from '../i18n/plural.ts';

/**
 * Checkout helpers the pages share: the delivery quote's key, splitting a chosen pickup point's
 * address (spec section 4), the payment methods and the order status texts.
 */

/** Delay between the last change of method, country or postcode and the cost request (spec section 9). */
export const DELIVERY_QUOTE_DELAY_MS = 2500;

/** The inputs a delivery quote is for (with the chosen pickup point); an answer for other inputs is stale. */
export const quoteKey = (method: string, country: string, zip: string, pickupPointCode = '') =>
  [method, country.trim().toUpperCase(), zip.trim(), pickupPointCode.trim()].join('|');

/** The resource route that quotes the delivery of the basket: only non-empty parameters are sent. */
export function quoteUrl(method: string, country: string, zip: string, pickupPointCode = ''): string {
  const query = new URLSearchParams();
  for (const [name, value] of [
    ['method', method],
    ['country', country.trim()],
    ['zip', zip.trim()],
    ['pickupPointCode', pickupPointCode.trim()],
  ] as const) {
    if (value !== '') query.set(name, value);
  }
  return `/order/shipping/cost?${query}`;
}

/** What the cost resource route answers: a cost in roubles, or a translated error. */
export type QuoteAnswer =
  | { key: string; cost: number; days: DeliveryDays | null }
  | { key: string; error: string };

/**
 * A chosen pickup point's address ("620014, Екатеринбург г, Малышева ул, д.36") split on ', ': the
 * first part is the postcode, the second the city without Boxberry's kind of settlement ("Екатеринбург",
 * not "Екатеринбург г"), the rest the address, prefixed with the pickup-point label. An address with
 * fewer parts goes whole into the address.
 */
export function splitPickupPointAddress(
  address: string,
  label: string,
): { zip?: string; city?: string; address: string } {
  const parts = address.split(', ');
  if (parts.length < 3) return { address: `${label}${address.trim()}` };
  const [zip = '', city = '', ...rest] = parts;
  return { zip: zip.trim(), city: cityWithoutKind(city), address: `${label}${rest.join(', ').trim()}` };
}

/**
 * "1 day", "2–4 days", "1 день", "2–4 дня", "5 дней": delivery time in the visitor's words. A range
 * takes the form of its upper end, as both languages say it.
 */
export function daysText(translate: Translate, locale: Locale, days: DeliveryDays | number): string {
  const { min, max } = typeof days === 'number' ? { min: days, max: days } : days;
  return plural(translate, locale, 'delivery-days', max, { days: min === max ? min : `${min}–${max}` });
}

/** An order's delivery address on one line: postcode, country, city, street. */
export const deliveryAddressLine = (order: {
  delivery_zip: string;
  delivery_country_name: string;
  delivery_city: string;
  delivery_address: string;
}) =>
  [order.delivery_zip, order.delivery_country_name, order.delivery_city, order.delivery_address].join(', ');

/** Names of the delivery methods (the contract lists them with these keys). */
const DELIVERY_NAMES: Record<DeliveryMethod, MessageKey> = {
  russian_post: 'delivery-russian-post',
  boxberry: 'delivery-boxberry',
  'boxberry.courier': 'delivery-boxberry-courier',
};

/** Descriptions under the names on the shipping step. */
const DELIVERY_DESCRIPTIONS: Record<DeliveryMethod, MessageKey> = {
  russian_post: 'delivery-russian-post-description',
  boxberry: 'delivery-boxberry-description',
  'boxberry.courier': 'delivery-boxberry-courier-description',
};

/** The spec's three delivery methods with their texts and images, in the order the shipping step lists them. */
export const deliveryOptions = deliveryMethods.map((option) => ({
  method: option.method,
  image: option.image,
  name: DELIVERY_NAMES[option.method],
  description: DELIVERY_DESCRIPTIONS[option.method],
}));

export const deliveryName = (method: string): MessageKey | null =>
  method in DELIVERY_NAMES ? DELIVERY_NAMES[method as DeliveryMethod] : null;

export interface PaymentMethodOption {
  method: PaymentMethod;
  name: MessageKey;
  description: MessageKey;
  image: string;
}

/** The spec's two payment methods; robokassa is the default. */
export const paymentMethods: readonly PaymentMethodOption[] = [
  {
    method: 'robokassa',
    name: 'payment-robokassa',
    description: 'payment-robokassa-description',
    image: '/payment/card.svg',
  },
  {
    method: 'paypal',
    name: 'payment-paypal',
    description: 'payment-paypal-description',
    image: '/payment/wallet.svg',
  },
];

const STATUS_TEXTS: Record<number, MessageKey> = {
  0: 'order-status-0',
  1: 'order-status-1',
  2: 'order-status-2',
  3: 'order-status-3',
  4: 'order-status-4',
  5: 'order-status-5',
  6: 'order-status-6',
};

/** The text key of an order status code; anything else is unknown. */
export const orderStatusText = (status: number): MessageKey => STATUS_TEXTS[status] ?? 'order-status-unknown';

/** Which provider sent the shopper back, when the path does not say: Robokassa names an InvId. */
export const providerOfReturn = (params: URLSearchParams): 'robokassa' | 'paypal' =>
  params.has('InvId') || params.has('inv_id') ? 'robokassa' : 'paypal';

export const isPaymentProvider = (value: string): value is 'robokassa' | 'paypal' =>
  value === 'robokassa' || value === 'paypal';

/**
 * The message key of a refusal by the domain (4xx, or 503 when a carrier cannot be reached), or null
 * for anything else (a fault). The check is structural: the server's error classes live in another
 * module graph than the web build.
 */
export function refusalOf(error: unknown): { status: number; message: string; intlError?: string } | null {
  if (typeof error !== 'object' || error === null) return null;
  const { status, message, intlError } = error as {
    status?: unknown;
    message?: unknown;
    intlError?: unknown;
  };
  if (typeof status !== 'number' || typeof message !== 'string') return null;
  if (!((status >= 400 && status < 500) || status === 503)) return null;
  return { status, message, ...(typeof intlError === 'string' && intlError !== '' ? { intlError } : {}) };
}

/** The checkout needs a basket that is not empty, loaded whole, with every item available (spec section 2). */
export const basketIsOrderable = (basket: Pick<Basket, 'productList' | 'products' | 'unavailable'>) =>
  basket.productList.length > 0 &&
  basket.productList.length === Object.keys(basket.products).length &&
  basket.unavailable.length === 0;
