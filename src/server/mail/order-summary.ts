import type { Locale } from '../../contract/locale.ts';
import { amountsIn, formatMoney, roublesToKopecks } from '../../contract/money.ts';
import type { OrderMailData } from './mail-data.ts';
import type { Block } from './render.ts';
import { DELIVERY_NAMES } from './wording.ts';

/** The order summary several mails share: items, amounts and totals, delivery method and address. */

/**
 * The order's amounts as the shop showed them (ADR 0024): in dollars at the order's rate when it is
 * in dollars and a rate is known, otherwise in roubles; an English order charged in roubles (Robokassa,
 * ADR 0051) with a rate also gets its total in dollars as a guide.
 */
export function orderAmounts(data: OrderMailData, locale: Locale) {
  const lines = data.items.map((item) => ({
    unit: roublesToKopecks(item.price),
    count: item.count,
    discount: roublesToKopecks(item.discount ?? 0),
  }));
  const delivery = roublesToKopecks(data.deliveryCost);
  const amounts =
    (data.currency === 'USD' ? amountsIn('USD', data.usdRate ?? 0, lines, delivery) : null) ??
    amountsIn('RUB', 0, lines, delivery);
  if (!amounts) throw new Error('rouble amounts need no rate');
  const format = (minor: number) => formatMoney(minor, amounts.currency, locale);
  const undiscounted = amountsIn(
    amounts.currency,
    data.usdRate ?? 0,
    lines.map((line) => ({ ...line, discount: 0 })),
  );
  const discount = (undiscounted?.products ?? amounts.products) - amounts.products;
  const dollars =
    amounts.currency === 'RUB' && locale !== 'ru'
      ? amountsIn('USD', data.usdRate ?? 0, lines, delivery)
      : null;
  return {
    discount: discount > 0 ? `−${format(discount)}` : null,
    lines: amounts.lines.map(format),
    products: format(amounts.products),
    delivery: format(amounts.delivery),
    total: format(amounts.total),
    ...(dollars ? { guide: `≈ ${formatMoney(dollars.total, 'USD', locale)}` } : {}),
  };
}

const ORDER_LABELS: Record<
  Locale,
  {
    headings: [string, string, string];
    discount: string;
    products: string;
    delivery: string;
    total: string;
    /** The total in dollars beside a rouble charge. */
    guide: string;
    method: string;
    address: string;
    pickupPoint: string;
    sku: string;
  }
> = {
  ru: {
    headings: ['Товар', 'Кол-во', 'Сумма'],
    discount: 'Скидка по промокоду',
    products: 'Товары',
    delivery: 'Доставка',
    total: 'Итого',
    guide: 'Списано в рублях; в долларах примерно',
    method: 'Способ доставки',
    address: 'Адрес',
    pickupPoint: 'Код пункта выдачи',
    sku: 'артикул',
  },
  en: {
    headings: ['Item', 'Qty', 'Amount'],
    discount: 'Promo code discount',
    products: 'Items',
    delivery: 'Delivery',
    total: 'Total',
    guide: 'Charged in roubles; in dollars, as a guide',
    method: 'Delivery method',
    address: 'Address',
    pickupPoint: 'Pickup point code',
    sku: 'SKU',
  },
};

/** The order's items with their amounts and totals, then its delivery method, address and pickup point. */
export function orderBlocks(
  data: OrderMailData,
  amounts: ReturnType<typeof orderAmounts>,
  locale: Locale,
): Block[] {
  const labels = ORDER_LABELS[locale];
  return [
    {
      kind: 'items',
      headings: labels.headings,
      rows: data.items.map((item, index) => ({
        name: item.name,
        ...(item.variant ? { detail: `${item.variant.options}, ${labels.sku} ${item.variant.sku}` } : {}),
        count: item.count,
        amount: amounts.lines[index] ?? '',
      })),
      totals: [
        ...(amounts.discount ? [[labels.discount, amounts.discount] as [string, string]] : []),
        [labels.products, amounts.products],
        [labels.delivery, amounts.delivery],
        [labels.total, amounts.total],
        ...(amounts.guide ? [[labels.guide, amounts.guide] as [string, string]] : []),
      ],
    },
    {
      kind: 'details',
      rows: [
        [labels.method, DELIVERY_NAMES[locale][data.deliveryMethod]],
        [labels.address, data.address],
        ...(data.pickupPointCode ? [[labels.pickupPoint, data.pickupPointCode] as [string, string]] : []),
      ],
    },
  ];
}
