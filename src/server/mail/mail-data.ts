import type { Locale } from '../../contract/locale.ts';
import type { Currency } from '../../contract/money.ts';
import type { DELIVERY_METHODS } from '../db/schema.ts';
import type { Content } from './render.ts';

/** What each mail is made of: the data every template needs, and the list of templates. */

export type DeliveryMethod = (typeof DELIVERY_METHODS)[number];

export interface OrderedItem {
  name: string;
  /** The variant's options in the mail's language ("Size: L") and its SKU; absent for a product without options. */
  variant?: { options: string; sku: string };
  count: number;
  /** Price of one unit, roubles. */
  price: number;
  /** Roubles of the order's promo discount the whole line carries (ADR 0058); absent or 0 when none. */
  discount?: number;
}

/** An order as its mails summarise it: items, amounts, delivery method and address. Roubles. */
export interface OrderMailData {
  orderId: number;
  items: OrderedItem[];
  productsCost: number;
  deliveryCost: number;
  total: number;
  /** USD shows every amount in dollars at `usdRate` (roubles per dollar); without a rate, roubles. */
  currency: Currency;
  usdRate?: number;
  deliveryMethod: DeliveryMethod;
  address: string;
  /** The Boxberry pickup point the parcel goes to, beside its address (pickup orders that keep one). */
  pickupPointCode?: string;
}

/** What each template needs. Amounts are roubles unless said otherwise. */
export interface MailData {
  'verify-email': { link: string };
  'reset-password': { link: string; expiresInHours: number };
  /** Someone tried to register with the reader's address (ADR 0055): the ways back into the account. */
  'account-exists': { signInLink: string; restoreLink: string };
  /** Sent to the shop's own address, with reply-to set to the visitor. */
  feedback: { name: string; email: string; message: string };
  'order-placed': OrderMailData;
  /** The same order summary, its amounts as the provider confirmed them. */
  'payment-received': OrderMailData;
  /** Sent to the shop's own address when an order is paid: what to pack, for whom, and where to see it. */
  'new-paid-order': OrderMailData & { customer: string; email: string; phone: string; link?: string };
  /** `note`: the shop's own words when staff cancelled the order (shown as they wrote them). */
  'order-cancelled': { orderId: number; reason: 'expired' | 'cancelled'; note?: string };
  /**
   * A refund sent back: `amount` in `currency`; `full` when the whole payment is back (the order is
   * cancelled), with `note`, staff's words of why (shown as they wrote them).
   */
  'order-refunded': { orderId: number; amount: number; currency: Currency; full: boolean; note?: string };
  'order-shipped': { orderId: number; trackCode: string; deliveryMethod: DeliveryMethod };
  /** A parcel arrived at the post office or pickup point and waits for the shopper (ADR 0057). */
  'parcel-waiting': {
    orderId: number;
    trackCode: string;
    deliveryMethod: DeliveryMethod;
    place: string | null;
  };
  'envisioned-available': { productName: string; link: string };
  /** A variant a shopper waited for is in stock again; `options` is its label ("Size: L") or null. */
  'back-in-stock': { productName: string; options: string | null; link: string };
  /** A product the reader asked to be reminded of went on sale (ADR 0041). */
  'release-reminder': { productName: string; link: string };
  /** An admin made the reader staff: the link sets a password (a reset token) and opens the way in. */
  'staff-invite': { role: 'manager' | 'admin'; link: string; expiresInHours: number };
}

export type MailTemplate = keyof MailData;

export const MAIL_TEMPLATES = [
  'verify-email',
  'reset-password',
  'account-exists',
  'feedback',
  'order-placed',
  'payment-received',
  'new-paid-order',
  'order-cancelled',
  'order-refunded',
  'order-shipped',
  'parcel-waiting',
  'envisioned-available',
  'back-in-stock',
  'release-reminder',
  'staff-invite',
] as const satisfies readonly MailTemplate[];

/** One template in one language: its data in, its subject and blocks out. */
export type Compose<T extends MailTemplate> = (data: MailData[T]) => Content;

/** Some of the templates, each in every language (the words of one kind of mail sit together). */
export type Templates<T extends MailTemplate> = { [K in T]: Record<Locale, Compose<K>> };
