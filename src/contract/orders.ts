import { email } from './accounts.ts';
import { pickupPointCode } from './delivery.ts';
import { LOCALES } from './locale.ts';
import { DATABASE_INT_MAX, wireNumber } from './numbers.ts';
import { z } from './zod.ts';

/** Wire shapes of checkout and order history (spec sections 3, 4, 7). */

export const PAYMENT_METHODS = ['robokassa', 'paypal'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
export const DEFAULT_PAYMENT_METHOD: PaymentMethod = 'robokassa';

const required = (max: number) =>
  z.string({ error: 'field-required' }).trim().min(1, 'field-required').max(max, 'field-too-long');

/** Recipient fields, all required (spec section 5). */
export const recipientSchema = z.object({
  email,
  firstName: required(100),
  lastName: required(100),
  phone: required(40).refine((value) => /^[+\d][\d\s()-]{4,}$/.test(value), { message: 'phone-invalid' }),
  country: z
    .string({ error: 'country-required' })
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{2}$/, 'country-required'),
  city: required(100),
  zip: required(12),
  address: required(300),
  /** Beside the address of a Boxberry pickup point: the point the parcel goes to. */
  pickupPointCode,
});

export const orderBody = recipientSchema.extend({
  locale: z.enum(LOCALES).default('ru'),
  paymentMethod: z.enum(PAYMENT_METHODS, { error: 'payment-method-unknown' }).default(DEFAULT_PAYMENT_METHOD),
  deliveryMethod: z.enum(['russian_post', 'boxberry', 'boxberry.courier'], {
    error: 'delivery-method-unknown',
  }),
  comment: z
    .string()
    .trim()
    .max(1000, 'field-too-long')
    .optional()
    .transform((value) => (value ? value : undefined)),
  shownTotal: wireNumber(z.coerce.number({ error: 'request-invalid' }).nonnegative('request-invalid'))
    .optional()
    .describe(
      'The total the page showed (goods + delivery) in the currency the payment method charges (roubles for robokassa, dollars for paypal): a different total to charge is refused with 409 and the new figures',
    ),
  checkoutKey: z
    .string()
    .regex(/^[\w-]{8,64}$/, 'request-invalid')
    .optional()
    .describe(
      'A key the checkout form carries (8 to 64 letters, digits, _ or -): submitting it again answers the order it already placed',
    ),
});

export const orderId = wireNumber(
  z.coerce
    .number({ error: 'not-found' })
    .int('not-found')
    .positive('not-found')
    .max(DATABASE_INT_MAX, 'not-found'),
);

export const orderIdBody = z.object({ order: orderId });

export const orderItemSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  link: z.string(),
  image: z.string().nullable(),
  inStock: z.number().int(),
  price: z.number(),
  sale: z.number().nullable(),
  count: z.number().int(),
  discount: z.number().describe("Roubles of the order's promo discount the whole line carries; 0 when none"),
  variant: z.number().int().nullable().describe('Variant id; null once the variant is gone'),
  sku: z.string(),
  options: z.string().nullable().describe('"Size: L" in the locale, null for a product without options'),
});

export const orderSummarySchema = z.object({
  id: z.number().int(),
  date: z.string().describe('ISO 8601'),
  status: z
    .number()
    .int()
    .describe('0 current, 1 in processing, 2 cancelled, 3 processed, 4 ready to ship, 5 shipped, 6 special'),
  products_cost: z.number().describe('The goods in roubles after the promo discount'),
  discount: z.number().describe('Roubles off the goods by a promo code; 0 when none (ADR 0058)'),
  products_amount: z
    .number()
    .describe('The goods as charged, in the order currency: roubles, or dollars at the frozen rate'),
  delivery_cost: z.number(),
  locale: z.string(),
  currency: z.enum(['RUB', 'USD']).describe('What the order is paid in'),
  usd_rate: z.number().nullable().describe('Roubles per dollar, frozen on a dollar order'),
  payment_method: z.string(),
});

export const orderDetailSchema = orderSummarySchema.extend({
  products: z.array(orderItemSchema),
  delivery_method: z.string(),
  delivery_country: z.string(),
  delivery_city: z.string(),
  delivery_address: z.string(),
  delivery_zip: z.string(),
  track_code: z.string().nullable(),
  promo_code: z.string().nullable().describe('The promo code the order was placed with'),
  parcels: z
    .array(
      z.object({
        carrier: z.string(),
        track_code: z.string().nullable(),
        delivered_at: z.string().nullable(),
        events: z.array(
          z.object({
            occurred_at: z.string(),
            description: z.string(),
            location: z.string().nullable(),
            kind: z.string(),
          }),
        ),
      }),
    )
    .describe("The order's parcels with the carriers' tracking events, newest first (ADR 0057)"),
});

/** Why an item of a repeated order did not go back into the basket in full. */
export const NOT_REPEATED_REASONS = ['sold-out', 'hidden', 'envisioned', 'limited'] as const;

/** An item of a repeated order that the basket did not take in full, named as the order named it. */
export const notRepeatedItemSchema = z.object({
  id: z.number().int().describe('Product id'),
  name: z.string(),
  reason: z
    .enum(NOT_REPEATED_REASONS)
    .describe(
      'sold-out: none in stock (or no price); hidden: no longer in the shop; envisioned: cannot be ordered yet; limited: fewer in stock than ordered, the basket holds what there is',
    ),
  ordered: z.number().int(),
  added: z.number().int(),
});

export const repeatOrderResponse = z.object({
  success: z.literal(true),
  notAdded: z.array(notRepeatedItemSchema).describe('Items not added, or added fewer than ordered'),
});

export const orderListResponse = z.object({ success: z.literal(true), orders: z.array(orderSummarySchema) });
export const orderResponse = z.object({ success: z.literal(true), order: orderDetailSchema });

/** What the payment step needs: the order to pay and the provider form that posts by itself. */
export const paymentFormSchema = z.object({
  method: z.enum(PAYMENT_METHODS),
  url: z.string(),
  fields: z.record(z.string(), z.string()),
});

export const currentOrderSchema = z.object({
  id: z.number().int(),
  amount: z.string().describe('Total to pay in `currency`, dot decimal'),
  currency: z.enum(['RUB', 'USD']),
  products_cost: z.string(),
  shipping_cost: z.string(),
  expires: z.string().describe('ISO 8601'),
  status: z.number().int().describe('0 pending, 1 success, -1 failure'),
});

/** What would be charged when the total to charge is not the one the page showed (ADR 0059). */
export const totalChangedSchema = z.object({
  currency: z.enum(['RUB', 'USD']),
  goods: z.number().describe('In `currency`, as the page shows it'),
  delivery: z.number(),
  total: z.number(),
});
export type TotalChanged = z.infer<typeof totalChangedSchema>;

export const createOrderResponse = z.object({
  success: z.literal(true),
  order: currentOrderSchema,
  payment: paymentFormSchema,
});

export const paymentStatusResponse = z.object({
  success: z.literal(true),
  status: z.number().int().describe('0 pending, 1 success (paid / cancelled), -1 failure'),
  order: z.number().int().nullable(),
  declined: z.boolean().optional().describe('The provider declined the payment'),
  cancelled: z.boolean().optional().describe('The shopper cancelled the order (PayPal)'),
});

export type OrderInput = z.infer<typeof orderBody>;
export type Recipient = z.infer<typeof recipientSchema>;
export type OrderSummary = z.infer<typeof orderSummarySchema>;
export type OrderDetail = z.infer<typeof orderDetailSchema>;
export type NotRepeatedItem = z.infer<typeof notRepeatedItemSchema>;
export type CurrentOrder = z.infer<typeof currentOrderSchema>;
export type PaymentForm = z.infer<typeof paymentFormSchema>;
