import { idParams, orderRefund, refundParams } from '../../contract/admin.ts';
import { orderPaymentsResponse, refundCheckResponse, refundResponse } from '../../contract/admin-answers.ts';
import { majorToMinor } from '../../contract/money.ts';
import { recordAudit } from '../audit/audit.ts';
import { NotFound } from '../errors.ts';
import { defineRoute } from '../http/api.ts';
import { orderTransactions } from '../orders/refunds.ts';
import { findOrder } from '../orders/service.ts';
import type { Services } from '../requests/services.ts';

/**
 * An order's payments and refunds in the back office: what was paid, refunding, checking a refund. Staff
 * only: the API refuses a call (401/403) before reading any input.
 */
export function adminOrderPaymentRoutes(services: Services) {
  const { db, writes } = services;
  const staff = { access: 'manager' as const, tags: ['admin'] };
  return [
    defineRoute({
      ...staff,
      method: 'GET',
      url: '/api/admin/orders/:id/payments',
      summary:
        "An order's payments and refunds, what is left to refund and the units that may go back to stock",
      params: idParams,
      response: orderPaymentsResponse,
      handler: async ({ params }) => {
        const order = await findOrder(db, params.id);
        if (!order) throw new NotFound('not-found', { id: ['not-found'] });
        return { success: true, payments: await orderTransactions(db, order) };
      },
    }),
    defineRoute({
      ...staff,
      method: 'POST',
      url: '/api/admin/orders/:id/refunds',
      summary:
        "Refund all that is left (no amount) or an amount in the order's currency through the provider, putting chosen units back; the full refund cancels the order, so all that is left takes a reason",
      params: idParams,
      body: orderRefund,
      response: refundResponse,
      handler: async ({ params, body, staffId }) => {
        const actorId = staffId;
        // Units put back in stock show in the shop at once.
        const refund = await writes.refundOrder(services.config, {
          orderId: params.id,
          // Minor units of the order's currency: the wire amount has at most two decimals.
          ...(body.amount === undefined ? {} : { amountMinor: majorToMinor(body.amount) }),
          restock: body.restock,
          reason: body.reason,
          staffId: actorId,
          shop: services.mailShop,
        });
        await recordAudit(db, {
          actorId,
          action: 'create',
          entity: 'refund',
          entityId: refund.id,
          after: {
            orderId: params.id,
            amount: refund.amount,
            currency: refund.currency,
            state: refund.providerStatus,
            restock: refund.restock,
            cancelReason: refund.cancelReason,
          },
        });
        return { success: true, refund: { id: refund.id, state: refund.providerStatus } };
      },
    }),
    defineRoute({
      ...staff,
      method: 'POST',
      url: '/api/admin/orders/:id/refunds/:refundId/check',
      summary: "Asks the provider for a pending refund's state; a finished one takes effect",
      params: refundParams,
      response: refundCheckResponse,
      handler: async ({ params }) => ({
        success: true,
        state: await writes.refreshRefund(services.config, params, { shop: services.mailShop }),
      }),
    }),
  ];
}
