import { Readable } from 'node:stream';
import { z } from 'zod';
import { doneResponse } from '../../contract/accounts.ts';
import {
  auditQuery,
  categoryDeleteQuery,
  categoryEdit,
  categoryInput,
  idParams,
  orderCsvQuery,
  orderRefund,
  orderSearchQuery,
  orderUpdate,
  productBulkChange,
  productBulkDelete,
  productEdit,
  productInput,
  productListQuery,
  productVariantsSave,
  projectEdit,
  projectInput,
  refundParams,
  searchStatsQuery,
  staffNoteInput,
  stockMovementsQuery,
  synonymInput,
} from '../../contract/admin.ts';
import {
  adminCategoriesResponse,
  adminCategoryResponse,
  adminOrderListResponse,
  adminOrderResponse,
  adminProductListResponse,
  adminProjectResponse,
  adminProjectsResponse,
  auditResponse,
  dashboardResponse,
  orderPaymentsResponse,
  packingSlipResponse,
  productBulkResponse,
  productEditorResponse,
  productVariantsEditorResponse,
  refundCheckResponse,
  refundResponse,
  searchStatsResponse,
  searchSynonymResponse,
  searchSynonymsResponse,
  staffNotesResponse,
  stockMovementsResponse,
} from '../../contract/admin-answers.ts';
import { localeQuery } from '../../contract/catalog.ts';
import { majorToMinor } from '../../contract/money.ts';
import { orderTimelineResponse } from '../../contract/order-timeline.ts';
import { listAudit, recordAudit } from '../audit/audit.ts';
import {
  deleteCategory,
  deleteProduct,
  deleteProject,
  getProductForAdmin,
  listCategoriesForAdmin,
  listProductsForAdmin,
  listProjectsForAdmin,
  lowStock,
  saveCategory,
  saveProduct,
  saveProject,
} from '../catalog/editing.ts';
import { changeProducts } from '../catalog/products-bulk.ts';
import { searchStats } from '../catalog/search-stats.ts';
import { addSynonym, deleteSynonym, listSynonyms } from '../catalog/search-synonyms.ts';
import { stockHistory } from '../catalog/stock.ts';
import { getProductVariantsForAdmin, saveProductVariants } from '../catalog/variant-editing.ts';
import { NotFound } from '../errors.ts';
import { defineRoute } from '../http/api.ts';
import { requestLocale } from '../http/locale.ts';
import { exportOrdersCsv } from '../orders/orders-csv.ts';
import { orderTransactions, refreshRefund, refundOrder } from '../orders/refunds.ts';
import { findOrder } from '../orders/service.ts';
import {
  addOrderNote,
  getOrderForAdmin,
  ordersPerDay,
  ordersToShip,
  packingSlip,
  resendOrderShippedMail,
  searchOrders,
  topProducts,
  updateOrder,
} from '../orders/staff-orders.ts';
import { orderTimeline } from '../orders/timeline.ts';
import type { Services } from '../requests/services.ts';
import { unreadFeedback } from './content.ts';

/**
 * The back office's catalogue, orders, dashboard and audit calls. Every route is staff only (deletions
 * admin only): the API refuses it (401/403) before reading any input.
 */
export function adminRoutes(services: Services) {
  const { db } = services;
  const context = () => ({ publicUrl: services.config.publicUrl, shop: services.mailShop });
  /** A write that shows everywhere (projects, categories, synonyms): done, then every cache is emptied. */
  const write = async <T>(change: Promise<T>) => {
    const result = await change;
    await services.catalog.invalidate();
    return result;
  };
  /**
   * A write to one product: done, then what showed it before and shows it now is dropped (its
   * project or categories may change with it).
   */
  const productWrite = async <T extends { id: number }>(productId: number | null, change: Promise<T>) => {
    // The change runs meanwhile; a refusal it meets is thrown by the await below, never unhandled.
    change.catch(() => undefined);
    const before = productId === null ? [] : await services.catalog.productKeys([productId]);
    const result = await change;
    await services.catalog.productsChanged([result.id], before);
    return result;
  };
  /** A write to an order that may move its stock: done, then what shows its products is dropped. */
  const orderWrite = async <T>(orderId: number, change: Promise<T>) => {
    const result = await change;
    await services.catalog.ordersChanged([orderId]);
    return result;
  };
  const staff = { access: 'manager' as const, tags: ['admin'] };
  /** Deleting data is an admin's call, not a manager's. */
  const adminOnly = { access: 'admin' as const, tags: ['admin'] };

  return [
    defineRoute({
      ...staff,
      method: 'GET',
      url: '/api/admin/projects',
      summary: 'All projects, hidden ones too',
      response: adminProjectsResponse,
      handler: async () => ({ success: true, projects: await listProjectsForAdmin(db, services.storage) }),
    }),
    defineRoute({
      ...staff,
      method: 'POST',
      url: '/api/admin/projects',
      summary: 'Create a project',
      body: projectInput,
      response: adminProjectResponse,
      handler: async ({ body, staffId }) => ({
        success: true,
        project: await write(saveProject(db, services.storage, staffId, body)),
      }),
    }),
    defineRoute({
      ...staff,
      method: 'PATCH',
      url: '/api/admin/projects/:id',
      summary: 'Edit a project; a stale version gets 409',
      params: idParams,
      body: projectEdit,
      response: adminProjectResponse,
      handler: async ({ params, body, staffId }) => ({
        success: true,
        project: await write(
          saveProject(db, services.storage, staffId, body, {
            id: params.id,
            version: body.version,
          }),
        ),
      }),
    }),
    defineRoute({
      ...adminOnly,
      method: 'DELETE',
      url: '/api/admin/projects/:id',
      summary: 'Delete a project without products',
      params: idParams,
      response: doneResponse,
      handler: async ({ params, staffId }) => {
        await write(deleteProject(db, staffId, params.id));
        return { success: true };
      },
    }),
    defineRoute({
      ...staff,
      method: 'GET',
      url: '/api/admin/categories',
      summary: 'All categories, hidden ones too',
      response: adminCategoriesResponse,
      handler: async () => ({ success: true, categories: await listCategoriesForAdmin(db) }),
    }),
    defineRoute({
      ...staff,
      method: 'POST',
      url: '/api/admin/categories',
      summary: 'Create a category',
      body: categoryInput,
      response: adminCategoryResponse,
      handler: async ({ body, staffId }) => ({
        success: true,
        category: await write(saveCategory(db, staffId, body)),
      }),
    }),
    defineRoute({
      ...staff,
      method: 'PATCH',
      url: '/api/admin/categories/:id',
      summary: 'Edit a category; a stale version gets 409',
      params: idParams,
      body: categoryEdit,
      response: adminCategoryResponse,
      handler: async ({ params, body, staffId }) => ({
        success: true,
        category: await write(saveCategory(db, staffId, body, { id: params.id, version: body.version })),
      }),
    }),
    defineRoute({
      ...adminOnly,
      method: 'DELETE',
      url: '/api/admin/categories/:id',
      summary:
        'Delete a category: one with products is refused (409, `products` their number) unless `moveTo` names the category they go to',
      params: idParams,
      query: categoryDeleteQuery,
      response: doneResponse,
      handler: async ({ params, query, staffId }) => {
        await write(deleteCategory(db, staffId, params.id, { moveTo: query.moveTo }));
        return { success: true };
      },
    }),
    defineRoute({
      ...staff,
      method: 'GET',
      url: '/api/admin/products',
      summary:
        'Products with search, filters (project, category, hidden, envisioned, stock low|out), sort and paging; each with its first picture',
      query: productListQuery.extend(localeQuery.shape),
      response: adminProductListResponse,
      handler: async ({ query, request }) => ({
        success: true,
        ...(await listProductsForAdmin(db, { ...query, locale: query.locale ?? requestLocale(request) })),
      }),
    }),
    defineRoute({
      ...staff,
      method: 'POST',
      url: '/api/admin/products/bulk',
      summary:
        'One change to the chosen products (hide, show, project, category, price by percent): all or nothing, 422 naming each refused product',
      body: productBulkChange,
      response: productBulkResponse,
      handler: async ({ body, staffId }) => ({
        success: true,
        ...(await write(changeProducts(db, staffId, body))),
      }),
    }),
    defineRoute({
      ...adminOnly,
      method: 'POST',
      url: '/api/admin/products/bulk-delete',
      summary: 'Delete the chosen products: all, or none when one was ordered (422 naming each)',
      body: productBulkDelete,
      response: productBulkResponse,
      handler: async ({ body, staffId }) => ({
        success: true,
        ...(await write(changeProducts(db, staffId, { action: 'delete', ids: body.ids }))),
      }),
    }),
    defineRoute({
      ...staff,
      method: 'GET',
      url: '/api/admin/products/:id',
      summary: "A product's editable fields",
      params: idParams,
      response: productEditorResponse,
      handler: async ({ params }) => ({ success: true, product: await getProductForAdmin(db, params.id) }),
    }),
    defineRoute({
      ...staff,
      method: 'POST',
      url: '/api/admin/products',
      summary: 'Create a product',
      body: productInput,
      response: productEditorResponse,
      handler: async ({ body, staffId }) => ({
        success: true,
        product: await productWrite(null, saveProduct(db, staffId, body, context())),
      }),
    }),
    defineRoute({
      ...staff,
      method: 'PATCH',
      url: '/api/admin/products/:id',
      summary:
        'Edit a product; quantity adds to stock unless quantityHardset; envisioned → available mails fans',
      params: idParams,
      body: productEdit,
      response: productEditorResponse,
      handler: async ({ params, body, staffId }) => ({
        success: true,
        product: await productWrite(
          params.id,
          saveProduct(db, staffId, body, context(), { id: params.id, version: body.version }),
        ),
      }),
    }),
    defineRoute({
      ...staff,
      method: 'GET',
      url: '/api/admin/products/:id/variants',
      summary: "A product's options (with values) and variants (SKU, price, sale, weight, stock)",
      params: idParams,
      response: productVariantsEditorResponse,
      handler: async ({ params }) => ({
        success: true,
        product: await getProductVariantsForAdmin(db, params.id),
      }),
    }),
    defineRoute({
      ...staff,
      method: 'GET',
      url: '/api/admin/products/:id/stock-movements',
      summary:
        "A product's stock movements (all its variants', or one's), newest first, each with the variant's stock after it",
      params: idParams,
      query: stockMovementsQuery,
      response: stockMovementsResponse,
      handler: async ({ params, query }) => ({
        success: true,
        movements: await stockHistory(
          db,
          params.id,
          query.variant === undefined ? {} : { variantId: query.variant },
        ),
      }),
    }),
    defineRoute({
      ...staff,
      method: 'PATCH',
      url: '/api/admin/products/:id/variants',
      summary:
        "Save a product's options and variants over its version (409 record-changed, sku-taken, variant-ordered)",
      params: idParams,
      body: productVariantsSave,
      response: productVariantsEditorResponse,
      handler: async ({ params, body, staffId }) => ({
        success: true,
        product: await productWrite(
          params.id,
          saveProductVariants(db, staffId, params.id, body, { shop: services.mailShop }),
        ),
      }),
    }),
    defineRoute({
      ...adminOnly,
      method: 'DELETE',
      url: '/api/admin/products/:id',
      summary: 'Delete a product that was never ordered',
      params: idParams,
      response: doneResponse,
      handler: async ({ params, staffId }) => {
        const before = await services.catalog.productKeys([params.id]);
        await deleteProduct(db, staffId, params.id);
        await services.catalog.productsChanged([], before);
        return { success: true };
      },
    }),
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
        order: await orderWrite(
          params.id,
          updateOrder(
            db,
            staffId,
            params.id,
            body,
            query.locale ?? requestLocale(request),
            services.mailShop,
          ),
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
        "Refund all that is left (no amount) or an amount in the order's currency through the provider, putting chosen units back; the full refund cancels the order",
      params: idParams,
      body: orderRefund,
      response: refundResponse,
      handler: async ({ params, body, staffId }) => {
        const actorId = staffId;
        // Units put back in stock show in the shop at once.
        const refund = await orderWrite(
          params.id,
          refundOrder(db, services.config, {
            orderId: params.id,
            // Minor units of the order's currency: the wire amount has at most two decimals.
            ...(body.amount === undefined ? {} : { amountMinor: majorToMinor(body.amount) }),
            restock: body.restock,
            staffId: actorId,
            shop: services.mailShop,
          }),
        );
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
        state: await orderWrite(
          params.id,
          refreshRefund(db, services.config, params, { shop: services.mailShop }),
        ),
      }),
    }),
    defineRoute({
      ...staff,
      method: 'GET',
      url: '/api/admin/dashboard',
      summary:
        'Orders and revenue per day over 30 and 90 days; low-stock variants; paid orders to ship; unread feedback; top products of 30 days',
      response: dashboardResponse,
      query: localeQuery,
      handler: async ({ query, request }) => {
        const locale = query.locale ?? requestLocale(request);
        const [last30, last90, low, toShip, unread, top] = await Promise.all([
          ordersPerDay(db, 30),
          ordersPerDay(db, 90),
          lowStock(db, locale),
          ordersToShip(db),
          unreadFeedback(db),
          topProducts(db, 30, locale),
        ]);
        return {
          success: true,
          last30,
          last90,
          lowStock: low,
          toShip,
          unreadFeedback: unread,
          topProducts: top,
        };
      },
    }),
    defineRoute({
      ...staff,
      method: 'GET',
      url: '/api/admin/audit',
      summary: 'The audit log: who changed what, when, before and after',
      query: auditQuery,
      response: auditResponse,
      handler: async ({ query }) => ({ success: true, ...(await listAudit(db, query)) }),
    }),
    defineRoute({
      ...staff,
      method: 'GET',
      url: '/api/admin/search/synonyms',
      summary: "Search synonyms: a shopper's word that search also reads as another",
      response: searchSynonymsResponse,
      handler: async () => ({ success: true, synonyms: await listSynonyms(db) }),
    }),
    defineRoute({
      ...staff,
      method: 'POST',
      url: '/api/admin/search/synonyms',
      summary: 'Add a search synonym (409 when it is there already)',
      body: synonymInput,
      response: searchSynonymResponse,
      handler: async ({ body, staffId }) => ({
        success: true,
        synonym: await write(addSynonym(db, staffId, body)),
      }),
    }),
    defineRoute({
      ...adminOnly,
      method: 'DELETE',
      url: '/api/admin/search/synonyms/:id',
      summary: 'Remove a search synonym',
      params: idParams,
      response: doneResponse,
      handler: async ({ params, staffId }) => {
        await write(deleteSynonym(db, staffId, params.id));
        return { success: true };
      },
    }),
    defineRoute({
      ...staff,
      method: 'GET',
      url: '/api/admin/search/stats',
      summary: 'The most searched texts and those that found nothing, over the last 7 or 30 days',
      query: searchStatsQuery,
      response: searchStatsResponse,
      handler: async ({ query }) => ({
        success: true,
        ...(await searchStats(db, Number(query.days), new Date())),
      }),
    }),
  ];
}
