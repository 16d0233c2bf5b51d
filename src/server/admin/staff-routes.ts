import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { idParams, staffInvite, staffRoleUpdate } from '../../contract/admin.ts';
import { accountActions } from '../accounts/session-actions.ts';
import { defineRoute } from '../http/api.ts';
import { requestLocale } from '../http/locale.ts';
import type { Services } from '../services.ts';
import { inviteStaff, listStaff, setStaffRole } from './staff.ts';

const answer = z.object({ success: z.literal(true) }).loose();

/** Staff accounts: admins only (a manager gets 403 admin-only), refused before any input is read. */
export function adminStaffRoutes(services: Services) {
  const { db } = services;
  const actor = (request: FastifyRequest) => accountActions(services, request).requireStaff('admin');
  const adminOnly = { access: 'admin' as const, tags: ['admin'] };

  return [
    defineRoute({
      ...adminOnly,
      method: 'GET',
      url: '/api/admin/staff',
      summary: 'Staff accounts (managers and admins)',
      response: answer,
      handler: async () => ({ success: true, staff: await listStaff(db) }),
    }),
    defineRoute({
      ...adminOnly,
      method: 'POST',
      url: '/api/admin/staff',
      summary:
        'Makes an address staff (a new account when it is unknown) and mails it a link to set a password, in the admin’s language',
      body: staffInvite,
      response: answer,
      handler: async ({ body, request }) => ({
        success: true,
        ...(await inviteStaff(
          db,
          await actor(request),
          { ...body, locale: requestLocale(request) },
          { publicUrl: services.config.publicUrl, shop: services.mailShop },
        )),
      }),
    }),
    defineRoute({
      ...adminOnly,
      method: 'PATCH',
      url: '/api/admin/staff/:id',
      summary: 'Changes a staff member’s role; `customer` takes them off the staff (the last admin stays)',
      params: idParams,
      body: staffRoleUpdate,
      response: answer,
      handler: async ({ params, body, request }) => ({
        success: true,
        ...(await setStaffRole(db, await actor(request), params.id, body.role)),
      }),
    }),
  ];
}
