import { Readable } from 'node:stream';
import { z } from 'zod';
import {
  idParams,
  orderCsvQuery,
  orderSearchQuery,
  orderUpdate,
  staffNoteInput,
} from '../../contract/admin.ts';
import {
  adminOrderListResponse,
  adminOrderResponse,
  packingSlipResponse,
  staffNotesResponse,
} from '../../contract/admin-answers.ts';
import { localeQuery } from '../../contract/catalog.ts';
import { orderTimelineResponse } from '../../contract/order-timeline.ts';
import { defineRoute } from '../http/api.ts';
import { requestLocale } from '../http/locale.ts';
import { exportOrdersCsv } from '../orders/orders-csv.ts';
import {
  addOrderNote,
  getOrderForAdmin,
  packingSlip,
  resendOrderShippedMail,
  searchOrders,
} from '../orders/staff-orders.ts';
import { orderTimeline } from '../orders/timeline.ts';
import type { Services } from '../requests/services.ts';

/**
 * The back office's orders: search, CSV export, the order, its timeline, edits, notes, packing slip and
 * shipped mail. Staff only: the API refuses a call (401/403) before reading any input.
 */
export function adminOrderRoutes(services: Services) {
  const { db, writes } = services;
  const staff = { access: 'manager' as const, tags: ['admin'] };
  return [
    defineRoute({
      ...staff,
      method: 'GET',
      url: '/api/admin/orders',
      summary:
        "Order search (status: 'action' paid orders to handle (1, 3, 4, 6; the default), '' any, >2 any paid, 0..6) with paging and counts per status",
      query: orderSearchQuery,
      response: adminOrderListResponse,
      handler: async ({ query }) => ({ success: true, ...(await searchOrders(db, query)) }),
    }),
    defineRoute({
      ...staff,
      method: 'GET',
      url: '/api/admin/orders.csv',
      summary:
        "The orders a search finds, as CSV for accounting (UTF-8 with a BOM), streamed: sums in the currency charged and in roubles with the rate, paid and refunded, status names and items in `locale`, cells split by `separator` (';' with decimal commas, ',' with points; the locale's by default), times in `timeZone`",
      query: orderCsvQuery,
      response: z.string(),
      handler: async ({ query, request, reply }) => {
        const csv = exportOrdersCsv(db, query, requestLocale(request));
        // A refused query (a period ending before it starts) is answered as an error, not a file.
        const first = await csv.next();
        return reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', 'attachment; filename="orders.csv"')
          .send(
            Readable.from(
              (async function* () {
                if (!first.done) yield first.value;
                yield* csv;
              })(),
            ),
          );
      },
    }),
    defineRoute({
      ...staff,
      method: 'GET',
      url: '/api/admin/orders/:id',
      summary: 'An order with customer, delivery, items and status history',
      params: idParams,
      query: localeQuery,
      response: adminOrderResponse,
      handler: async ({ params, query, request }) => ({
        success: true,
        order: await getOrderForAdmin(db, params.id, query.locale ?? requestLocale(request)),
      }),
    }),
    defineRoute({
      ...staff,
      method: 'GET',
      url: '/api/admin/orders/:id/timeline',
      summary:
        "The order's timeline, oldest first: status moves with who made them, notes, payments, refunds, mails, stock movements, parcels and their tracking events",
      params: idParams,
      response: orderTimelineResponse,
      handler: async ({ params }) => ({ success: true, timeline: await orderTimeline(db, params.id) }),
    }),
    defineRoute({
      ...staff,
      method: 'PATCH',
      url: '/api/admin/orders/:id',
      summary:
        'Saves the fields sent (track code, actual delivery cost, status) over the version named, and a manager comment as a new staff note; shipped with a track code mails the customer once',
      params: idParams,
      query: localeQuery,
      body: orderUpdate,
      response: adminOrderResponse,
      handler: async ({ params, query, body, request, staffId }) => ({
        success: true,
        // A cancellation puts the order's units back.
        order: await writes.updateOrder(
          staffId,
          params.id,
          body,
          query.locale ?? requestLocale(request),
          services.mailShop,
        ),
      }),
    }),
    defineRoute({
      ...staff,
      method: 'POST',
      url: '/api/admin/orders/:id/notes',
      summary: 'Adds a staff note to the order; answers every note, oldest first',
      params: idParams,
      body: staffNoteInput,
      response: staffNotesResponse,
      handler: async ({ params, body, staffId }) => ({
        success: true,
        notes: await addOrderNote(db, staffId, params.id, body.body),
      }),
    }),
    defineRoute({
      ...staff,
      method: 'GET',
      url: '/api/admin/orders/:id/packing-slip',
      summary:
        "What the order's packing slip prints: number, date, ship-to, items with SKU, options and count",
      params: idParams,
      query: localeQuery,
      response: packingSlipResponse,
      handler: async ({ params, query, request }) => ({
        success: true,
        shop: { email: services.mailShop.email },
        slip: await packingSlip(db, params.id, query.locale ?? requestLocale(request)),
      }),
    }),
    defineRoute({
      ...staff,
      method: 'POST',
      url: '/api/admin/orders/:id/shipped-mail',
      summary: 'Sends the shipped mail again (a shipped order with a track code)',
      params: idParams,
      query: localeQuery,
      response: adminOrderResponse,
      handler: async ({ params, query, request, staffId }) => ({
        success: true,
        order: await resendOrderShippedMail(
          db,
          staffId,
          params.id,
          query.locale ?? requestLocale(request),
          services.mailShop,
        ),
      }),
    }),
  ];
}
