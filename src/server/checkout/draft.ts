import type { FastifyRequest } from 'fastify';
import type { DeliveryDays, DeliveryMethod } from '../../contract/delivery.ts';
import type { Kopecks } from '../../contract/money.ts';
import type { CurrentOrder, PaymentForm, Recipient } from '../../contract/orders.ts';

/**
 * What the checkout keeps between its pages, in the visitor's server-side session: the shipping
 * step's choice (method, recipient, the cost quoted for them) for the payment step, the provider
 * form of the order just placed (so the page that posts it survives a reload without placing the
 * order twice), and the error of a refused order for the error page, which shows it once.
 */

export interface CheckoutDraft {
  deliveryMethod: DeliveryMethod;
  recipient: Recipient;
  /** Quoted by the server for this basket and address; the payment step quotes again before ordering. */
  cost: Kopecks;
  days: DeliveryDays | null;
}

/** The spec's order error: a translation key (intlError) or a text to show as it is. */
export interface OrderError {
  intlError: string;
  error: string;
}

/** A placed order waiting to be paid: the payment step shows its provider form (also on reload). */
export interface PendingPayment {
  order: CurrentOrder;
  payment: PaymentForm;
}

declare module 'fastify' {
  interface Session {
    checkoutDraft?: CheckoutDraft;
    orderError?: OrderError;
    pendingPayment?: PendingPayment;
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

export function pendingPaymentStore(request: FastifyRequest) {
  return {
    /** The provider form of the last placed order, if it is this order. */
    get: (orderId: number): PendingPayment | null =>
      request.session.pendingPayment?.order.id === orderId ? request.session.pendingPayment : null,
    async set(pending: PendingPayment) {
      request.session.pendingPayment = pending;
      await request.session.save();
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
