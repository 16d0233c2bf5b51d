import { randomUUID } from 'node:crypto';
import { and, asc, eq, isNotNull } from 'drizzle-orm';
import { minorToDecimal, minorToMajor, refundEndsOrder, unitAmount } from '../../contract/money.ts';
import { refundCancelReason, statusReason } from '../../contract/status-reasons.ts';
import { releaseStock, type StockItem } from '../catalog/stock.ts';
import type { Config } from '../config.ts';
import type { Database, Executor, Transaction } from '../db/client.ts';
import {
  fiscalReceipts,
  orderItems,
  orderStatusHistory,
  paymentTransactions,
  type ReceiptItem,
} from '../db/schema.ts';
import { Conflict, Invalid, NotFound, Unavailable } from '../errors.ts';
import { queueMail } from '../mail/outbox.ts';
import type { MailShop } from '../mail/templates.ts';
import { PaypalRefusal, refundPaypalCapture } from '../providers/paypal.ts';
import { checkOperationState, checkRobokassaRefund, createRobokassaRefund } from '../providers/robokassa.ts';
import { lockOrder, moveOrderStatus } from './lifecycle.ts';
import { refundReceiptItems, takesReceipts } from './receipts.ts';
import { refundLines } from './refund-amounts.ts';
import { type OrderRow, paymentAmounts } from './service.ts';
import { isPaidStatus, ORDER_STATUS } from './status.ts';

/**
 * Refunds: money sent back to the customer through the provider that took it, recorded as payment
 * transactions of kind 'refund' (ADR 0023). Staff refund all or part of what is left, optionally
 * putting chosen units back in stock; the refund that brings the whole payment back cancels the
 * order (actor 'refund'). Cancelling a paid order means refunding it, so the refund that asks for
 * all that is left takes staff's words of why, as a staff cancellation does (ADR 0066): the status
 * history and the customer's refund mail carry them.
 *
 * A refund takes three steps, so that two staff members can never refund the same money twice and a
 * provider failure leaves nothing behind:
 * 1. under the order's row lock, the amount and the restock are checked against what is left and a
 *    'requested' row reserves them;
 * 2. the provider is asked (no transaction is open while it answers); a refusal or a failure
 *    deletes the reservation and throws;
 * 3. one transaction records the provider's answer and, once the refund is finished, puts the
 *    units back, cancels a fully refunded order and mails the customer in their language. A refund
 *    the provider reports as pending stays recorded and is finished later by `refreshRefund`
 *    (Robokassa's refund state) or by the refund's webhook (PayPal).
 */

export type RefundState = 'requested' | 'pending' | 'finished' | 'canceled';

export interface RefundRequest {
  orderId: number;
  /** Minor units of the order's currency; everything left when omitted. */
  amountMinor?: number;
  /** Units of the order's variants to put back in stock. */
  restock: { variantId: number; count: number }[];
  /** Why the order is cancelled: required when the refund asks for all that is left (`refundEndsOrder`). */
  reason?: string | null;
  staffId: number;
  shop?: MailShop;
  now?: Date;
}

type TransactionRow = typeof paymentTransactions.$inferSelect;

const refundRefused = (field: string, key: string, details?: Record<string, unknown>) =>
  new Invalid(key, { [field]: [key] }, key, details);

async function transactionsOf(tx: Executor, orderId: number): Promise<TransactionRow[]> {
  return tx
    .select()
    .from(paymentTransactions)
    .where(eq(paymentTransactions.orderId, orderId))
    .orderBy(asc(paymentTransactions.id));
}

/**
 * What was paid and refunded, in minor units of the order's currency (`finished`: refunds the
 * provider has completed); `payment` names the payment. The one reading of an order's money.
 */
export function moneyOf(order: Pick<OrderRow, 'currency'>, rows: readonly TransactionRow[]) {
  const counted = rows.filter((row) => row.accepted && row.currency.toUpperCase() === order.currency);
  const payments = counted.filter((row) => row.kind === 'payment');
  const refunds = counted.filter((row) => row.kind === 'refund');
  const paid = payments.reduce((sum, row) => sum + row.amount, 0);
  const refunded = refunds.reduce((sum, row) => sum + row.amount, 0);
  const finished = refunds
    .filter((row) => row.providerStatus === 'finished')
    .reduce((sum, row) => sum + row.amount, 0);
  return { paid, refunded, finished, left: paid - refunded, payment: payments.at(-1), refunds };
}

/**
 * Units each item may still go back to stock: ordered minus what refunds put back or reserved. An
 * order paid after its cancellation without stock (2 → 6) holds no units at all.
 */
async function restockable(tx: Executor, order: OrderRow, refunds: readonly TransactionRow[]) {
  const items = await tx
    .select({ productId: orderItems.productId, variantId: orderItems.variantId, count: orderItems.count })
    .from(orderItems)
    .where(and(eq(orderItems.orderId, order.id), isNotNull(orderItems.variantId)))
    .orderBy(asc(orderItems.productId), asc(orderItems.variantId));
  const history = await tx
    .select({ status: orderStatusHistory.status })
    .from(orderStatusHistory)
    .where(eq(orderStatusHistory.orderId, order.id))
    .orderBy(asc(orderStatusHistory.id));
  const lastCancel = history.map((entry) => entry.status).lastIndexOf(ORDER_STATUS.cancelled);
  const holdsNoStock = lastCancel !== -1 && history[lastCancel + 1]?.status === ORDER_STATUS.special;
  const back = new Map<number, number>();
  for (const refund of refunds) {
    for (const item of refund.restock) back.set(item.variantId, (back.get(item.variantId) ?? 0) + item.count);
  }
  return new Map(
    items.flatMap((item) =>
      item.variantId === null
        ? []
        : [
            [
              item.variantId,
              {
                productId: item.productId,
                variantId: item.variantId,
                count: holdsNoStock ? 0 : Math.max(0, item.count - (back.get(item.variantId) ?? 0)),
              },
            ] as const,
          ],
    ),
  );
}

/** Step 1: checks the request against what is left and reserves it as a 'requested' refund row. */
async function reserveRefund(db: Database, request: RefundRequest) {
  return db.transaction(async (tx) => {
    const order = await lockOrder(tx, request.orderId);
    const rows = await transactionsOf(tx, order.id);
    const money = moneyOf(order, rows);
    if (!isPaidStatus(order.status) || !money.payment || money.left <= 0) {
      throw new Conflict(
        'refund-nothing-to-refund',
        { amount: ['refund-nothing-to-refund'] },
        'refund-nothing-to-refund',
      );
    }
    const amount = request.amountMinor ?? money.left;
    if (!Number.isInteger(amount) || amount <= 0 || amount > money.left) {
      throw refundRefused('amount', 'refund-amount-too-large', { left: minorToDecimal(money.left) });
    }
    const endsOrder = refundEndsOrder(amount, money.left);
    const cancelReason = request.reason?.trim() || null;
    if (endsOrder && !cancelReason) throw refundRefused('reason', 'refund-cancel-reason-required');
    const allowed = await restockable(tx, order, money.refunds);
    const seen = new Set<number>();
    const restock: StockItem[] = [];
    for (const item of request.restock.filter((wanted) => wanted.count > 0)) {
      const left = allowed.get(item.variantId);
      if (!left || seen.has(item.variantId) || item.count > left.count) {
        throw refundRefused('restock', 'refund-restock-too-many');
      }
      seen.add(item.variantId);
      restock.push({ productId: left.productId, variantId: item.variantId, count: item.count });
    }
    const [reserved] = await tx
      .insert(paymentTransactions)
      .values({
        orderId: order.id,
        provider: order.paymentMethod,
        kind: 'refund',
        externalId: `request:${randomUUID()}`,
        providerStatus: 'requested' satisfies RefundState,
        amount,
        currency: order.currency,
        verified: false,
        accepted: true,
        createdBy: request.staffId,
        restock,
        cancelReason: endsOrder ? cancelReason : null,
        raw: {},
      })
      .returning();
    if (!reserved) throw new Error('the refund was not reserved');
    return { order, reserved, payment: money.payment, full: amount === money.paid };
  });
}

type ProviderAnswer =
  | { ok: true; externalId: string; state: 'pending' | 'finished'; raw: Record<string, string> }
  | { ok: false; error: Conflict | Invalid | Unavailable };

/** The provider could not be reached or read: nothing is known to have happened (503). */
const providerFailed = (reason: string) =>
  new Unavailable(
    'refund-provider-failed',
    { amount: ['refund-provider-failed'] },
    'refund-provider-failed',
    {
      reason,
    },
  );

/** Robokassa's refusals we can say in the admin's language (its refund API's messages). */
const ROBOKASSA_REFUSALS: Record<string, string> = {
  NotEnoughOperationFunds: 'refund-robokassa-not-enough-funds',
  OperationNotFound: 'refund-robokassa-operation-not-found',
  AlreadyRefunded: 'refund-robokassa-already-refunded',
  InvalidToken: 'refund-robokassa-invalid-token',
};

/**
 * Robokassa answered no (422): in the admin's language where we know its message, else in
 * Robokassa's own words; `reason` keeps what it said.
 */
function robokassaRefused(reason: string) {
  const message = ROBOKASSA_REFUSALS[reason] ?? `Robokassa: ${reason}`;
  return new Invalid(message, { amount: [message] }, 'refund-provider-refused', { reason });
}

/** The provider answered no (422, with its words in `reason`), e.g. more than it holds of the payment. */
const providerRefused = (reason: string) =>
  new Invalid('refund-provider-refused', { amount: ['refund-provider-refused'] }, 'refund-provider-refused', {
    reason,
  });

/** PayPal's refund of the capture (the payment's external id): a refusal keeps PayPal's words. */
async function askPaypal(
  config: Config,
  order: OrderRow,
  payment: TransactionRow,
  refund: { amount: number; whole: boolean; requestId: string },
): Promise<ProviderAnswer> {
  try {
    const answer = await refundPaypalCapture(
      config.payments.paypal,
      payment.externalId,
      {
        ...(refund.whole ? {} : { amountMinor: refund.amount }),
        currency: order.currency,
        invoiceId: String(order.id),
        note: order.locale === 'en' ? `Refund for order ${order.id}` : `Возврат по заказу ${order.id}`,
      },
      refund.requestId,
    );
    if (answer.status === 'CANCELLED' || answer.status === 'FAILED') {
      return { ok: false, error: providerRefused(`refund ${answer.id} ${answer.status}`) };
    }
    return {
      ok: true,
      externalId: answer.id,
      state: answer.status === 'COMPLETED' ? 'finished' : 'pending',
      raw: { status: answer.status },
    };
  } catch (error) {
    if (error instanceof PaypalRefusal) {
      return { ok: false, error: providerRefused(`${error.issue}: ${error.message}`) };
    }
    throw error;
  }
}

/** Step 2: the provider's refund call. Throws when the provider cannot be reached. */
async function askProvider(
  config: Config,
  order: OrderRow,
  payment: TransactionRow,
  refund: { amount: number; whole: boolean; requestId: string; items?: readonly ReceiptItem[] | undefined },
): Promise<ProviderAnswer> {
  if (order.paymentMethod === 'paypal') return askPaypal(config, order, payment, refund);
  const { amount, items } = refund;
  const settings = config.payments.robokassa;
  const operation = await checkOperationState(settings, order.id);
  if (!operation.opKey) {
    return {
      ok: false,
      error: robokassaRefused(`no OpKey for invoice ${order.id} (Result/Code ${operation.resultCode})`),
    };
  }
  const created = await createRobokassaRefund(settings, {
    opKey: operation.opKey,
    refundSum: amount,
    ...(items ? { items } : {}),
  });
  if (!created.ok) return { ok: false, error: robokassaRefused(created.message) };
  // The creation answers only an id; its state is asked at once, and a refund not known to be
  // finished stays pending until a later check.
  const label = await checkRobokassaRefund(settings, created.requestId).then(
    (state) => state.label,
    () => 'processing' as const,
  );
  if (label === 'canceled') {
    return { ok: false, error: robokassaRefused(`refund ${created.requestId} canceled by Robokassa`) };
  }
  return {
    ok: true,
    externalId: created.requestId,
    state: label === 'finished' ? 'finished' : 'pending',
    raw: { OpKey: operation.opKey, label },
  };
}

/**
 * A finished refund's effects, in the caller's transaction: its units back in stock, the order
 * cancelled when every paid kopeck is back, and the customer's mail in the order's language.
 */
async function applyFinishedRefund(
  tx: Transaction,
  refund: TransactionRow,
  options: { shop?: MailShop; now: Date },
): Promise<void> {
  const order = await lockOrder(tx, refund.orderId as number);
  await releaseStock(tx, refund.restock, options.now, {
    reason: 'refund',
    orderId: order.id,
    ...(refund.createdBy === null ? {} : { actorId: refund.createdBy }),
    ...(options.shop ? { shop: options.shop } : {}),
  });
  const money = moneyOf(order, await transactionsOf(tx, order.id));
  const full = money.finished >= money.paid;
  // The words of the refund that asked for the rest: an earlier refund still pending may finish after it.
  const cancelReason = full ? money.refunds.findLast((row) => row.cancelReason)?.cancelReason : null;
  if (full && order.status !== ORDER_STATUS.cancelled) {
    await moveOrderStatus(tx, order.id, ORDER_STATUS.cancelled, {
      actor: 'refund',
      by: refund.createdBy ?? undefined,
      reason: cancelReason
        ? refundCancelReason(refund.provider, cancelReason)
        : statusReason('refunded', refund.provider),
      shop: options.shop,
      now: options.now,
      restock: [],
    });
  }
  await queueMail(
    tx,
    {
      template: 'order-refunded',
      locale: order.locale === 'en' ? 'en' : 'ru',
      to: order.email,
      data: {
        orderId: order.id,
        amount: minorToMajor(refund.amount),
        currency: paymentAmounts(order).currency,
        full,
        ...(cancelReason ? { note: cancelReason } : {}),
      },
    },
    options.shop,
  );
}

/** Moves a refund row from one state to another; the condition makes a repeated finish a no-op. */
async function setRefundState(
  tx: Executor,
  refundId: number,
  from: RefundState,
  change: Partial<typeof paymentTransactions.$inferInsert> & { providerStatus: RefundState },
  now: Date,
): Promise<TransactionRow | undefined> {
  const [row] = await tx
    .update(paymentTransactions)
    .set({ ...change, updatedAt: now })
    .where(and(eq(paymentTransactions.id, refundId), eq(paymentTransactions.providerStatus, from)))
    .returning();
  return row;
}

/**
 * Refunds all that is left of an order's payment, or `amountMinor` of it, through the provider
 * that took it. Refuses (422) more than is left, more units than may go back or all that is left
 * without a reason, (409) an order with nothing to refund; a refusal asks no provider, and a
 * provider that refuses (422) or cannot be reached (503) leaves nothing recorded.
 */
export async function refundOrder(
  db: Database,
  config: Config,
  request: RefundRequest,
): Promise<TransactionRow> {
  const now = request.now ?? new Date();
  const { order, reserved, payment, full } = await reserveRefund(db, request);
  let answer: ProviderAnswer;
  let items: ReceiptItem[] | undefined;
  try {
    items = takesReceipts(config.receipts, order)
      ? await refundReceiptItems(db, order, reserved.amount, reserved.restock)
      : undefined;
    answer = await askProvider(config, order, payment, {
      amount: reserved.amount,
      whole: full,
      requestId: reserved.externalId,
      items,
    });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    answer = { ok: false, error: providerFailed(reason) };
  }
  if (!answer.ok) {
    await db.delete(paymentTransactions).where(eq(paymentTransactions.id, reserved.id));
    throw answer.error;
  }
  const { externalId, state, raw } = answer;
  return db.transaction(async (tx) => {
    // A refund webhook takes the order's lock too: it sees this refund once committed, or came first
    // and is replaced below; never a refund recorded twice.
    await lockOrder(tx, order.id);
    const recorded = await setRefundState(
      tx,
      reserved.id,
      'requested',
      { externalId, providerStatus: state, verified: true, raw },
      now,
    );
    if (!recorded) throw new Error(`refund ${reserved.id} is no longer requested`);
    if (items) {
      await tx.insert(fiscalReceipts).values({
        orderId: order.id,
        provider: order.paymentMethod,
        purpose: 'refund',
        refundId: recorded.id,
        items,
        total: items.reduce((sum, item) => sum + item.sum, 0),
        state: 'sent',
        externalId,
        createdAt: now,
        updatedAt: now,
      });
    }
    // A refund IPN that outran this transaction was kept as a refund nobody asked for; it is this one.
    await tx
      .delete(paymentTransactions)
      .where(
        and(
          eq(paymentTransactions.kind, 'refund'),
          eq(paymentTransactions.provider, order.paymentMethod),
          eq(paymentTransactions.externalId, externalId),
          eq(paymentTransactions.accepted, false),
        ),
      );
    if (state === 'finished') await applyFinishedRefund(tx, recorded, { shop: request.shop, now });
    return recorded;
  });
}

/**
 * Asks Robokassa for a pending refund's state: finished applies it, canceled releases what it
 * reserved (nothing else had happened), processing changes nothing. Answers the refund's state.
 */
export async function refreshRefund(
  db: Database,
  config: Config,
  which: { id: number; refundId: number },
  options: { shop?: MailShop; now?: Date } = {},
): Promise<RefundState> {
  const now = options.now ?? new Date();
  const [refund] = await db
    .select()
    .from(paymentTransactions)
    .where(and(eq(paymentTransactions.id, which.refundId), eq(paymentTransactions.orderId, which.id)));
  if (refund?.kind !== 'refund') throw new NotFound('not-found', { refund: ['not-found'] });
  if (refund.providerStatus !== 'pending' || refund.provider !== 'robokassa') {
    return refund.providerStatus as RefundState;
  }
  const { label } = await checkRobokassaRefund(config.payments.robokassa, refund.externalId).catch(
    (error) => {
      throw providerFailed(String(error));
    },
  );
  if (label === 'processing') return 'pending';
  return db.transaction(async (tx) => {
    if (label === 'canceled') {
      await setRefundState(tx, refund.id, 'pending', { providerStatus: 'canceled', accepted: false }, now);
      // The refund's receipt went with a refund that will not happen.
      await tx
        .update(fiscalReceipts)
        .set({ state: 'failed', error: 'refund canceled by Robokassa', updatedAt: now })
        .where(eq(fiscalReceipts.refundId, refund.id));
      return 'canceled';
    }
    const finished = await setRefundState(tx, refund.id, 'pending', { providerStatus: 'finished' }, now);
    if (finished) await applyFinishedRefund(tx, finished, { shop: options.shop, now });
    return 'finished';
  });
}

export type RefundNotificationOutcome = 'refund-finished' | 'duplicate' | 'refund-not-asked';

/**
 * A verified PayPal webhook of a refund (PAYMENT.CAPTURE.REFUNDED or REVERSED). It finishes the pending
 * refund it names, repeats nothing for one already finished, and keeps a refund the shop did not
 * ask for (made on PayPal's site, or a reversal) as a not accepted row staff can see. Never a payment.
 */
export async function recordRefundNotification(
  db: Database,
  notification: {
    orderId: number;
    txnId: string;
    status: string;
    amountMinor: number;
    currency: string;
    raw: Record<string, string>;
  },
  options: { shop?: MailShop; now?: Date } = {},
): Promise<RefundNotificationOutcome> {
  const now = options.now ?? new Date();
  return db.transaction(async (tx) => {
    await lockOrder(tx, notification.orderId);
    const known = await tx
      .select()
      .from(paymentTransactions)
      .where(
        and(
          eq(paymentTransactions.provider, 'paypal'),
          eq(paymentTransactions.kind, 'refund'),
          eq(paymentTransactions.externalId, notification.txnId),
        ),
      );
    const asked = known.find((row) => row.accepted);
    if (asked?.providerStatus === 'pending') {
      const finished = await setRefundState(tx, asked.id, 'pending', { providerStatus: 'finished' }, now);
      if (finished) await applyFinishedRefund(tx, finished, { shop: options.shop, now });
      return 'refund-finished';
    }
    if (known.length > 0) return 'duplicate';
    await tx.insert(paymentTransactions).values({
      orderId: notification.orderId,
      provider: 'paypal',
      kind: 'refund',
      externalId: notification.txnId,
      providerStatus: notification.status,
      amount: Math.abs(notification.amountMinor),
      currency: notification.currency,
      verified: true,
      accepted: false,
      raw: notification.raw,
    });
    return 'refund-not-asked';
  });
}

/** An order's payments and refunds as staff see them, newest last. */
export async function orderTransactions(db: Executor, order: OrderRow) {
  const rows = await transactionsOf(db, order.id);
  const money = moneyOf(order, rows);
  const restock = await restockable(db, order, money.refunds);
  return {
    currency: order.currency,
    /** Roubles per dollar fixed in the order (a dollar order's amounts are shown in roubles beside); null for roubles. */
    usdRate: order.currency === 'USD' && order.usdRate !== null ? Number(order.usdRate) : null,
    /** The delivery as charged, in minor units of the order's currency (what refunding it gives back). */
    deliveryMinor: unitAmount(order.deliveryCost, order.currency, Number(order.usdRate ?? 0)),
    /** Each line's price, count, discount and units given back: the refund form's amount (`unitsRefundAmount`). */
    lines: await refundLines(db, order.id),
    paid: minorToDecimal(money.paid),
    refunded: minorToDecimal(money.refunded),
    left: minorToDecimal(money.left),
    restockable: [...restock.values()],
    list: rows.map((row) => ({
      id: row.id,
      kind: row.kind,
      provider: row.provider,
      externalId: row.externalId,
      state: row.providerStatus,
      amount: minorToDecimal(row.amount),
      currency: row.currency,
      accepted: row.accepted,
      restock: row.restock,
      date: row.createdAt.toISOString(),
    })),
  };
}
