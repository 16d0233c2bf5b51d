import { type AnyColumn, and, asc, eq, sql } from 'drizzle-orm';
import {
  type CustomsData,
  type customsFields,
  missingCustoms,
  needsCustoms,
} from '../../contract/customs.ts';
import { type Currency, type Kopecks, type MinorUnits, unitAmount, unitPrice } from '../../contract/money.ts';
import type { Executor } from '../db/client.ts';
import { orderItems, products, productVariants } from '../db/schema.ts';
import { Conflict } from '../errors.ts';

/**
 * The customs declaration of an order's items (CN23; ADR 0057): each item's data is its variant's
 * where the variant sets it, else its product's. An order leaving the EAEU may be marked ready to
 * ship, or handed to a carrier, only when every item has all of it.
 */

export interface CustomsItem extends CustomsData {
  productId: number;
  sku: string;
  nameRu: string;
  nameEn: string;
  count: number;
  /** The line as charged: unit × count less its discount, in kopecks and in the order's currency. */
  valueKopecks: Kopecks;
  value: MinorUnits;
  /** What the item still lacks, by wire field name; empty when it is complete. */
  missing: Array<keyof typeof customsFields>;
}

const variantFirst = <T>(variant: AnyColumn, product: AnyColumn) =>
  sql<T | null>`coalesce(${variant}, ${product})`;

/** Every item of the order with its resolved customs data and value, in the order page's order. */
export async function orderCustomsItems(
  db: Executor,
  order: { id: number; currency: Currency; usdRate: string | null },
): Promise<CustomsItem[]> {
  const rows = await db
    .select({
      productId: orderItems.productId,
      sku: orderItems.sku,
      nameRu: orderItems.nameRu,
      nameEn: orderItems.nameEn,
      count: orderItems.count,
      price: orderItems.price,
      sale: orderItems.sale,
      discount: orderItems.discount,
      hsCode: variantFirst<string>(productVariants.hsCode, products.hsCode),
      originCountry: variantFirst<string>(productVariants.originCountry, products.originCountry),
      customsDescription: variantFirst<string>(
        productVariants.customsDescription,
        products.customsDescription,
      ),
      netWeight: variantFirst<number>(productVariants.netWeight, products.netWeight),
    })
    .from(orderItems)
    .innerJoin(products, eq(products.id, orderItems.productId))
    .leftJoin(
      productVariants,
      and(eq(productVariants.id, orderItems.variantId), eq(productVariants.productId, orderItems.productId)),
    )
    .where(eq(orderItems.orderId, order.id))
    .orderBy(asc(orderItems.productId), asc(orderItems.sku));
  const rate = Number(order.usdRate ?? 0);
  return rows.map((row) => {
    const unit = unitPrice(row);
    const data: CustomsData = {
      hsCode: row.hsCode,
      originCountry: row.originCountry,
      customsDescription: row.customsDescription,
      netWeight: row.netWeight === null ? null : Number(row.netWeight),
    };
    return {
      productId: row.productId,
      sku: row.sku,
      nameRu: row.nameRu,
      nameEn: row.nameEn,
      count: row.count,
      ...data,
      valueKopecks: unit * row.count - row.discount,
      value:
        unitAmount(unit, order.currency, rate) * row.count - unitAmount(row.discount, order.currency, rate),
      missing: missingCustoms(data),
    };
  });
}

/** The 409 that names the items lacking customs data and what each lacks. */
export const customsMissing = (items: readonly CustomsItem[]) =>
  new Conflict('customs-data-missing', { status: ['customs-data-missing'] }, 'customs-data-missing', {
    items: items.filter((item) => item.missing.length > 0).map(({ sku, missing }) => ({ sku, missing })),
  });

/** Refuses (409 customs-data-missing) an order abroad whose items lack customs data. */
export async function assertCustomsComplete(
  db: Executor,
  order: { id: number; deliveryCountry: string; currency: Currency; usdRate: string | null },
): Promise<void> {
  if (!needsCustoms(order.deliveryCountry)) return;
  const items = await orderCustomsItems(db, order);
  if (items.some((item) => item.missing.length > 0)) throw customsMissing(items);
}
