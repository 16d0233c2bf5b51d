import type { FastifyRequest } from 'fastify';
import type { DeliveryDays, DeliveryMethod } from '../../contract/delivery.ts';
import type { Kopecks } from '../../contract/money.ts';
import type { NotRepeatedItem, Recipient } from '../../contract/orders.ts';

/**
 * What the checkout keeps between its pages, in the visitor's server-side session: the shipping
 * step's choice (method, recipient, the cost quoted for them) for the payment step, the order just
 * placed (whose payment page posts the provider form by itself once), the error of a refused
 * order for the error page, which shows it once, and what a repeated order could not put back in
 * the basket, for the cart page, which shows it once.
 */

export interface CheckoutDraft {
  deliveryMethod: DeliveryMethod;
  recipient: Recipient;
  /** Quoted by the server for this basket and address; the payment step quotes again before ordering. */
  cost: Kopecks;
  days: DeliveryDays | null;
  /** What the cost was quoted for (`quoteFingerprint`): another basket or address is quoted again. */
  quotedFor?: string;
}

/** The spec's order error: a translation key (intlError) or a text to show as it is. */
export interface OrderError {
  intlError: string;
  error: string;
}

declare module 'fastify' {
  interface Session {
    checkoutDraft?: CheckoutDraft;
    orderError?: OrderError;
    /** The order just placed, until its payment page has been shown once. */
    placedOrder?: number;
    /** The items a repeated order did not add in full, until the cart page has shown them. */
    notRepeated?: NotRepeatedItem[];
  }
}

export function checkoutDraft(request: FastifyRequest) {
  return {
    get: (): CheckoutDraft | null => request.session.checkoutDraft ?? null,
    async set(draft: CheckoutDraft) {
      request.session.checkoutDraft = draft;
      await request.session.save();
    },
    async clear() {
      if (request.session.checkoutDraft === undefined) return;
      request.session.checkoutDraft = undefined;
      await request.session.save();
    },
  };
}

/**
 * The order just placed. Its payment page posts the provider form by itself only on its first
 * showing: the browser's way back from the provider (or a reload) shows the order with buttons.
 */
export function placedOrderStore(request: FastifyRequest) {
  return {
    async set(orderId: number) {
      request.session.placedOrder = orderId;
      await request.session.save();
    },
    /** Whether the order was just placed; forgets it, so this answers true once. */
    async take(orderId: number): Promise<boolean> {
      if (request.session.placedOrder !== orderId) return false;
      request.session.placedOrder = undefined;
      await request.session.save();
      return true;
    },
  };
}

export function orderErrorStore(request: FastifyRequest) {
  return {
    peek: (): OrderError | null => request.session.orderError ?? null,
    async set(error: OrderError) {
      request.session.orderError = error;
      await request.session.save();
    },
    /** Reads the error and forgets it: the error page shows it once. */
    async take(): Promise<OrderError | null> {
      const error = request.session.orderError ?? null;
      if (error) {
        request.session.orderError = undefined;
        await request.session.save();
      }
      return error;
    },
  };
}

/** What the last repeated order could not put back in the basket; the cart page tells it once. */
export function notRepeatedStore(request: FastifyRequest) {
  return {
    async set(items: NotRepeatedItem[]) {
      request.session.notRepeated = items.length > 0 ? items : undefined;
      await request.session.save();
    },
    async take(): Promise<NotRepeatedItem[]> {
      const items = request.session.notRepeated ?? [];
      if (items.length > 0) {
        request.session.notRepeated = undefined;
        await request.session.save();
      }
      return items;
    },
  };
}
