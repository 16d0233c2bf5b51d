import { orderId as orderIdSchema, type PaymentForm } from '../../contract/orders.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { Invalid } from '../errors.ts';
import type { MailShop } from '../mail/templates.ts';
import { cancelOrder, findOrder, type OrderRow, paymentAmounts, recordPayment } from '../orders/service.ts';
import { isPaidStatus } from '../orders/status.ts';
import { checkIpnPayment, parseIpn, paypalFormFields, verifyIpn } from '../providers/paypal.ts';
import {
  checkOperationState,
  ROBOKASSA_STATE,
  readFailRedirect,
  resultAnswer,
  robokassaFormFields,
  verifyResultCallback,
  verifySuccessRedirect,
} from '../providers/robokassa.ts';

/**
 * Payments of orders: the provider form the payment step posts, the providers' server-to-server
 * notifications (the only thing that marks an order paid), and the result and cancel pages' checks.
 */

/** Status shown on the result and cancel pages: 0 pending, 1 success, -1 failure. */
export type PageStatus = 0 | 1 | -1;

export function paymentForm(config: Config, order: OrderRow): PaymentForm {
  const amounts = paymentAmounts(order);
  const locale = order.locale === 'en' ? 'en' : 'ru';
  const description = `Shop. Order #${order.id} Invoice`;
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
      }),
    };
  }
  return {
    method: 'paypal',
    url: config.payments.paypal.paymentUrl,
    fields: paypalFormFields(config.payments.paypal, {
      id: order.id,
      locale,
      currency: amounts.currency,
      productsCost: amounts.products,
      shippingCost: amounts.shipping,
      itemName: description,
      email: order.email,
      firstName: order.firstName,
      lastName: order.lastName,
      phone: order.phone,
      country: order.deliveryCountry,
      city: order.deliveryCity,
      address: order.deliveryAddress,
      zip: order.deliveryZip,
      notifyUrl: `${config.publicUrl}/api/paypal/ipn`,
      returnUrl: `${config.publicUrl}/order/result/paypal?order=${order.id}`,
      cancelUrl: `${config.publicUrl}/order/cancel/paypal`,
    }),
  };
}

/** The summary the payment step shows while the form posts itself. */
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
  return { ok: true, answer: resultAnswer(callback.invoiceId) };
}

/**
 * A PayPal IPN, verified by posting it back to PayPal. A network failure throws, so the caller
 * answers 5xx and PayPal sends it again. Only a Completed payment for the right receiver, amount
 * and currency marks the order paid.
 */
export async function handlePaypalIpn(
  db: Database,
  config: Config,
  rawBody: string,
  shop?: MailShop,
): Promise<string> {
  const settings = config.payments.paypal;
  if ((await verifyIpn(settings, rawBody)) !== 'VERIFIED') return 'invalid';
  const { fields } = parseIpn(rawBody);
  const order = /^\d+$/.test(fields.invoice ?? '') ? await findOrder(db, Number(fields.invoice)) : undefined;
  if (!order) return 'unknown invoice';
  const amounts = paymentAmounts(order);
  const check = checkIpnPayment(settings, fields, {
    invoice: String(order.id),
    amount: amounts.total,
    currency: amounts.currency,
  });
  if (check.kind !== 'completed') return check.kind;
  return recordPayment(db, {
    orderId: order.id,
    provider: 'paypal',
    externalId: check.txnId,
    providerStatus: 'Completed',
    amountMinor: check.amountMinor,
    currency: check.currency,
    raw: fields,
    shop,
  });
}

function statusOfOrder(order: OrderRow | undefined): PageStatus {
  if (!order) return -1;
  if (isPaidStatus(order.status)) return 1;
  return order.status === 0 ? 0 : -1;
}

/**
 * The result page's check. The browser's return parameters only say which order it is; the state
 * comes from our database (set by the notification) or, for Robokassa, from its status service.
 * PayPal's return link is not signed, so its order is only reported to the shopper who placed it.
 */
export async function paymentStatus(
  db: Database,
  config: Config,
  provider: 'robokassa' | 'paypal',
  params: Record<string, string>,
  shopperId: number | undefined,
): Promise<{ status: PageStatus; order: number | null }> {
  if (provider === 'paypal') {
    const parsed = orderIdSchema.safeParse(params.order ?? params.invoice);
    const order = parsed.success ? await findOrder(db, parsed.data) : undefined;
    if (!order || shopperId === undefined || order.userId !== shopperId) {
      throw new Invalid('not-found', { order: ['not-found'] });
    }
    return { status: statusOfOrder(order), order: order.id };
  }
  const redirect = verifySuccessRedirect(config.payments.robokassa, params);
  if (!redirect.ok) throw new Invalid('not-found', { order: ['not-found'] });
  const order = await findOrder(db, redirect.invoiceId);
  const status = statusOfOrder(order);
  if (status !== 0 || !order) return { status, order: redirect.invoiceId };
  // The notification may still be on its way: ask Robokassa; a refused payment is a failure.
  try {
    const state = await checkOperationState(config.payments.robokassa, order.id);
    const refused: number[] = [ROBOKASSA_STATE.cancelled, ROBOKASSA_STATE.refused];
    return {
      status: state.stateCode !== undefined && refused.includes(state.stateCode) ? -1 : 0,
      order: order.id,
    };
  } catch {
    return { status: 0, order: order.id };
  }
}

/**
 * The cancel page: the shopper gave up paying. An unpaid order of this user is cancelled and its
 * items go back to the cart; otherwise the answer is cancel-invoice-fail.
 */
export async function cancelPayment(
  db: Database,
  provider: 'robokassa' | 'paypal',
  params: Record<string, string>,
  userId: number | undefined,
  shop?: MailShop,
): Promise<{ status: PageStatus; order: number | null }> {
  const orderId =
    provider === 'paypal'
      ? orderIdSchema.safeParse(params.order).data
      : (() => {
          const redirect = readFailRedirect(params);
          return redirect.ok ? redirect.invoiceId : undefined;
        })();
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
