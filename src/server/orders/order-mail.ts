import { asc, eq } from 'drizzle-orm';
import { countryName } from '../../contract/countries.ts';
import type { Locale } from '../../contract/locale.ts';
import { kopecksToRoubles, unitPrice } from '../../contract/money.ts';
import { orderItemLabel } from '../catalog/variants.ts';
import type { Executor } from '../db/client.ts';
import { type OrderItemOption, orderItems } from '../db/schema.ts';
import type { OrderMailData } from '../mail/templates.ts';
import type { OrderRow } from './service.ts';

/** An order's items as its mails list them. */
export interface OrderMailItem {
  nameRu: string;
  nameEn: string;
  sku: string;
  options: OrderItemOption[];
  price: number;
  sale: number | null;
  count: number;
  /** Kopecks of the promo discount the line carries. */
  discount: number;
}

/** The order's own language: the shopper's mails are in it. */
export const orderLocale = (order: Pick<OrderRow, 'locale'>): Locale => (order.locale === 'en' ? 'en' : 'ru');

export function orderMailItems(tx: Executor, orderId: number): Promise<OrderMailItem[]> {
  return tx
    .select({
      nameRu: orderItems.nameRu,
      nameEn: orderItems.nameEn,
      sku: orderItems.sku,
      options: orderItems.options,
      price: orderItems.price,
      sale: orderItems.sale,
      count: orderItems.count,
      discount: orderItems.discount,
    })
    .from(orderItems)
    .where(eq(orderItems.orderId, orderId))
    .orderBy(asc(orderItems.productId));
}

/** The order as its mails summarise it, in its currency and in `locale` (by default the order's). */
export function orderMailData(
  order: Pick<
    OrderRow,
    | 'id'
    | 'locale'
    | 'productsCost'
    | 'deliveryCost'
    | 'currency'
    | 'usdRate'
    | 'deliveryMethod'
    | 'deliveryZip'
    | 'deliveryCountry'
    | 'deliveryCity'
    | 'deliveryAddress'
    | 'pickupPointCode'
  >,
  items: readonly OrderMailItem[],
  locale: Locale = orderLocale(order),
): OrderMailData {
  return {
    orderId: order.id,
    items: items.map((item) => {
      const options = orderItemLabel(item.options, locale);
      return {
        name: locale === 'en' ? item.nameEn : item.nameRu,
        ...(options ? { variant: { options, sku: item.sku } } : {}),
        count: item.count,
        price: kopecksToRoubles(unitPrice(item)),
        ...(item.discount > 0 ? { discount: kopecksToRoubles(item.discount) } : {}),
      };
    }),
    productsCost: kopecksToRoubles(order.productsCost),
    deliveryCost: kopecksToRoubles(order.deliveryCost),
    total: kopecksToRoubles(order.productsCost + order.deliveryCost),
    currency: order.currency,
    ...(order.usdRate ? { usdRate: Number(order.usdRate) } : {}),
    deliveryMethod: order.deliveryMethod,
    address: [
      order.deliveryZip,
      countryName(order.deliveryCountry, locale),
      order.deliveryCity,
      order.deliveryAddress,
    ].join(', '),
    ...(order.pickupPointCode ? { pickupPointCode: order.pickupPointCode } : {}),
  };
}
