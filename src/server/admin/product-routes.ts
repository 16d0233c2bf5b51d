import { doneResponse } from '../../contract/accounts.ts';
import {
  idParams,
  productBulkChange,
  productBulkDelete,
  productEdit,
  productInput,
  productListQuery,
  productVariantsSave,
  stockMovementsQuery,
} from '../../contract/admin.ts';
import {
  adminProductListResponse,
  productBulkResponse,
  productEditorResponse,
  productVariantsEditorResponse,
  stockMovementsResponse,
} from '../../contract/admin-answers.ts';
import { localeQuery } from '../../contract/catalog.ts';
import { getProductForAdmin, listProductsForAdmin } from '../catalog/editing.ts';
import { stockHistory } from '../catalog/stock.ts';
import { getProductVariantsForAdmin } from '../catalog/variant-editing.ts';
import { defineRoute } from '../http/api.ts';
import { requestLocale } from '../http/locale.ts';
import type { Services } from '../requests/services.ts';

/**
 * The back office's products: list, bulk changes, the editor, variants and stock movements. Staff only
 * (deletions admin only): the API refuses a call (401/403) before reading any input.
 */
export function adminProductRoutes(services: Services) {
  const { db, writes } = services;
  const context = () => ({ publicUrl: services.config.publicUrl, shop: services.mailShop });
  const staff = { access: 'manager' as const, tags: ['admin'] };
  /** Deleting data is an admin's call, not a manager's. */
  const adminOnly = { access: 'admin' as const, tags: ['admin'] };
  return [
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
        ...(await writes.changeProducts(staffId, body)),
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
        ...(await writes.changeProducts(staffId, { action: 'delete', ids: body.ids })),
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
        product: await writes.saveProduct(staffId, body, context()),
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
        product: await writes.saveProduct(staffId, body, context(), {
          id: params.id,
          version: body.version,
        }),
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
        product: await writes.saveProductVariants(staffId, params.id, body, {
          shop: services.mailShop,
        }),
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
        await writes.deleteProduct(staffId, params.id);
        return { success: true };
      },
    }),
  ];
}
