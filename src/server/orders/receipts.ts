import { and, asc, eq, ne } from 'drizzle-orm';
import { unitPrice } from '../../contract/money.ts';
import type { Config, ReceiptSettings } from '../config.ts';
import type { Database, Executor } from '../db/client.ts';
import { fiscalReceipts, type OrderItemOption, orderItems, orders, type ReceiptItem } from '../db/schema.ts';
import { enqueue, type JobHandler } from '../jobs/queue.ts';
import {
  attachSecondReceipt,
  ROBOKASSA_RECEIPT_NAME_MAX,
  ROBOKASSA_TAXES,
  type RobokassaReceipt,
} from '../providers/robokassa.ts';

/**
 * 54-FZ receipts of Robokassa orders (ADR 0051). One function builds an order's receipt from its
 * frozen items (each line's sum after its discount, its VAT code) and its delivery; the receipt goes
 * with the payment form, is stored once the payment arrives, and is the base of the refunds'
 * receipts and of the second (`full_payment`) receipt registered when a prepaid order ships.
 * Receipts are in roubles: Robokassa orders are charged in roubles (`chargeCurrency`).
 */

type OrderRow = typeof orders.$inferSelect;

export interface ReceiptLine {
  nameRu: string;
  options: readonly OrderItemOption[];
  price: number;
  sale: number | null;
  count: number;
  /** Kopecks off the whole line. */
  discount: number;
  vatRate: string | null;
  variantId?: number | null;
}

export const DELIVERY_RECEIPT_NAME = 'Доставка';

const TAXES: readonly string[] = ROBOKASSA_TAXES;

/** "Худи, Размер: L", cut to Robokassa's 128 characters with an ellipsis. */
export function receiptItemName(nameRu: string, options: readonly OrderItemOption[]): string {
  const label = options.map((option) => `${option.nameRu}: ${option.valueRu}`).join(', ');
  const name = (label ? `${nameRu.trim()}, ${label}` : nameRu.trim()).replace(/\s+/g, ' ');
  return name.length <= ROBOKASSA_RECEIPT_NAME_MAX
    ? name
    : `${name.slice(0, ROBOKASSA_RECEIPT_NAME_MAX - 1)}…`;
}

/**
 * The receipt of an order: one item per line (its count, its sum after its discount, its frozen
 * VAT code or the shop's), then the delivery as a service line. Every sum is whole kopecks, so the
 * items add up to the order's total exactly.
 */
export function buildReceipt(
  settings: Pick<ReceiptSettings, 'sno' | 'vat' | 'prepayment'>,
  lines: readonly ReceiptLine[],
  deliveryCost: number,
): RobokassaReceipt & { items: ReceiptItem[] } {
  const paymentMethod = settings.prepayment ? 'full_prepayment' : 'full_payment';
  const items: ReceiptItem[] = lines.map((line) => ({
    name: receiptItemName(line.nameRu, line.options),
    quantity: line.count,
    sum: unitPrice(line) * line.count - line.discount,
    tax: line.vatRate && TAXES.includes(line.vatRate) ? line.vatRate : settings.vat,
    paymentMethod,
    paymentObject: 'commodity',
  }));
  if (deliveryCost > 0) {
    items.push({
      name: DELIVERY_RECEIPT_NAME,
      quantity: 1,
      sum: deliveryCost,
      tax: settings.vat,
      paymentMethod,
      paymentObject: 'service',
    });
  }
  return settings.sno ? { sno: settings.sno, items } : { items };
}

async function receiptLines(db: Executor, orderId: number): Promise<ReceiptLine[]> {
  return db
    .select({
      nameRu: orderItems.nameRu,
      options: orderItems.options,
      price: orderItems.price,
      sale: orderItems.sale,
      count: orderItems.count,
      discount: orderItems.discount,
      vatRate: orderItems.vatRate,
      variantId: orderItems.variantId,
    })
    .from(orderItems)
    .where(eq(orderItems.orderId, orderId))
    .orderBy(asc(orderItems.productId), asc(orderItems.sku));
}

/** Whether an order's payments carry receipts: Robokassa, in roubles, with receipts switched on. */
export const takesReceipts = (settings: ReceiptSettings, order: OrderRow): boolean =>
  settings.enabled && order.paymentMethod === 'robokassa' && order.currency === 'RUB';

/**
 * The receipt that goes with an order's payment form, or undefined when it takes none: from its
 * lines as stored, or as its placement has just written them (`lines`, in the same order). Throws
 * when the items would not add up to the amount charged (they always do for an order placed in
 * roubles).
 */
export async function orderReceipt(
  db: Executor,
  settings: ReceiptSettings,
  order: OrderRow,
  lines?: readonly ReceiptLine[],
): Promise<(RobokassaReceipt & { items: ReceiptItem[] }) | undefined> {
  if (!takesReceipts(settings, order)) return undefined;
  const receipt = buildReceipt(settings, lines ?? (await receiptLines(db, order.id)), order.deliveryCost);
  const total = receipt.items.reduce((sum, item) => sum + item.sum, 0);
  if (total !== order.productsAmount + order.deliveryCost) {
    throw new Error(`order ${order.id}: its receipt adds up to ${total}, not its total`);
  }
  return receipt;
}

/** Keeps the receipt Robokassa registered with the payment (once per order). */
export async function recordPaymentReceipt(db: Executor, settings: ReceiptSettings, order: OrderRow) {
  const receipt = await orderReceipt(db, settings, order);
  if (!receipt) return;
  await db
    .insert(fiscalReceipts)
    .values({
      orderId: order.id,
      provider: 'robokassa',
      purpose: 'payment',
      sno: receipt.sno ?? null,
      items: receipt.items,
      total: receipt.items.reduce((sum, item) => sum + item.sum, 0),
      state: 'sent',
      externalId: String(order.id),
    })
    .onConflictDoNothing();
}

type FiscalReceiptRow = typeof fiscalReceipts.$inferSelect;

async function paymentReceiptOf(db: Executor, orderId: number): Promise<FiscalReceiptRow | undefined> {
  const [row] = await db
    .select()
    .from(fiscalReceipts)
    .where(and(eq(fiscalReceipts.orderId, orderId), eq(fiscalReceipts.purpose, 'payment')));
  return row;
}

/**
 * The refunded lines of a refund of `amount` kopecks: the units put back in stock first (their
 * share of their line), then the rest of the amount over what is left of the lines in order, the
 * delivery last. What earlier refunds took of a line is not taken again (a refund Robokassa cancelled
 * took nothing). Undefined when the order's
 * payment registered no receipt.
 */
export async function refundReceiptItems(
  db: Executor,
  order: OrderRow,
  amount: number,
  restock: readonly { variantId: number; count: number }[],
): Promise<ReceiptItem[] | undefined> {
  const payment = await paymentReceiptOf(db, order.id);
  if (!payment) return undefined;
  const refunded = await db
    .select({ items: fiscalReceipts.items })
    .from(fiscalReceipts)
    .where(
      and(
        eq(fiscalReceipts.orderId, order.id),
        eq(fiscalReceipts.purpose, 'refund'),
        ne(fiscalReceipts.state, 'failed'),
      ),
    );
  const taken = new Map<string, number>();
  for (const row of refunded) {
    for (const item of row.items) taken.set(item.name, (taken.get(item.name) ?? 0) + item.sum);
  }
  const lines = await receiptLines(db, order.id);
  const left = payment.items.map((item) => item.sum - (taken.get(item.name) ?? 0));
  const parts = new Map<number, { quantity: number; sum: number }>();
  let rest = amount;
  const take = (index: number, sum: number, quantity: number) => {
    const part = Math.min(sum, left[index] ?? 0, rest);
    if (part <= 0) return;
    left[index] = (left[index] ?? 0) - part;
    rest -= part;
    const before = parts.get(index);
    parts.set(index, { quantity: before ? before.quantity : quantity, sum: (before?.sum ?? 0) + part });
  };
  for (const back of restock) {
    const index = lines.findIndex((line) => line.variantId === back.variantId);
    const item = payment.items[index];
    if (index === -1 || !item) continue;
    take(index, Math.floor((item.sum * back.count) / item.quantity), back.count);
  }
  payment.items.forEach((item, index) => {
    const whole = left[index] === item.sum;
    take(index, left[index] ?? 0, whole && rest >= item.sum ? item.quantity : 1);
  });
  return [...parts]
    .sort(([a], [b]) => a - b)
    .flatMap(([index, part]) => {
      const item = payment.items[index];
      return item ? [{ ...item, quantity: part.quantity, sum: part.sum }] : [];
    });
}

/** Queue kind of the job that registers a shipped order's second receipt. */
export const SETTLEMENT_RECEIPT_JOB = 'receipts.settle';
const SETTLEMENT_ATTEMPTS = 8;

/**
 * When a prepaid order ships (in the shipping move's transaction): its second receipt, the payment
 * receipt's items as `full_payment`, stored as pending with the job that registers it.
 */
export async function queueSettlementReceipt(tx: Executor, orderId: number, now: Date): Promise<void> {
  const payment = await paymentReceiptOf(tx, orderId);
  if (!payment?.items.some((item) => item.paymentMethod === 'full_prepayment')) return;
  const [settlement] = await tx
    .insert(fiscalReceipts)
    .values({
      orderId,
      provider: payment.provider,
      purpose: 'settlement',
      sno: payment.sno,
      items: payment.items.map((item) => ({ ...item, paymentMethod: 'full_payment' })),
      total: payment.total,
      state: 'pending',
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing()
    .returning({ id: fiscalReceipts.id });
  if (!settlement) return;
  await enqueue(
    tx,
    SETTLEMENT_RECEIPT_JOB,
    { receiptId: settlement.id },
    { uniqueKey: `receipt-settlement:${settlement.id}`, maxAttempts: SETTLEMENT_ATTEMPTS },
  );
}

/** A second receipt's own number: above every InvId Robokassa allows, so it never names an invoice. */
export const settlementReceiptNumber = (receiptId: number) => 2_147_483_648 + receiptId;

/**
 * Registers a pending second receipt through Robokassa. Accepted: `sent` (`registered` when
 * RoboFiscal says so at once); refused: `failed` with Robokassa's reason; no answer: the error is
 * kept and the job retried, `failed` after the last attempt.
 */
export function settlementReceiptHandler(options: {
  db: Database;
  config: Pick<Config, 'payments' | 'publicUrl'>;
}): JobHandler {
  const { db, config } = options;
  return async (payload, context) => {
    const receiptId = Number(payload.receiptId);
    const [row] = await db.select().from(fiscalReceipts).where(eq(fiscalReceipts.id, receiptId));
    if (row?.state !== 'pending') return;
    const [order] = await db.select().from(orders).where(eq(orders.id, row.orderId));
    if (!order) return;
    const settle = (change: Partial<FiscalReceiptRow>) =>
      db
        .update(fiscalReceipts)
        .set({ ...change, updatedAt: context.now })
        .where(and(eq(fiscalReceipts.id, row.id), eq(fiscalReceipts.state, 'pending')));
    let answer: Awaited<ReturnType<typeof attachSecondReceipt>>;
    try {
      answer = await attachSecondReceipt(config.payments.robokassa, {
        id: settlementReceiptNumber(row.id),
        originId: order.id,
        ...(row.sno ? { sno: row.sno } : {}),
        url: config.publicUrl,
        items: row.items,
        email: order.email,
        phone: order.phone.replace(/\D/g, ''),
      });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const last = context.attempt >= context.maxAttempts;
      await settle(last ? { state: 'failed', error: message } : { error: message });
      if (!last) throw error;
      return;
    }
    if (!answer.ok) {
      await settle({ state: 'failed', error: answer.message });
      return;
    }
    await settle({
      state: answer.code === '2' ? 'registered' : 'sent',
      externalId: answer.opKey ?? String(settlementReceiptNumber(row.id)),
      error: null,
    });
  };
}

/** An order's receipts as staff see them, oldest first. */
export async function orderReceipts(db: Executor, orderId: number) {
  const rows = await db
    .select()
    .from(fiscalReceipts)
    .where(eq(fiscalReceipts.orderId, orderId))
    .orderBy(asc(fiscalReceipts.id));
  return rows.map((row) => ({
    id: row.id,
    purpose: row.purpose,
    sno: row.sno,
    items: row.items,
    total: row.total,
    state: row.state,
    error: row.error,
    date: row.createdAt.toISOString(),
  }));
}
