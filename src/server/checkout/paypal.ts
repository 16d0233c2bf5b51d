import { and, asc, eq, isNull, or } from 'drizzle-orm';
import { unitAmount, unitPrice } from '../../contract/money.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { orderItems, orders, paymentTransactions } from '../db/schema.ts';
import { Invalid, NotFound, Unavailable } from '../errors.ts';
import type { MailShop } from '../mail/templates.ts';
import { recordRefundNotification } from '../orders/refunds.ts';
import {
  findOrder,
  type OrderRow,
  type PaymentOutcome,
  paymentAmounts,
  recordPayment,
} from '../orders/service.ts';
import { ORDER_STATUS } from '../orders/status.ts';
import {
  capturePaypalOrder,
  createPaypalOrder,
  type PaypalCapture,
  PaypalRefusal,
  paypalOrderRequest,
  readPaypalEvent,
  verifyPaypalWebhook,
} from '../providers/paypal.ts';

/**
 * PayPal Orders v2 for our orders (ADR 0052): the shop creates PayPal's order on the server from
 * the order's lines (each unit converted once, a line unit × quantity, ADR 0050), sends the shopper
 * to approve it, captures it when they come back or when PayPal's webhook says it was approved, and
 * records a capture as the payment only through `recordPayment`, which checks its amount and
 * currency against the order.
 */

/** The PayPal-Request-Id of an order's creation: a repeated "Pay now" gets the same PayPal order. */
const createRequestId = (order: OrderRow) => `vitrina-${order.id}-${order.createdAt.getTime()}-create`;
const captureRequestId = (paypalOrderId: string) => `vitrina-capture-${paypalOrderId}`;

type OrderLine = Pick<
  typeof orderItems.$inferSelect,
  'nameRu' | 'nameEn' | 'options' | 'sku' | 'price' | 'sale' | 'count' | 'discount'
>;

/**
 * The create-order body of one of our orders and its lines, in its own currency (dollars) at its
 * frozen rate: each line's unit converted once and sent with its quantity (ADR 0050), so PayPal's
 * lines, item_total and total are those the shopper was shown.
 */
export function paypalOrderBody(config: Config, order: OrderRow, lines: readonly OrderLine[]) {
  const rate = Number(order.usdRate);
  const amounts = paymentAmounts(order);
  const locale = order.locale === 'en' ? 'en' : 'ru';
  const items = lines.map((line) => ({
    name: [
      locale === 'en' ? line.nameEn : line.nameRu,
      ...line.options.map((option) => (locale === 'en' ? option.valueEn : option.valueRu)),
    ].join(', '),
    sku: line.sku,
    unitMinor: unitAmount(unitPrice(line), order.currency, rate),
    quantity: line.count,
  }));
  const discountMinor = lines.reduce((sum, line) => sum + unitAmount(line.discount, order.currency, rate), 0);
  const itemTotal = items.reduce((sum, item) => sum + item.unitMinor * item.quantity, 0);
  if (itemTotal - discountMinor !== order.productsAmount) {
    throw new Error(
      `order ${order.id}: its lines make ${itemTotal - discountMinor}, it recorded ${order.productsAmount}`,
    );
  }
  return paypalOrderRequest({
    orderId: order.id,
    currency: amounts.currency,
    locale,
    brandName: 'Vitrina',
    items,
    discountMinor,
    shippingMinor: amounts.totalMinor - order.productsAmount,
    returnUrl: `${config.publicUrl}/order/result/paypal?order=${order.id}`,
    cancelUrl: `${config.publicUrl}/order/cancel/paypal?order=${order.id}`,
  });
}

/** A PayPal refusal (422 with its words kept in the log) or an outage (503). */
function paypalError(error: unknown): Error {
  if (error instanceof PaypalRefusal) {
    return new Invalid('paypal-refused', { paymentMethod: ['paypal-refused'] }, 'paypal-refused', {
      reason: `${error.issue}: ${error.message}`,
    });
  }
  return new Unavailable('paypal-unavailable', {}, 'paypal-unavailable', {
    reason: error instanceof Error ? error.message : String(error),
  });
}

/**
 * "Pay now" with PayPal: creates (or, with the same PayPal-Request-Id, finds again) PayPal's order
 * for the user's unpaid order, keeps its id on the order and answers where the shopper approves it.
 */
export async function startPaypalCheckout(
  db: Database,
  config: Config,
  userId: number,
  orderId: number,
  now = new Date(),
): Promise<string> {
  const order = await findOrder(db, orderId);
  if (!order || order.userId !== userId || order.paymentMethod !== 'paypal') {
    throw new NotFound('not-found', { order: ['not-found'] });
  }
  if (order.status !== ORDER_STATUS.current || order.expiresAt <= now) {
    throw new Invalid('cancel-invoice-fail', { order: ['cancel-invoice-fail'] }, 'cancel-invoice-fail');
  }
  const lines = await db
    .select()
    .from(orderItems)
    .where(eq(orderItems.orderId, order.id))
    .orderBy(asc(orderItems.productId), asc(orderItems.sku));
  const body = paypalOrderBody(config, order, lines);
  const created = await createPaypalOrder(config.payments.paypal, body, createRequestId(order)).catch(
    (error: unknown) => {
      throw paypalError(error);
    },
  );
  if (!created.approveUrl) throw paypalError(new Error(`PayPal order ${created.id} has no approve link`));
  await db
    .update(orders)
    .set({ paypalOrderId: created.id })
    .where(
      and(eq(orders.id, order.id), or(isNull(orders.paypalOrderId), eq(orders.paypalOrderId, created.id))),
    );
  return created.approveUrl;
}

export type PaypalSettlement = PaymentOutcome | 'not-approved' | 'pending' | 'foreign' | 'no-paypal-order';

/** A capture of `order` recorded as its payment; only a COMPLETED one pays, with `recordPayment`'s checks. */
async function recordCapture(
  db: Database,
  order: OrderRow,
  paypalOrderId: string,
  capture: PaypalCapture,
  shop?: MailShop,
): Promise<PaypalSettlement> {
  if (capture.invoiceId !== '' && capture.invoiceId !== String(order.id)) return 'foreign';
  if (capture.status !== 'COMPLETED') return 'pending';
  return recordPayment(db, {
    orderId: order.id,
    provider: 'paypal',
    externalId: capture.id,
    providerStatus: capture.status,
    amountMinor: capture.amountMinor,
    currency: capture.currency,
    raw: {
      order_id: paypalOrderId,
      capture_id: capture.id,
      status: capture.status,
      invoice_id: capture.invoiceId,
    },
    shop,
  });
}

/**
 * Captures the PayPal order of one of our orders (idempotent: PayPal-Request-Id, and an order
 * captured before is read) and records its capture. An order the shopper has not approved is left
 * as it is.
 */
export async function settlePaypalOrder(
  db: Database,
  config: Config,
  order: OrderRow,
  shop?: MailShop,
): Promise<PaypalSettlement> {
  const paypalOrderId = order.paypalOrderId;
  if (!paypalOrderId) return 'no-paypal-order';
  let captured: Awaited<ReturnType<typeof capturePaypalOrder>>;
  try {
    captured = await capturePaypalOrder(
      config.payments.paypal,
      paypalOrderId,
      captureRequestId(paypalOrderId),
    );
  } catch (error) {
    if (error instanceof PaypalRefusal && error.issue === 'ORDER_NOT_APPROVED') return 'not-approved';
    throw error;
  }
  if (captured.invoiceId !== String(order.id)) return 'foreign';
  const capture = captured.captures[0];
  return capture ? recordCapture(db, order, paypalOrderId, capture, shop) : 'pending';
}

/** The order PayPal's order id belongs to. */
async function orderOfPaypal(db: Database, paypalOrderId: string): Promise<OrderRow | undefined> {
  if (!paypalOrderId) return undefined;
  const [order] = await db.select().from(orders).where(eq(orders.paypalOrderId, paypalOrderId));
  return order;
}

/** The order a capture was recorded for. */
async function orderOfCapture(db: Database, captureId: string): Promise<OrderRow | undefined> {
  const [payment] = await db
    .select({ orderId: paymentTransactions.orderId })
    .from(paymentTransactions)
    .where(
      and(
        eq(paymentTransactions.provider, 'paypal'),
        eq(paymentTransactions.kind, 'payment'),
        eq(paymentTransactions.externalId, captureId),
      ),
    );
  return payment?.orderId ? findOrder(db, payment.orderId) : undefined;
}

/**
 * `POST /api/paypal/webhook`. Verified first with PayPal's verify-webhook-signature (an outage
 * throws, so the caller answers 5xx and PayPal sends it again); an unverified one is 'invalid' and
 * changes nothing. CHECKOUT.ORDER.APPROVED captures the order (the shopper may never come back),
 * PAYMENT.CAPTURE.COMPLETED records the capture, REFUNDED and REVERSED are refunds (never payments).
 * Replays are no-ops: payments and refunds are kept once per PayPal id.
 */
export async function handlePaypalWebhook(
  db: Database,
  config: Config,
  headers: Readonly<Record<string, string | string[] | undefined>>,
  rawBody: string,
  shop?: MailShop,
): Promise<string> {
  if (!(await verifyPaypalWebhook(config.payments.paypal, headers, rawBody))) return 'invalid';
  const event = readPaypalEvent(rawBody);
  if (event.kind === 'approved') {
    const order = await orderOfPaypal(db, event.orderId);
    return order ? settlePaypalOrder(db, config, order, shop) : 'unknown order';
  }
  if (event.kind === 'capture') {
    const order = await orderOfPaypal(db, event.orderId);
    if (!order) return 'unknown order';
    if (event.type !== 'PAYMENT.CAPTURE.COMPLETED') return event.type;
    return recordCapture(db, order, event.orderId, event.capture, shop);
  }
  if (event.kind === 'refund') {
    const order = await orderOfCapture(db, event.captureId);
    if (!order) return 'unknown capture';
    return recordRefundNotification(
      db,
      {
        orderId: order.id,
        txnId: event.refundId,
        status: event.type === 'PAYMENT.CAPTURE.REVERSED' ? 'REVERSED' : event.status,
        amountMinor: event.amountMinor,
        currency: event.currency,
        raw: {
          event_id: event.eventId,
          event_type: event.type,
          capture_id: event.captureId,
          status: event.status,
        },
      },
      { shop },
    );
  }
  return event.type;
}
