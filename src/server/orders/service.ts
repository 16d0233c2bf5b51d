import { and, asc, desc, eq, isNull, lt, sql } from 'drizzle-orm';
import type { Locale } from '../../contract/locale.ts';
import {
  amountsIn,
  type Currency,
  kopecksToRoubles,
  minorToDecimal,
  minorToMajor,
  unitAmount,
  unitPrice,
} from '../../contract/money.ts';
import type {
  NotRepeatedItem,
  OrderDetail,
  OrderInput,
  OrderSummary,
  PaymentMethod,
} from '../../contract/orders.ts';
import { statusReason } from '../../contract/status-reasons.ts';
import { putIntoBasket } from '../cart/service.ts';
import {
  assertWithinKnownLimits,
  dropHoldMinutes,
  productLimit,
  purchaseLimitsOf,
} from '../catalog/drop-rules.ts';
import { productViewColumns, toProductView } from '../catalog/product-view.ts';
import { isOrderable } from '../catalog/release.ts';
import { lockProducts, takeStock, unavailableError } from '../catalog/stock.ts';
import { orderItemLabel, variantOptions, variantPrice, variantSale } from '../catalog/variants.ts';
import type { Database, Executor, Transaction } from '../db/client.ts';
import { preparedOnce } from '../db/prepared.ts';
import {
  basketItems,
  baskets,
  orderItems,
  orderStatusHistory,
  orders,
  paymentTransactions,
  products,
  productVariants,
  projects,
} from '../db/schema.ts';
import { Conflict, Invalid, NotFound } from '../errors.ts';
import { mailWithOrder, orderMailValues, queueMail } from '../mail/outbox.ts';
import type { MailShop } from '../mail/templates.ts';
import { claimPromoUse, clearPromoCode, promoCodeName } from '../promo/service.ts';
import { orderParcels } from '../shipping/tracking.ts';
import {
  ALL_METHODS,
  type OfferedMethods,
  requireDeliveryCost,
  requireOfferedDelivery,
  requireOfferedPayment,
  requirePickupPoint,
  requireShownTotal,
} from './checkout-rules.ts';
import { moveOrderStatus, orderStock } from './lifecycle.ts';
import { orderLocale, orderMailData, orderMailItems } from './order-mail.ts';
import { inPlacementBatch } from './placement-batch.ts';
import type { ReceiptLine } from './receipts.ts';
import { ORDER_STATUS } from './status.ts';

/**
 * Orders: created from the signed-in user's basket with stock reserved atomically, paid only by a
 * verified provider notification, cancelled or expired with the stock released. Status codes are
 * the spec's: 0 current (awaiting payment), 1 in processing (paid), 2 cancelled, 3..6 set by staff.
 */

export type OrderRow = typeof orders.$inferSelect;

/**
 * A placed order, with the products whose stock its placement moved (its own, and those of the
 * unpaid order it replaced): the caches drop them once the transaction has committed; and the
 * lines it wrote, in its receipt's order, unless the order was placed before (a checkout key again).
 */
export type PlacedOrder = OrderRow & { movedProducts: readonly number[]; lines?: readonly ReceiptLine[] };

export interface CheckoutContext {
  /** Delivery cost in kopecks, quoted by the server for this basket and address. */
  deliveryCost: number;
  /** Roubles per dollar now; frozen on the order when it is paid in dollars. */
  usdRate: number;
  /** The shop's unpaid hold; an order of a drop's product holds for the drop's (shorter) time. */
  expiresMinutes: number;
  /** The methods the shop offers (`config.offered`); every method when not given. */
  offered?: OfferedMethods;
  shop?: MailShop;
  clock?: () => Date;
}

/**
 * Amounts to pay, in the order's currency at its frozen rate, as dot-decimal strings and in minor
 * units: the goods as the order recorded them when it was placed (`productsAmount`, the lines of
 * `amountsIn`, ADR 0050) and the delivery converted once: the same figures the shopper was shown.
 */
export function paymentAmounts(
  order: Pick<OrderRow, 'productsAmount' | 'deliveryCost' | 'currency' | 'usdRate'>,
) {
  if (order.currency === 'USD' && !(Number(order.usdRate) > 0)) {
    throw new Error('a dollar order without its rate');
  }
  const delivery = unitAmount(order.deliveryCost, order.currency, Number(order.usdRate));
  return {
    currency: order.currency,
    products: minorToDecimal(order.productsAmount),
    shipping: minorToDecimal(delivery),
    total: minorToDecimal(order.productsAmount + delivery),
    totalMinor: order.productsAmount + delivery,
  };
}

/**
 * The currency an order is charged in, by its payment method: the payment providers' rules, kept
 * here in one place. PayPal charges dollars whatever the language, since it takes no roubles (ADR
 * 0052); Robokassa charges roubles whatever the language: its 54-FZ receipt's sums are roubles and
 * its documentation does not say how they match an invoice in another currency (ADR 0051). A page
 * in the other currency shows that one beside as a guide.
 */
export function chargeCurrency(paymentMethod: OrderRow['paymentMethod']): Currency {
  return paymentMethod === 'paypal' ? 'USD' : 'RUB';
}

/**
 * The basket row locked, the shopper's unpaid order's products and the new order's number, in one
 * round trip (ADR 0077). Built once per connection: a placement batch's orders share it (ADR 0095).
 */
const placementBasket = preparedOnce((db) =>
  db
    .select({
      id: baskets.id,
      promoCodeId: baskets.promoCodeId,
      unpaid: sql<Array<{ id: number; productId: number }>>`(select coalesce(json_agg(json_build_object(
          'id', ${orders.id}, 'productId', ${orderItems.productId})), '[]')
        from ${orders} join ${orderItems} on ${orderItems.orderId} = ${orders.id}
        where ${orders.userId} = ${sql.placeholder('userId')} and ${orders.status} = ${ORDER_STATUS.current}
          and ${orders.paidAt} is null)`,
      orderId: sql<number>`nextval(pg_get_serial_sequence('orders', 'id'))::integer`,
    })
    .from(baskets)
    .where(eq(baskets.userId, sql.placeholder('userId')))
    .for('update', { of: baskets })
    // By name, so that PostgreSQL parses and plans it once per connection (ADR 0089).
    .prepare('place_order_basket'),
);

/** The basket's lines as the order takes them, with what a drop changes (ADR 0041); built once per connection. */
const placementLines = preparedOnce((db) =>
  db
    .select({
      productId: products.id,
      variantId: productVariants.id,
      sku: productVariants.sku,
      options: variantOptions,
      count: basketItems.count,
      nameRu: products.nameRu,
      nameEn: products.nameEn,
      price: variantPrice,
      sale: variantSale,
      quantity: productVariants.quantity,
      vatRate: products.vatRate,
      orderable: sql<boolean>`${isOrderable(sql.placeholder('now'))}`,
      // What a drop changes (ADR 0041), read with the lines rather than after them.
      productLimit,
      variantLimit: productVariants.perCustomerLimit,
      holdMinutes: dropHoldMinutes,
    })
    .from(basketItems)
    .innerJoin(baskets, eq(baskets.id, basketItems.basketId))
    .innerJoin(productVariants, eq(productVariants.id, basketItems.variantId))
    .innerJoin(products, eq(products.id, basketItems.productId))
    .innerJoin(projects, eq(projects.id, products.projectId))
    .where(eq(baskets.userId, sql.placeholder('userId')))
    // As the order's receipt lists its lines (orders/receipts.ts).
    .orderBy(asc(products.id), asc(productVariants.sku), asc(productVariants.id))
    .prepare('place_order_lines'),
);

/** What an order line stores of the basket's line, each a placeholder of `placementWrite`. */
const ORDER_LINE_FIELDS = [
  'productId',
  'variantId',
  'sku',
  'options',
  'nameRu',
  'nameEn',
  'price',
  'sale',
  'count',
  'discount',
  'vatRate',
] as const satisfies ReadonlyArray<keyof typeof orderItems.$inferInsert>;

/** The order's columns the placement writes, each a placeholder of `placementWrite`. */
const ORDER_FIELDS = [
  'userId',
  'locale',
  'email',
  'firstName',
  'lastName',
  'phone',
  'deliveryMethod',
  'deliveryCountry',
  'deliveryCity',
  'deliveryAddress',
  'deliveryZip',
  'pickupPointCode',
  'comment',
  'paymentMethod',
  'productsCost',
  'productsAmount',
  'promoCodeId',
  'discount',
  'deliveryCost',
  'currency',
  'usdRate',
  'status',
  'checkoutKey',
  'expiresAt',
  'createdAt',
  'updatedAt',
] as const satisfies ReadonlyArray<keyof typeof orders.$inferInsert>;

/** A line as `placementWrite` stores it: every field it has a placeholder for, and no other. */
type LineWritten = { orderId: number } & {
  [Field in (typeof ORDER_LINE_FIELDS)[number]]: (typeof orderItems.$inferSelect)[Field];
};
/** The order as `placementWrite` stores it. */
type OrderWritten = { id: number } & {
  [Field in (typeof ORDER_FIELDS)[number]]: (typeof orders.$inferSelect)[Field];
};

const placeholders = <Field extends string>(fields: readonly Field[], prefix = '') =>
  Object.fromEntries(fields.map((field) => [field, sql.placeholder(`${prefix}${field}`)])) as Record<
    Field,
    ReturnType<typeof sql.placeholder>
  >;

/**
 * The order, its lines, its first history row and its mail with the mail's job in one statement,
 * the basket emptied with it. Its text differs only by the number of lines: one statement per
 * number, built with placeholders once per connection (ADR 0095) and named by it, so PostgreSQL
 * plans it once per connection too (ADR 0089).
 */
const placementWrites = new Map<number, ReturnType<typeof buildPlacementWrite>>();
const buildPlacementWrite = (lines: number) =>
  preparedOnce((db) => {
    const orderId = sql.placeholder('orderId');
    const userId = sql.placeholder('userId');
    const now = sql.placeholder('now');
    const orderLines = db.insert(orderItems).values(
      Array.from({ length: lines }, (_, index) => ({
        orderId,
        ...placeholders(ORDER_LINE_FIELDS, `line${index}_`),
      })),
    );
    const history = db.insert(orderStatusHistory).values({
      orderId,
      status: ORDER_STATUS.current,
      reason: sql.placeholder('placedReason'),
      createdAt: now,
    });
    const emptied = db
      .delete(basketItems)
      .where(sql`${basketItems.basketId} in (select id from ${baskets} where ${baskets.userId} = ${userId})`);
    return db
      .with(
        db.$with('lines', {}).as(orderLines.getSQL()),
        db.$with('history', {}).as(history.getSQL()),
        db.$with('emptied', {}).as(emptied.getSQL()),
        ...mailWithOrder(db, orderId),
      )
      .insert(orders)
      .values({ id: orderId, ...placeholders(ORDER_FIELDS) })
      .returning()
      .prepare(`place_order_write_${lines}`);
  });
const placementWrite = (lines: number) => {
  let statement = placementWrites.get(lines);
  if (!statement) {
    statement = buildPlacementWrite(lines);
    placementWrites.set(lines, statement);
  }
  return statement;
};

/**
 * Places an order from the user's basket. Prices come from the database, never the client; every
 * item's stock is taken with a conditional update inside one transaction, so concurrent buyers can
 * never take more than there is. The basket is emptied into the order.
 *
 * One basket, one order: the basket row is locked first, so submits of one basket run one after
 * another; a submit that carries the checkout key of an order already placed and still awaiting
 * payment answers that order. A shopper holds one unpaid order at most: placing a new one cancels
 * the older one and returns its stock (ADR 0021).
 */
export async function createOrder(
  db: Database,
  userId: number,
  input: OrderInput,
  context: CheckoutContext,
): Promise<PlacedOrder> {
  const now = context.clock?.() ?? new Date();
  requireOfferedPayment(input.paymentMethod, context.offered ?? ALL_METHODS);
  requireOfferedDelivery(input.deliveryMethod, context.offered ?? ALL_METHODS);
  const currency = chargeCurrency(input.paymentMethod);
  if (currency === 'USD' && !(context.usdRate > 0)) {
    if (input.paymentMethod === 'paypal') {
      throw new Invalid(
        'paypal-needs-dollar-rate',
        { paymentMethod: ['paypal-needs-dollar-rate'] },
        'paypal-needs-dollar-rate',
      );
    }
    throw new Invalid('invalid-currency-rate', {}, 'invalid-currency-rate');
  }
  requirePickupPoint(input.deliveryMethod, input);
  requireDeliveryCost(context.deliveryCost);
  // Placed with the other orders that arrive meanwhile, in one transaction (ADR 0083).
  return inPlacementBatch(db, async (transaction, stock) => {
    const [basket] = await placementBasket(transaction).execute({ userId });
    const [placed] = input.checkoutKey
      ? await transaction
          .select()
          .from(orders)
          .where(and(eq(orders.userId, userId), eq(orders.checkoutKey, input.checkoutKey)))
      : [];
    if (placed?.status === ORDER_STATUS.current) return { ...placed, movedProducts: [] };

    // No hoarding (ADR 0021), and first: units of the replaced order are free again for this one.
    const unpaid = basket?.unpaid ?? [];
    if (unpaid.length > 0) {
      stock.alone();
      const basketProducts = await transaction
        .select({ productId: basketItems.productId })
        .from(basketItems)
        .innerJoin(baskets, eq(baskets.id, basketItems.basketId))
        .where(eq(baskets.userId, userId));
      await lockProducts(
        transaction,
        [...unpaid, ...basketProducts].map((row) => row.productId),
      );
    }
    for (const orderId of new Set(unpaid.map((row) => row.id))) {
      await moveOrderStatus(transaction, orderId, ORDER_STATUS.cancelled, {
        actor: 'shopper',
        reason: statusReason('replaced'),
        shop: context.shop,
        now,
      });
    }

    const items = await placementLines(transaction).execute({ userId, now: now.toISOString() });
    if (items.length === 0) throw new Invalid('basket-empty', { basket: ['basket-empty'] }, 'basket-empty');
    const unavailable = items
      .filter((item) => !item.orderable || stock.left(item.variantId, item.quantity) < item.count)
      .map((item) => item.productId);
    if (unavailable.length > 0) throw unavailableError(unavailable);

    const holds = items.flatMap((item) => (item.holdMinutes === null ? [] : [Number(item.holdMinutes)]));
    const holdMinutes = holds.length > 0 ? Math.min(...holds) : context.expiresMinutes;

    const goods = items.map((item) => ({
      productId: item.productId,
      unit: unitPrice(item),
      count: item.count,
    }));
    // The basket's promo code, checked again and one use taken under its row lock (ADR 0058).
    const promo = basket?.promoCodeId
      ? await claimPromoUse(transaction, basket.promoCodeId, goods, userId, now)
      : { discount: 0, shares: goods.map(() => 0) };
    const lines = goods.map((line, index) => ({ ...line, discount: promo.shares[index] ?? 0 }));
    const productsCost = lines.reduce((sum, line) => sum + line.unit * line.count - line.discount, 0);
    const amounts = amountsIn(currency, context.usdRate, lines, context.deliveryCost);
    if (!amounts) throw new Invalid('invalid-currency-rate', {}, 'invalid-currency-rate');
    // The page shows the order in the currency its payment method charges (ADR 0051, 0052, 0059).
    requireShownTotal(input.shownTotal, amounts);
    // Without a basket row there are no items: the order is refused above.
    const orderId = basket?.orderId ?? 0;
    // The order, its lines, its first history row and its mail with the mail's job in one statement,
    // the basket emptied with it.
    const written = items.map(
      (item, index): LineWritten => ({
        orderId,
        productId: item.productId,
        variantId: item.variantId,
        sku: item.sku,
        options: item.options,
        nameRu: item.nameRu,
        nameEn: item.nameEn,
        price: item.price,
        sale: item.sale,
        count: item.count,
        discount: promo.shares[index] ?? 0,
        vatRate: item.vatRate,
      }),
    );
    // The order's row as stored: its mail is rendered from it before the statement that writes both.
    const orderRow: OrderWritten = {
      id: orderId,
      userId,
      locale: input.locale,
      email: input.email,
      firstName: input.firstName,
      lastName: input.lastName,
      phone: input.phone,
      deliveryMethod: input.deliveryMethod,
      deliveryCountry: input.country,
      deliveryCity: input.city,
      deliveryAddress: input.address,
      deliveryZip: input.zip,
      // Only a pickup parcel goes to a point: a courier or post office order ignores one sent along.
      pickupPointCode: input.deliveryMethod === 'boxberry' ? (input.pickupPointCode ?? null) : null,
      comment: input.comment ?? null,
      paymentMethod: input.paymentMethod,
      productsCost,
      productsAmount: amounts.products,
      promoCodeId: basket?.promoCodeId ?? null,
      discount: promo.discount,
      deliveryCost: context.deliveryCost,
      currency,
      // Frozen for dollars, and for an English order charged in roubles: its "≈ $x" guide.
      usdRate:
        currency === 'USD' || (input.locale !== 'ru' && context.usdRate > 0)
          ? context.usdRate.toFixed(4)
          : null,
      status: ORDER_STATUS.current,
      // A key already used by an order that is no longer awaiting payment was a stale form.
      checkoutKey: placed ? null : (input.checkoutKey ?? null),
      expiresAt: new Date(now.getTime() + holdMinutes * 60_000),
      createdAt: now,
      updatedAt: now,
    };
    const mail = orderMailValues(
      {
        template: 'order-placed',
        locale: input.locale,
        to: input.email,
        data: orderMailData(orderRow, written),
      },
      context.shop,
    );
    const lineValues = Object.fromEntries(
      written.flatMap((line, index) =>
        ORDER_LINE_FIELDS.map((field) => [`line${index}_${field}`, line[field]] as const),
      ),
    );
    const [order] = await placementWrite(written.length)(transaction).execute({
      ...orderRow,
      orderId,
      ...lineValues,
      placedReason: statusReason('placed'),
      now,
      ...mail,
    });
    if (!order) throw new Error('the order was not stored');
    if (basket?.promoCodeId) await clearPromoCode(transaction, basket.id);
    // The per-customer limits (ADR 0041): the customer's other orders cannot change meanwhile, as
    // their placements wait for the basket row this transaction holds.
    await assertWithinKnownLimits(transaction, { userId }, items, purchaseLimitsOf(items), {
      exceptOrder: order.id,
    });

    // Last, with the batch's last statement just before the commit: the products' rows a drop's
    // buyers all wait for are locked by that one statement and held only until the commit (ADR
    // 0069, 0077, 0083).
    await stock.take(transaction, { orderId: order.id, items, now });
    const movedProducts = new Set([...unpaid, ...items].map((row) => row.productId));
    return { ...order, movedProducts: [...movedProducts], lines: written };
  });
}

export type PaymentOutcome = 'paid' | 'duplicate' | 'already-paid' | 'mismatch' | 'paid-after-cancel';

/**
 * Records a verified payment notification and marks the order paid. Idempotent: the same accepted
 * transaction id and status again changes nothing. An amount or currency that does not match the
 * order is kept for the record as not accepted and changes nothing else, so the genuine
 * notification that follows still pays the order. Money that arrives for a cancelled order takes
 * its units back when every one is still in stock (the order is paid as normal); otherwise the
 * order gets the special status 6 for staff to refund, and no unit is sold twice.
 */
export async function recordPayment(
  db: Database,
  payment: {
    orderId: number;
    provider: PaymentMethod;
    externalId: string;
    providerStatus: string;
    amountMinor: number;
    currency: string;
    raw: Record<string, string>;
    shop?: MailShop;
  },
): Promise<PaymentOutcome> {
  const now = new Date();
  return db.transaction(async (transaction) => {
    const [order] = await transaction
      .select()
      .from(orders)
      .where(eq(orders.id, payment.orderId))
      .for('update');
    const expected = order ? paymentAmounts(order) : undefined;
    const matches =
      expected !== undefined &&
      payment.amountMinor === expected.totalMinor &&
      payment.currency.toUpperCase() === expected.currency;
    const [recorded] = await transaction
      .insert(paymentTransactions)
      .values({
        orderId: order ? order.id : null,
        provider: payment.provider,
        kind: 'payment',
        externalId: payment.externalId,
        providerStatus: payment.providerStatus,
        amount: payment.amountMinor,
        currency: payment.currency,
        verified: true,
        accepted: matches,
        raw: payment.raw,
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing()
      .returning({ id: paymentTransactions.id });
    if (!recorded) return 'duplicate';
    if (!order || !expected) throw new NotFound('not-found', { order: ['not-found'] });
    if (!matches) return 'mismatch';
    if (order.status !== ORDER_STATUS.current && order.status !== ORDER_STATUS.cancelled)
      return 'already-paid';

    const late = order.status === ORDER_STATUS.cancelled;
    const restocked = late && (await takeBackStock(transaction, order.id, now));
    await moveOrderStatus(
      transaction,
      order.id,
      late && !restocked ? ORDER_STATUS.special : ORDER_STATUS.processing,
      {
        actor: 'payment',
        now,
        shop: payment.shop,
        reason: statusReason(
          !late ? 'paid' : restocked ? 'paid-late-restocked' : 'paid-late-out-of-stock',
          payment.provider,
        ),
      },
    );
    await queueMail(
      transaction,
      {
        template: 'payment-received',
        locale: orderLocale(order),
        to: order.email,
        data: orderMailData(order, await orderMailItems(transaction, order.id)),
      },
      payment.shop,
    );
    return late ? 'paid-after-cancel' : 'paid';
  });
}

/**
 * Takes a cancelled order's units back for its late payment: all of them or none (a savepoint
 * undoes a partial take), so a unit sold again meanwhile is never sold twice.
 */
async function takeBackStock(transaction: Transaction, orderId: number, now: Date): Promise<boolean> {
  const items = await orderStock(transaction, orderId);
  try {
    await transaction.transaction((savepoint) =>
      takeStock(savepoint, items, now, { orderableOnly: false, orderId }),
    );
    return true;
  } catch (error) {
    if (error instanceof Conflict) return false;
    throw error;
  }
}

/**
 * The shopper cancels their unpaid order (or the expiry job does): the stock comes back and, when
 * asked, the items return to the owner's basket. An order that is no longer awaiting payment
 * cannot be cancelled (cancel-invoice-fail).
 */
export async function cancelOrder(
  db: Database,
  orderId: number,
  options: {
    reason: 'cancelled' | 'expired';
    userId?: number;
    returnToBasket: boolean;
    shop?: MailShop;
    now?: Date;
  },
): Promise<OrderRow> {
  const cancelFailed = () =>
    new Conflict('cancel-invoice-fail', { order: ['cancel-invoice-fail'] }, 'cancel-invoice-fail');
  return db.transaction(async (transaction) => {
    const [owned] = await transaction
      .select({ status: orders.status, paidAt: orders.paidAt })
      .from(orders)
      .where(
        and(
          eq(orders.id, orderId),
          options.userId === undefined ? undefined : eq(orders.userId, options.userId),
        ),
      )
      .for('update');
    if (!owned || owned.status !== ORDER_STATUS.current || owned.paidAt !== null) throw cancelFailed();
    const order = await moveOrderStatus(transaction, orderId, ORDER_STATUS.cancelled, {
      actor: options.reason === 'expired' ? 'expiry' : 'shopper',
      reason: statusReason(options.reason),
      shop: options.shop,
      now: options.now,
    });
    if (options.returnToBasket && order.userId !== null)
      await putIntoBasket(transaction, { userId: order.userId }, await orderStock(transaction, orderId));
    return order;
  });
}

/**
 * Cancels unpaid orders past their time; safe when several instances run it at once. Answers the
 * ids of the orders it cancelled.
 */
export async function expireOrders(db: Database, now: Date, shop?: MailShop): Promise<number[]> {
  const due = await db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.status, ORDER_STATUS.current), isNull(orders.paidAt), lt(orders.expiresAt, now)))
    .orderBy(asc(orders.id))
    .limit(200);
  const expired: number[] = [];
  for (const { id } of due) {
    try {
      await cancelOrder(db, id, { reason: 'expired', returnToBasket: false, shop, now });
      expired.push(id);
    } catch (error) {
      // Another instance, a payment or the shopper got there first.
      if (!(error instanceof Conflict)) throw error;
    }
  }
  return expired;
}

const toSummary = (order: OrderRow): OrderSummary => ({
  id: order.id,
  date: order.createdAt.toISOString(),
  status: order.status,
  products_cost: kopecksToRoubles(order.productsCost),
  discount: kopecksToRoubles(order.discount),
  products_amount: minorToMajor(order.productsAmount),
  delivery_cost: kopecksToRoubles(order.deliveryCost),
  locale: order.locale,
  currency: order.currency,
  usd_rate: order.usdRate === null ? null : Number(order.usdRate),
  payment_method: order.paymentMethod,
});

export async function listOrders(db: Executor, userId: number): Promise<OrderSummary[]> {
  const rows = await db
    .select()
    .from(orders)
    .where(eq(orders.userId, userId))
    .orderBy(desc(orders.createdAt), desc(orders.id));
  return rows.map(toSummary);
}

/** One of the user's orders; anyone else's answers 404. */
export async function getOrder(
  db: Executor,
  userId: number,
  orderId: number,
  locale: Locale,
  now: Date = new Date(),
): Promise<OrderDetail> {
  const [order] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.id, orderId), eq(orders.userId, userId)));
  if (!order) throw new NotFound('not-found', { order: ['not-found'] });
  const items = await db
    .select({
      ...productViewColumns(locale, now, orderItems.variantId),
      count: orderItems.count,
      orderedPrice: orderItems.price,
      orderedSale: orderItems.sale,
      discount: orderItems.discount,
      orderedName: locale === 'ru' ? orderItems.nameRu : orderItems.nameEn,
      variantId: orderItems.variantId,
      sku: orderItems.sku,
      options: orderItems.options,
    })
    .from(orderItems)
    .innerJoin(products, eq(products.id, orderItems.productId))
    .innerJoin(projects, eq(projects.id, products.projectId))
    .where(eq(orderItems.orderId, orderId))
    .orderBy(asc(orderItems.productId), asc(orderItems.sku));
  return {
    ...toSummary(order),
    products: items.map((item) => ({
      ...toProductView(item),
      // What was paid and called at order time, not today's catalogue.
      name: item.orderedName,
      price: kopecksToRoubles(item.orderedPrice),
      sale: item.orderedSale === null ? null : kopecksToRoubles(item.orderedSale),
      count: item.count,
      discount: kopecksToRoubles(item.discount),
      variant: item.variantId,
      sku: item.sku,
      options: orderItemLabel(item.options, locale),
    })),
    delivery_method: order.deliveryMethod,
    delivery_country: order.deliveryCountry,
    delivery_city: order.deliveryCity,
    delivery_address: order.deliveryAddress,
    delivery_zip: order.deliveryZip,
    track_code: order.trackCode,
    promo_code: order.promoCodeId === null ? null : await promoCodeName(db, order.promoCodeId),
    /** Its parcels and where each is (ADR 0057). */
    parcels: await orderParcels(db, orderId),
  };
}

/**
 * Puts an earlier order's items back in the basket, within stock, and tells which items it could
 * not add in full (named as the order named them, in `locale`): sold out, no longer in the shop,
 * only envisioned, or fewer in stock than ordered (then the basket holds what there is).
 */
export async function repeatOrder(
  db: Database,
  userId: number,
  orderId: number,
  locale: Locale,
): Promise<{ notAdded: NotRepeatedItem[] }> {
  return db.transaction(async (transaction) => {
    const [order] = await transaction
      .select({ id: orders.id })
      .from(orders)
      .where(and(eq(orders.id, orderId), eq(orders.userId, userId)));
    if (!order) throw new NotFound('not-found', { order: ['not-found'] });
    const items = await transaction
      .select({
        productId: orderItems.productId,
        variantId: orderItems.variantId,
        count: orderItems.count,
        name: locale === 'ru' ? orderItems.nameRu : orderItems.nameEn,
        options: orderItems.options,
        // A variant staff deleted since is no longer in the shop.
        visible: sql<boolean>`coalesce(${products.visible} and ${projects.visible} and ${productVariants.id} is not null, false)`,
        envisioned: products.envisioned,
        quantity: productVariants.quantity,
        price: products.price,
      })
      .from(orderItems)
      .leftJoin(productVariants, eq(productVariants.id, orderItems.variantId))
      .leftJoin(products, eq(products.id, orderItems.productId))
      .leftJoin(projects, eq(projects.id, products.projectId))
      .where(eq(orderItems.orderId, orderId))
      .orderBy(asc(orderItems.productId), asc(orderItems.sku));
    const countsBefore = await basketCounts(transaction, userId);
    await putIntoBasket(
      transaction,
      { userId },
      items.flatMap((item) => (item.variantId === null ? [] : [{ ...item, variantId: item.variantId }])),
    );
    const countsAfter = await basketCounts(transaction, userId);
    const notAdded = items.flatMap((item): NotRepeatedItem[] => {
      const added =
        item.variantId === null
          ? 0
          : (countsAfter.get(item.variantId) ?? 0) - (countsBefore.get(item.variantId) ?? 0);
      if (added >= item.count) return [];
      const options = orderItemLabel(item.options, locale);
      const name = options ? `${item.name} (${options})` : item.name;
      const reason: NotRepeatedItem['reason'] = !item.visible
        ? 'hidden'
        : item.envisioned
          ? 'envisioned'
          : (item.quantity ?? 0) <= 0 || (item.price ?? 0) <= 0
            ? 'sold-out'
            : 'limited';
      return [{ id: item.productId, name, reason, ordered: item.count, added }];
    });
    return { notAdded };
  });
}

/** How many of each variant the user's basket holds. */
async function basketCounts(db: Executor, userId: number): Promise<Map<number, number>> {
  const rows = await db
    .select({ variantId: basketItems.variantId, count: basketItems.count })
    .from(basketItems)
    .innerJoin(baskets, eq(baskets.id, basketItems.basketId))
    .where(eq(baskets.userId, userId));
  return new Map(rows.map((row) => [row.variantId, row.count]));
}

/** The user's order placed with this checkout key, while it still awaits payment. */
export async function findUnpaidOrder(
  db: Executor,
  userId: number,
  checkoutKey: string,
): Promise<OrderRow | undefined> {
  const [order] = await db
    .select()
    .from(orders)
    .where(
      and(
        eq(orders.userId, userId),
        eq(orders.checkoutKey, checkoutKey),
        eq(orders.status, ORDER_STATUS.current),
      ),
    );
  return order;
}

/** The order a provider callback names, if it exists. */
export async function findOrder(db: Executor, orderId: number): Promise<OrderRow | undefined> {
  const [order] = await db.select().from(orders).where(eq(orders.id, orderId));
  return order;
}
