import type { Locale } from '../../contract/locale.ts';
import { type OrderDetail, orderId as orderIdSchema, type PaymentForm } from '../../contract/orders.ts';
import type { Config } from '../config.ts';
import type { Database, Executor } from '../db/client.ts';
import { Invalid, NotFound } from '../errors.ts';
import type { MailShop } from '../mail/templates.ts';
import { orderReceipt, type ReceiptLine, recordPaymentReceipt } from '../orders/receipts.ts';
import {
  cancelOrder,
  findOrder,
  getOrder,
  type OrderRow,
  paymentAmounts,
  recordPayment,
} from '../orders/service.ts';
import { isPaidStatus, ORDER_STATUS } from '../orders/status.ts';
import {
  checkOperationState,
  ROBOKASSA_STATE,
  type RobokassaReceipt,
  type RobokassaSettings,
  readFailRedirect,
  resultAnswer,
  robokassaFormFields,
  verifyResultCallback,
  verifySuccessRedirect,
} from '../providers/robokassa.ts';
import { cancelledByShopper } from './cancel.ts';
import { settlePaypalOrder } from './paypal.ts';

/**
 * Payments of orders: the provider form the payment step posts, the providers' server-to-server
 * notifications (the only thing that marks an order paid), and the result and cancel pages' checks.
 */

/** Status shown on the result and cancel pages: 0 pending, 1 success, -1 failure. */
export type PageStatus = 0 | 1 | -1;

/** The invoice's description on the provider's page, in the shopper's language. */
export const invoiceDescription = (orderId: number, locale: 'ru' | 'en') =>
  locale === 'ru' ? `Магазин. Счёт к заказу №${orderId}` : `Shop. Order #${orderId} Invoice`;

/**
 * The provider form of an order; a Robokassa form carries the order's 54-FZ receipt when given
 * (`paymentFormOf` reads it).
 */
export function paymentForm(config: Config, order: OrderRow, receipt?: RobokassaReceipt): PaymentForm {
  const amounts = paymentAmounts(order);
  const locale = order.locale === 'en' ? 'en' : 'ru';
  const description = invoiceDescription(order.id, locale);
  if (order.paymentMethod === 'robokassa') {
    return {
      method: 'robokassa',
      url: config.payments.robokassa.paymentUrl,
      fields: robokassaFormFields(config.payments.robokassa, {
        id: order.id,
        outSum: amounts.total,
        currency: amounts.currency === 'RUB' ? '' : 'USD',
        description,
        expiresAt: order.expiresAt,
        email: order.email,
        culture: locale,
        ...(receipt ? { receipt } : {}),
      }),
    };
  }
  // PayPal's order is created on the server when the shopper presses Pay (checkout/paypal.ts).
  return { method: 'paypal', url: '/order/pay/paypal', fields: { order: String(order.id) } };
}

/**
 * The provider form of an order with its receipt, when it takes one (ADR 0051); `lines` are the
 * order's lines when its placement has them at hand (`PlacedOrder`).
 */
export async function paymentFormOf(
  db: Executor,
  config: Config,
  order: OrderRow,
  lines?: readonly ReceiptLine[],
): Promise<PaymentForm> {
  return paymentForm(config, order, await orderReceipt(db, config.receipts, order, lines));
}

/** An order awaiting payment as the payment and cancel pages show it. */
export interface UnpaidOrder {
  order: OrderDetail;
  /** ISO 8601: after this the order is cancelled and can no longer be paid. */
  expires: string;
  /** The provider form that "Pay now" posts. */
  payment: PaymentForm;
}

/**
 * The user's order if it is still awaiting payment and not past its expiry (null otherwise), with
 * its items and the provider form; anyone else's order is NotFound.
 */
export async function unpaidOrder(
  db: Database,
  config: Config,
  userId: number,
  orderId: number,
  locale: Locale,
  now = new Date(),
): Promise<UnpaidOrder | null> {
  const detail = await getOrder(db, userId, orderId, locale);
  const order = await findOrder(db, orderId);
  if (!order || order.status !== ORDER_STATUS.current || order.expiresAt <= now) return null;
  return {
    order: detail,
    expires: order.expiresAt.toISOString(),
    payment: await paymentFormOf(db, config, order),
  };
}

/** The order a provider's return names: PayPal's `order` (ours), Robokassa's `InvId`. */
export function orderOfReturn(
  provider: 'robokassa' | 'paypal',
  params: Record<string, string>,
): number | undefined {
  if (provider === 'paypal') return orderIdSchema.safeParse(params.order).data;
  const redirect = readFailRedirect(params);
  return redirect.ok ? redirect.invoiceId : undefined;
}

/**
 * Whether Robokassa reports the invoice's payment as declined (OpStateExt: cancelled, or refused and
 * returned). Robokassa that cannot be asked is no answer: false.
 */
export async function robokassaDeclined(
  settings: Pick<RobokassaSettings, 'merchantLogin' | 'password2' | 'hashAlgorithm' | 'opStateUrl'>,
  orderId: number,
): Promise<boolean> {
  try {
    const { stateCode } = await checkOperationState(settings, orderId);
    return stateCode === ROBOKASSA_STATE.cancelled || stateCode === ROBOKASSA_STATE.refused;
  } catch {
    return false;
  }
}

/**
 * What the cancel page shows on arrival (a GET, which never cancels): the user's unpaid order with
 * its confirmation button (status 0), and for Robokassa whether it declined the payment; success
 * when the shopper already cancelled it there; otherwise failure.
 */
export async function cancelPageState(
  db: Database,
  config: Config,
  provider: 'robokassa' | 'paypal',
  params: Record<string, string>,
  userId: number,
  locale: Locale,
): Promise<{ status: PageStatus; order: number | null; unpaid: UnpaidOrder | null; declined: boolean }> {
  const orderId = orderOfReturn(provider, params);
  const refused = { status: -1 as const, order: orderId ?? null, unpaid: null, declined: false };
  if (orderId === undefined) return refused;
  if (await cancelledByShopper(db, orderId, userId)) return { ...refused, status: 1 };
  const unpaid = await unpaidOrder(db, config, userId, orderId, locale).catch((error: unknown) => {
    if (error instanceof NotFound) return null;
    throw error;
  });
  if (!unpaid) return refused;
  const declined = provider === 'robokassa' && (await robokassaDeclined(config.payments.robokassa, orderId));
  return { status: 0, order: orderId, unpaid, declined };
}

/** The order as `POST /api/order` answers it, beside its provider form. */
export function currentOrder(order: OrderRow) {
  const amounts = paymentAmounts(order);
  return {
    id: order.id,
    amount: amounts.total,
    currency: amounts.currency,
    products_cost: amounts.products,
    shipping_cost: amounts.shipping,
    expires: order.expiresAt.toISOString(),
    status: 0,
  };
}

/**
 * Robokassa's ResultURL. Answers the text `OK{InvId}` once the payment is recorded (also for a
 * replay, so Robokassa stops retrying); anything unverifiable or not matching is refused and
 * changes nothing.
 */
export async function handleRobokassaResult(
  db: Database,
  config: Config,
  params: Record<string, unknown>,
  shop?: MailShop,
): Promise<{ ok: true; answer: string } | { ok: false; reason: string }> {
  const callback = verifyResultCallback(config.payments.robokassa, params);
  if (!callback.ok) return { ok: false, reason: callback.reason };
  const order = await findOrder(db, callback.invoiceId);
  if (!order) return { ok: false, reason: 'unknown invoice' };
  const outcome = await recordPayment(db, {
    orderId: order.id,
    provider: 'robokassa',
    externalId: String(callback.invoiceId),
    providerStatus: 'paid',
    amountMinor: callback.amountMinor,
    currency: order.currency,
    raw: Object.fromEntries(Object.entries(params).map(([key, value]) => [key, String(value)])),
    shop,
  });
  if (outcome === 'mismatch') return { ok: false, reason: 'amount does not match the order' };
  // Robokassa registered the form's receipt with the payment: kept for the back office and refunds.
  await recordPaymentReceipt(db, config.receipts, order);
  return { ok: true, answer: resultAnswer(callback.invoiceId) };
}

function statusOfOrder(order: OrderRow | undefined): PageStatus {
  if (!order) return -1;
  if (isPaidStatus(order.status)) return 1;
  return order.status === 0 ? 0 : -1;
}

/**
 * The result page's check. The browser's return parameters only say which order it is; the state
 * comes from our database (set by the notification) or, for Robokassa, from its status service.
 * PayPal's return link is not signed, so its order is only reported to the shopper who placed it;
 * an unpaid one is captured at PayPal now (the return is when PayPal expects it) and paid once the
 * capture is verified. PayPal that cannot be reached leaves it pending: the webhook pays it later.
 */
export async function paymentStatus(
  db: Database,
  config: Config,
  provider: 'robokassa' | 'paypal',
  params: Record<string, string>,
  shopperId: number | undefined,
  shop?: MailShop,
): Promise<{ status: PageStatus; order: number | null; declined?: true; cancelled?: true }> {
  if (provider === 'paypal') {
    const parsed = orderIdSchema.safeParse(params.order);
    const order = parsed.success ? await findOrder(db, parsed.data) : undefined;
    if (!order || shopperId === undefined || order.userId !== shopperId) {
      throw new Invalid('not-found', { order: ['not-found'] });
    }
    // The shopper cancelled it (at PayPal, then here): cancelled, not declined.
    if (order.status === ORDER_STATUS.cancelled) return { status: -1, order: order.id, cancelled: true };
    if (statusOfOrder(order) !== 0) return { status: statusOfOrder(order), order: order.id };
    await settlePaypalOrder(db, config, order, shop).catch(() => 'unreachable');
    return { status: statusOfOrder(await findOrder(db, order.id)), order: order.id };
  }
  const redirect = verifySuccessRedirect(config.payments.robokassa, params);
  if (!redirect.ok) throw new Invalid('not-found', { order: ['not-found'] });
  const order = await findOrder(db, redirect.invoiceId);
  const status = statusOfOrder(order);
  if (status !== 0 || !order) return { status, order: redirect.invoiceId };
  // The notification may still be on its way: ask Robokassa; a declined payment is a failure.
  return (await robokassaDeclined(config.payments.robokassa, order.id))
    ? { status: -1, order: order.id, declined: true }
    : { status: 0, order: order.id };
}

/**
 * The cancel page's confirmation (a POST; the provider's GET return only shows the order): an
 * unpaid order of this user is cancelled and its items go back to the cart; otherwise the answer is
 * cancel-invoice-fail.
 */
export async function cancelPayment(
  db: Database,
  provider: 'robokassa' | 'paypal',
  params: Record<string, string>,
  userId: number | undefined,
  shop?: MailShop,
): Promise<{ status: PageStatus; order: number | null }> {
  const orderId = orderOfReturn(provider, params);
  if (orderId === undefined || userId === undefined) return { status: -1, order: null };
  try {
    await cancelOrder(db, orderId, { reason: 'cancelled', userId, returnToBasket: true, shop });
    return { status: 1, order: orderId };
  } catch (error) {
    if ((error as { intlError?: string }).intlError === 'cancel-invoice-fail')
      return { status: -1, order: orderId };
    throw error;
  }
}
