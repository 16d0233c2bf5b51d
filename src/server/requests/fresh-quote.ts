import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { DeliveryMethod } from '../../contract/delivery.ts';
import type { Locale } from '../../contract/locale.ts';
import { unitPrice } from '../../contract/money.ts';
import type { Recipient } from '../../contract/orders.ts';
import type { Basket, BasketLine } from '../../contract/shopping.ts';
import type { CheckoutDraft, checkoutDraft } from '../checkout/draft.ts';
import { DomainError, Invalid } from '../errors.ts';
import { quoteForRequest } from './delivery-quote.ts';
import type { Services } from './services.ts';
import { shopperActions } from './shopper-actions.ts';

/**
 * The amount shown is the amount charged (ADR 0059): a delivery quote records what it was for, so
 * the payment step never shows the cost of another basket, address or method.
 */

/** What a quote was for: each basket line with its count and price, the method, the address and pickup point. */
export function quoteFingerprint(
  basket: {
    productList: Basket['productList'];
    products: Record<string, Pick<BasketLine, 'count' | 'price' | 'sale'>>;
  },
  method: DeliveryMethod,
  recipient: Pick<Recipient, 'country' | 'zip' | 'city' | 'address' | 'pickupPointCode'>,
): string {
  const lines = basket.productList
    .map((key) => {
      const line = basket.products[String(key)];
      return `${key}×${line?.count ?? 0}@${line ? unitPrice(line) : 0}`;
    })
    .sort();
  const what = [
    lines,
    method,
    recipient.country,
    recipient.zip,
    recipient.city,
    recipient.address,
    recipient.pickupPointCode ?? '',
  ];
  return createHash('sha256').update(JSON.stringify(what)).digest('base64url');
}

/**
 * The shipping step's draft, quoted for the basket as it is now: when the basket, the address or the
 * method changed since the quote, the delivery is quoted again and the draft kept with the new cost
 * (`requoted` tells whether the cost changed). A basket the carrier can no longer quote (or a
 * carrier that cannot be asked) is `delivery-requote-failed`: the shopper goes back to the delivery
 * step. Null without a draft.
 */
export async function freshDraft(
  services: Services,
  request: FastifyRequest,
  store: ReturnType<typeof checkoutDraft>,
  locale: Locale,
): Promise<{ draft: CheckoutDraft; requoted: boolean } | null> {
  const saved = store.get();
  if (!saved) return null;
  const basket = await shopperActions(services, request).basket.get(locale);
  const quotedFor = quoteFingerprint(basket, saved.deliveryMethod, saved.recipient);
  if (saved.quotedFor === quotedFor) return { draft: saved, requoted: false };
  let quote: Awaited<ReturnType<typeof quoteForRequest>>;
  try {
    quote = await quoteForRequest(services, request, {
      method: saved.deliveryMethod,
      country: saved.recipient.country,
      zip: saved.recipient.zip,
      pickupPointCode: saved.recipient.pickupPointCode,
      locale,
    });
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    // The draft stays: the delivery step shows the recipient as typed and quotes it itself.
    throw new Invalid('delivery-requote-failed', {}, 'delivery-requote-failed');
  }
  const draft: CheckoutDraft = { ...saved, cost: quote.cost, days: quote.days, quotedFor };
  await store.set(draft);
  return { draft, requoted: quote.cost !== saved.cost };
}
