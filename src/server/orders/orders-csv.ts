import { and, asc, desc, inArray, lt } from 'drizzle-orm';
import { defaultCsvSeparator, type OrderCsvQuery } from '../../contract/admin.ts';
import type { Locale } from '../../contract/locale.ts';
import {
  type Currency,
  centsToKopecks,
  type MinorUnits,
  unitAmount,
  unitPrice,
} from '../../contract/money.ts';
import { type AdminMessageKey, adminTranslator } from '../../web/i18n/admin-messages.ts';
import { orderItemLabel } from '../catalog/variants.ts';
import type { Executor } from '../db/client.ts';
import { orderItems, orders, paymentTransactions } from '../db/schema.ts';
import { CSV_BOM, csvDecimal, csvLine } from '../files/spreadsheet-csv.ts';
import { moneyOf } from './refunds.ts';
import { paymentAmounts } from './service.ts';
import { filterConditions, requireValidPeriod } from './staff-orders.ts';

/**
 * The orders CSV an accountant can trust (ADR 0065). One row per order, texts in the manager's
 * language:
 * - the sums in the currency the order was charged in (a PayPal order in dollars, Robokassa in
 *   roubles; `chargeCurrency`), as the provider was asked for them (`paymentAmounts`), and the same
 *   sums in roubles: the order's own rouble figures, and the dollars paid or refunded at the
 *   order's frozen rate, which has a column of its own;
 * - what was paid and what the provider has refunded, from the payment transactions (`moneyOf`, the
 *   refunds' own reading), so a fully refunded order shows both;
 * - the status by its name, the delivery and payment methods by theirs;
 * - every item: SKU, name, options, quantity × unit price (charged currency, and roubles when that
 *   is dollars);
 * - cells split by the separator the manager chose (`;` by default in Russian, which Russian Excel
 *   splits on, with decimal commas it reads as numbers; `,` with decimal points otherwise), a UTF-8
 *   BOM first, times in the manager's time zone.
 * Read in batches by id (a keyset, not an offset), so the file streams whatever the search finds.
 */

/** Orders read per query of the export: memory stays flat however many the search finds. */
export const ORDER_CSV_BATCH = 500;

/** The columns, by their text: a sum column is written once per currency (charged, then roubles). */
const SUMS = [
  'admin-orders-csv-products',
  'admin-orders-csv-discount',
  'admin-orders-csv-delivery',
  'admin-orders-csv-total',
  'admin-orders-csv-paid',
  'admin-orders-csv-refunded',
] as const satisfies readonly AdminMessageKey[];

type Sums = Record<(typeof SUMS)[number], MinorUnits>;

export function orderCsvHeader(locale: Locale, timeZone: string): string[] {
  const t = adminTranslator(locale);
  return [
    t('admin-order-number'),
    t('admin-orders-csv-date', { zone: timeZone }),
    t('admin-status'),
    t('admin-customer'),
    t('email'),
    t('country'),
    t('delivery-method'),
    t('payment-method'),
    t('admin-orders-csv-currency'),
    ...SUMS.map((column) => t('admin-orders-csv-charged', { column: t(column) })),
    t('admin-orders-csv-rate'),
    ...SUMS.map((column) => t('admin-orders-csv-roubles', { column: t(column) })),
    t('admin-orders-csv-paid-at'),
    t('track-code'),
    t('admin-orders-csv-items'),
  ];
}

/** "2026-03-01 13:05:09" in `timeZone`: a date and time every spreadsheet reads as one. */
function localTime(timeZone: string) {
  const format = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  });
  return (moment: Date) => {
    const part = Object.fromEntries(format.formatToParts(moment).map(({ type, value }) => [type, value]));
    return `${part.year}-${part.month}-${part.day} ${part.hour}:${part.minute}:${part.second}`;
  };
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

export async function* exportOrdersCsv(
  db: Executor,
  query: OrderCsvQuery,
  requestLocale: Locale,
): AsyncGenerator<string> {
  requireValidPeriod(query);
  const locale = query.locale ?? requestLocale;
  const separator = query.separator ?? defaultCsvSeparator(locale);
  const mark = separator === ';' ? ',' : '.';
  const timeZone = query.timeZone ?? 'UTC';
  const t = adminTranslator(locale);
  const time = localTime(timeZone);
  const amount = (minor: MinorUnits) => csvDecimal(minor, mark);
  const line = (cells: string[]) => csvLine(cells, separator);

  yield CSV_BOM + line(orderCsvHeader(locale, timeZone));
  let after: number | undefined;
  for (;;) {
    const rows = await db
      .select()
      .from(orders)
      .where(and(filterConditions(query), after === undefined ? undefined : lt(orders.id, after)))
      .orderBy(desc(orders.id))
      .limit(ORDER_CSV_BATCH);
    if (rows.length === 0) return;
    const ids = rows.map((row) => row.id);
    const [items, transactions] = await Promise.all([
      db
        .select()
        .from(orderItems)
        .where(inArray(orderItems.orderId, ids))
        .orderBy(asc(orderItems.productId), asc(orderItems.sku)),
      db
        .select()
        .from(paymentTransactions)
        .where(inArray(paymentTransactions.orderId, ids))
        .orderBy(asc(paymentTransactions.id)),
    ]);
    yield rows
      .map((order) => {
        const currency: Currency = order.currency;
        const rate = Number(order.usdRate);
        const charged = paymentAmounts(order);
        const money = moneyOf(
          order,
          transactions.filter((row) => row.orderId === order.id),
        );
        const lines = items.filter((item) => item.orderId === order.id);
        const unit = (kopecks: number) => unitAmount(kopecks, currency, rate);
        const undiscounted = lines.reduce((sum, item) => sum + unit(unitPrice(item)) * item.count, 0);
        const inCurrency: Sums = {
          'admin-orders-csv-products': order.productsAmount,
          'admin-orders-csv-discount': undiscounted - order.productsAmount,
          'admin-orders-csv-delivery': charged.totalMinor - order.productsAmount,
          'admin-orders-csv-total': charged.totalMinor,
          'admin-orders-csv-paid': money.paid,
          'admin-orders-csv-refunded': money.finished,
        };
        // The shop's own rouble figures; money moved in dollars at the order's frozen rate.
        const toRoubles = (minor: MinorUnits) => (currency === 'RUB' ? minor : centsToKopecks(minor, rate));
        const inRoubles: Sums = {
          'admin-orders-csv-products': order.productsCost,
          'admin-orders-csv-discount': order.discount,
          'admin-orders-csv-delivery': order.deliveryCost,
          'admin-orders-csv-total': order.productsCost + order.deliveryCost,
          'admin-orders-csv-paid': toRoubles(money.paid),
          'admin-orders-csv-refunded': toRoubles(money.finished),
        };
        const itemsCell = lines
          .map((item) => {
            const price = unitPrice(item);
            const options = orderItemLabel(item.options, locale);
            const name = locale === 'en' ? item.nameEn : item.nameRu;
            const roubles = currency === 'RUB' ? '' : ` (${amount(price)} RUB)`;
            return `${item.sku} ${name}${options ? ` (${options})` : ''}: ${item.count} × ${amount(unit(price))} ${currency}${roubles}`;
          })
          .join('\n');
        return line([
          String(order.id),
          time(order.createdAt),
          capitalized(t(`order-status-${order.status}` as AdminMessageKey)),
          `${order.firstName} ${order.lastName}`,
          order.email,
          order.deliveryCountry,
          t(`delivery-${order.deliveryMethod.replace(/[._]/g, '-')}` as AdminMessageKey),
          t(`payment-${order.paymentMethod}` as AdminMessageKey),
          currency,
          ...SUMS.map((column) => amount(inCurrency[column])),
          currency === 'USD' ? (order.usdRate?.replace('.', mark) ?? '') : '',
          ...SUMS.map((column) => amount(inRoubles[column])),
          order.paidAt ? time(order.paidAt) : '',
          order.trackCode ?? '',
          itemsCell,
        ]);
      })
      .join('');
    const last = rows[rows.length - 1];
    if (!last || rows.length < ORDER_CSV_BATCH) return;
    after = last.id;
  }
}
