import { describe, expect, it } from 'vitest';
import { amountsIn, type PricedLine } from '../../contract/money.ts';
import { loadConfig } from '../config.ts';
import type { OrderRow } from '../orders/service.ts';
import { paymentForm } from './payments.ts';
import { paypalOrderBody } from './paypal.ts';

/**
 * What the providers are asked to charge is what the shop showed (ADR 0050): PayPal's lines (unit ×
 * quantity), item_total, shipping and total, and Robokassa's OutSum, equal the lines, products,
 * delivery and total the pages computed.
 */

const config = loadConfig({ PUBLIC_URL: 'http://shop.test' });

function dollarOrder(
  id: number,
  lines: PricedLine[],
  delivery: number,
  usdRate: string,
  paymentMethod: string,
) {
  return {
    id,
    locale: 'en',
    currency: 'USD',
    usdRate,
    productsCost: lines.reduce((sum, line) => sum + line.unit * line.count, 0),
    productsAmount: amountsIn('USD', Number(usdRate), lines)?.products,
    deliveryCost: delivery,
    paymentMethod,
    expiresAt: new Date('2026-11-24T12:00:00Z'),
    email: 'anna@example.com',
    firstName: 'Anna',
    lastName: 'Petrova',
    phone: '+7 900 000-00-00',
    deliveryCountry: 'US',
    deliveryCity: 'Boston',
    deliveryAddress: '1 Main St',
    deliveryZip: '02110',
  } as OrderRow;
}

const dollars = (cents: number) => (cents / 100).toFixed(2);

/** PayPal's purchase unit for a dollar order of these lines (orders.paypal: ADR 0052). */
function paypalUnit(order: OrderRow, lines: PricedLine[]) {
  const unit = paypalOrderBody(
    config,
    order,
    lines.map((line, index) => ({
      nameRu: `Товар ${index}`,
      nameEn: `Item ${index}`,
      options: [],
      sku: `SKU-${index}`,
      price: line.unit,
      sale: null,
      count: line.count,
      discount: 0,
    })),
  ).purchase_units[0];
  if (!unit) throw new Error('no purchase unit');
  return unit;
}

describe('the amount a provider is asked to charge', () => {
  it('is the total the order was shown with: its lines as unit × count plus the delivery', () => {
    const lines = [{ unit: 3494_00, count: 3 }];
    const shown = amountsIn('USD', 91, lines, 300_00);
    const paypal = paypalUnit(dollarOrder(5, lines, 300_00, '91.0000', 'paypal'), lines);
    const robokassa = paymentForm(config, dollarOrder(5, lines, 300_00, '91.0000', 'robokassa'));
    expect(shown?.total).toBe(11_850);
    expect(paypal.items).toMatchObject([
      { unit_amount: { currency_code: 'USD', value: '38.40' }, quantity: '3' },
    ]);
    expect(paypal.amount).toMatchObject({
      currency_code: 'USD',
      value: '118.50',
      breakdown: { item_total: { value: '115.20' }, shipping: { value: '3.30' } },
    });
    expect(robokassa.fields).toMatchObject({ OutSum: '118.50', OutSumCurrency: 'USD', Culture: 'en' });
  });

  it('equals the shown lines, products and total for many random baskets', () => {
    let seed = 15;
    const random = (below: number) => {
      seed = (Math.imul(seed, 1_664_525) + 1_013_904_223) >>> 0;
      return seed % below;
    };
    for (let basket = 1; basket <= 1000; basket += 1) {
      const usdRate = ((60_0000 + random(60_0000)) / 10_000).toFixed(4);
      const lines = Array.from({ length: 1 + random(6) }, () => ({
        unit: 1 + random(300_000),
        count: 1 + random(4),
      }));
      const delivery = 100_00 + random(300_000);
      const shown = amountsIn('USD', Number(usdRate), lines, delivery);
      if (!shown) throw new Error('a rate was given');
      const paypal = paypalUnit(dollarOrder(basket, lines, delivery, usdRate, 'paypal'), lines);
      const robokassa = paymentForm(
        config,
        dollarOrder(basket, lines, delivery, usdRate, 'robokassa'),
      ).fields;
      // Each PayPal line is the page's unit × quantity; item_total, shipping and the total the page's.
      paypal.items.forEach((item, index) => {
        expect(item.unit_amount.value).toBe(dollars(shown.units[index] as number));
        expect(item.quantity).toBe(String(lines[index]?.count));
        expect(dollars(Number(item.unit_amount.value.replace('.', '')) * Number(item.quantity))).toBe(
          dollars(shown.lines[index] as number),
        );
      });
      expect(paypal.amount.breakdown.item_total.value).toBe(dollars(shown.products));
      expect(paypal.amount.breakdown.shipping.value).toBe(dollars(shown.delivery));
      expect(paypal.amount.value).toBe(dollars(shown.total));
      expect(dollars(shown.total)).toBe(robokassa.OutSum);
    }
  });
});
