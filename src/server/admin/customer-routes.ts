import { Readable } from 'node:stream';
import { z } from 'zod';
import {
  customerBlock,
  customersExportQuery,
  customersQuery,
  idParams,
  staffNoteInput,
} from '../../contract/admin.ts';
import {
  customerBlockResponse,
  customerListResponse,
  customerResponse,
  staffNotesResponse,
} from '../../contract/admin-answers.ts';
import {
  addCustomerNote,
  exportCustomersCsv,
  getCustomer,
  searchCustomers,
  setCustomerBlocked,
} from '../accounts/customers.ts';
import { defineRoute } from '../http/api.ts';
import type { Services } from '../requests/services.ts';

/** The back office's customers: search, detail, notes, blocking, CSV. Staff only (401/403 first). */
export function adminCustomerRoutes(services: Services) {
  const { db } = services;
  const staff = { access: 'manager' as const, tags: ['admin'] };

  return [
    defineRoute({
      ...staff,
      method: 'GET',
      url: '/api/admin/customers',
      summary: 'Customers (not staff) by e-mail, name or phone, with orders, money spent and last order',
      query: customersQuery,
      response: customerListResponse,
      handler: async ({ query }) => ({ success: true, ...(await searchCustomers(db, query)) }),
    }),
    defineRoute({
      ...staff,
      method: 'GET',
      url: '/api/admin/customers.csv',
      summary: 'The customers a search finds, as CSV (UTF-8 with a BOM), streamed',
      query: customersExportQuery,
      response: z.string(),
      handler: async ({ query, reply }) =>
        reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', 'attachment; filename="customers.csv"')
          .send(Readable.from(exportCustomersCsv(db, query))),
    }),
    defineRoute({
      ...staff,
      method: 'GET',
      url: '/api/admin/customers/:id',
      summary: 'A customer with details, orders and staff notes',
      params: idParams,
      response: customerResponse,
      handler: async ({ params }) => ({ success: true, customer: await getCustomer(db, params.id) }),
    }),
    defineRoute({
      ...staff,
      method: 'POST',
      url: '/api/admin/customers/:id/notes',
      summary: 'Adds a staff note to the customer; answers every note, oldest first',
      params: idParams,
      body: staffNoteInput,
      response: staffNotesResponse,
      handler: async ({ params, body, staffId }) => ({
        success: true,
        notes: await addCustomerNote(db, staffId, params.id, body.body),
      }),
    }),
    defineRoute({
      ...staff,
      method: 'POST',
      url: '/api/admin/customers/:id/block',
      summary: 'Blocks the account (no sign-in, every session ends) or lets it in again (blocked=0)',
      params: idParams,
      body: customerBlock,
      response: customerBlockResponse,
      handler: async ({ params, body, staffId }) => ({
        success: true,
        ...(await setCustomerBlocked(db, staffId, params.id, body.blocked)),
      }),
    }),
  ];
}
