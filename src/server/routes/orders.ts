import { z } from 'zod';
import { localeQuery } from '../../contract/catalog.ts';
import {
  createOrderResponse,
  orderBody,
  orderId,
  orderIdBody,
  orderListResponse,
  orderResponse,
  repeatOrderResponse,
  totalChangedSchema,
} from '../../contract/orders.ts';
import { apiErrorResponse, defineRoute } from '../http/api.ts';
import { requestLocale } from '../http/locale.ts';
import { getOrder, listOrders, repeatOrder } from '../orders/service.ts';
import { placeOrder } from '../requests/checkout-actions.ts';
import type { Services } from '../requests/services.ts';
import { accountActions } from '../requests/session-actions.ts';

/** Placing an order and the order history (spec section 7); signed-in users only. */
export function orderRoutes(services: Services) {
  const { db } = services;
  const user = (request: Parameters<typeof accountActions>[1]) =>
    accountActions(services, request).requireUser();
  return [
    defineRoute({
      method: 'POST',
      url: '/api/order',
      summary:
        'Place an order from the basket; prices and delivery are recomputed, stock reserved; answers the provider form',
      tags: ['orders'],
      body: orderBody,
      response: createOrderResponse,
      compress: false,
      refusals: {
        409: {
          description:
            'The total to charge is not `shownTotal` (or an item is unavailable): nothing is placed; `changed` has the new figures',
          body: apiErrorResponse.extend({ changed: totalChangedSchema.optional() }),
        },
      },
      handler: async ({ body, request }) => ({
        success: true,
        ...(await placeOrder(services, request, (await user(request)).id, body)),
      }),
    }),
    defineRoute({
      method: 'GET',
      url: '/api/order',
      summary: "The signed-in user's orders, newest first",
      tags: ['orders'],
      response: orderListResponse,
      handler: async ({ request }) => ({
        success: true,
        orders: await listOrders(db, (await user(request)).id),
      }),
    }),
    defineRoute({
      method: 'GET',
      url: '/api/order/:id',
      summary: "One of the user's orders with its items (404 for anyone else's)",
      tags: ['orders'],
      params: z.object({ id: orderId }),
      query: localeQuery,
      response: orderResponse,
      handler: async ({ params, query, request }) => ({
        success: true,
        order: await getOrder(
          db,
          (await user(request)).id,
          params.id,
          query.locale ?? requestLocale(request),
        ),
      }),
    }),
    defineRoute({
      method: 'POST',
      url: '/api/order/repeat',
      summary:
        "Put an earlier order's items back in the basket, within stock; answers which were not added in full",
      tags: ['orders'],
      body: orderIdBody,
      response: repeatOrderResponse,
      handler: async ({ body, request }) => {
        const repeated = await repeatOrder(db, (await user(request)).id, body.order, requestLocale(request));
        return { success: true, ...repeated };
      },
    }),
  ];
}
