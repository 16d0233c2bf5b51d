import { doneResponse } from '../../contract/accounts.ts';
import { dropEdit, dropInput, idParams } from '../../contract/admin.ts';
import { dropEditorResponse, dropListResponse, dropLiveResponse } from '../../contract/admin-answers.ts';
import { localeQuery } from '../../contract/catalog.ts';
import { dropLiveView, getDrop, listDrops } from '../catalog/drops.ts';
import { defineRoute } from '../http/api.ts';
import { requestLocale } from '../http/locale.ts';
import type { Services } from '../requests/services.ts';

/**
 * The back office's drops (issue 20): list, schedule, edit, delete, and the live view. Staff only
 * (deleting: admins only), refused before any input is read. A write empties the storefront's
 * catalogue cache: release times and drop membership change what shoppers may see and order.
 */
export function adminDropRoutes(services: Services) {
  const { db } = services;
  const staff = { access: 'manager' as const, tags: ['admin'] };

  return [
    defineRoute({
      ...staff,
      method: 'GET',
      url: '/api/admin/drops',
      summary: 'Every drop with its state (upcoming, live for 24 hours after its release, past)',
      response: dropListResponse,
      handler: async () => ({ success: true, drops: await listDrops(db, new Date()) }),
    }),
    defineRoute({
      ...staff,
      method: 'GET',
      url: '/api/admin/drops/:id',
      summary: 'A drop with its products',
      params: idParams,
      response: dropEditorResponse,
      handler: async ({ params }) => ({ success: true, drop: await getDrop(db, params.id, new Date()) }),
    }),
    defineRoute({
      ...staff,
      method: 'GET',
      url: '/api/admin/drops/:id/live',
      summary:
        'A drop as it sells: units left, sold and held per product and variant, orders per minute over the last 15 minutes, unpaid holds',
      params: idParams,
      query: localeQuery,
      response: dropLiveResponse,
      handler: async ({ params, query, request }) => ({
        success: true,
        ...(await dropLiveView(db, params.id, query.locale ?? requestLocale(request), new Date())),
      }),
    }),
    defineRoute({
      ...staff,
      method: 'POST',
      url: '/api/admin/drops',
      summary:
        'Schedule a drop with its products (409 product-in-another-drop for a product of another upcoming drop)',
      body: dropInput,
      response: dropEditorResponse,
      handler: async ({ body, staffId }) => ({
        success: true,
        drop: await services.writes.saveDrop(staffId, body, new Date()),
      }),
    }),
    defineRoute({
      ...staff,
      method: 'PATCH',
      url: '/api/admin/drops/:id',
      summary:
        'Edit a drop and the list of its products over its version (409 record-changed, product-in-another-drop)',
      params: idParams,
      body: dropEdit,
      response: dropEditorResponse,
      handler: async ({ params, body, staffId }) => ({
        success: true,
        drop: await services.writes.saveDrop(staffId, body, new Date(), {
          id: params.id,
          version: body.version,
        }),
      }),
    }),
    defineRoute({
      access: 'admin',
      tags: ['admin'],
      method: 'DELETE',
      url: '/api/admin/drops/:id',
      summary: 'Delete a drop; its products stay, out of any drop, keeping their release time',
      params: idParams,
      response: doneResponse,
      handler: async ({ params, staffId }) => {
        await services.writes.deleteDrop(staffId, params.id);
        return { success: true };
      },
    }),
  ];
}
