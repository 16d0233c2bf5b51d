import { describe, expect, it } from 'vitest';
import { amountsIn, type PricedLine } from '../../contract/money.ts';
import { loadConfig } from '../config.ts';
import type { OrderRow } from '../orders/service.ts';
import { paymentForm } from './payments.ts';

/**
 * What the providers are asked to charge is what the shop showed (ADR 0050): PayPal's amount_1 and
 * shipping_1, and Robokassa's OutSum, equal the products, delivery and total the pages computed.
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

describe('the amount a provider is asked to charge', () => {
  it('is the total the order was shown with: its lines as unit × count plus the delivery', () => {
    const lines = [{ unit: 3494_00, count: 3 }];
    const shown = amountsIn('USD', 91, lines, 300_00);
    const paypal = paymentForm(config, dollarOrder(5, lines, 300_00, '91.0000', 'paypal'));
    const robokassa = paymentForm(config, dollarOrder(5, lines, 300_00, '91.0000', 'robokassa'));
    expect(shown?.total).toBe(11_850);
    expect(paypal.fields).toMatchObject({ amount_1: '115.20', shipping_1: '3.30', currency_code: 'USD' });
    expect(robokassa.fields).toMatchObject({ OutSum: '118.50', OutSumCurrency: 'USD', Culture: 'en' });
  });

  it('equals the shown lines, products and total for many random baskets', () => {
    let seed = 15;
    const random = (below: number) => {
      seed = (Math.imul(seed, 1_664_525) + 1_013_904_223) >>> 0;
      return seed % below;
    };
    for (let basket = 1; basket <= 300; basket += 1) {
      const usdRate = ((60_0000 + random(60_0000)) / 10_000).toFixed(4);
      const lines = Array.from({ length: 1 + random(6) }, () => ({
        unit: 1 + random(300_000),
        count: 1 + random(4),
      }));
      const delivery = 100_00 + random(300_000);
      const shown = amountsIn('USD', Number(usdRate), lines, delivery);
      if (!shown) throw new Error('a rate was given');
      const paypal = paymentForm(config, dollarOrder(basket, lines, delivery, usdRate, 'paypal')).fields;
      const robokassa = paymentForm(
        config,
        dollarOrder(basket, lines, delivery, usdRate, 'robokassa'),
      ).fields;
      expect(dollars(shown.lines.reduce((sum, cents) => sum + cents, 0))).toBe(paypal.amount_1);
      expect(dollars(shown.delivery)).toBe(paypal.shipping_1);
      expect(dollars(shown.total)).toBe(robokassa.OutSum);
    }
  });
});
