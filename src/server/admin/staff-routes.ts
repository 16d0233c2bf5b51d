import { doneResponse } from '../../contract/accounts.ts';
import { idParams, invitationToken, staffInvite, staffRoleUpdate } from '../../contract/admin.ts';
import {
  staffInvitationResponse,
  staffInvitedResponse,
  staffListResponse,
  staffRoleResponse,
} from '../../contract/admin-answers.ts';
import {
  invitationByToken,
  inviteStaff,
  listInvitations,
  listStaff,
  revokeInvitation,
  setStaffRole,
} from '../accounts/staff.ts';
import { defineRoute } from '../http/api.ts';
import { requestLocale } from '../http/locale.ts';
import type { Services } from '../requests/services.ts';
import { accountActions } from '../requests/session-actions.ts';

/** Staff accounts: admins only (a manager gets 403 admin-only), refused before any input is read. */
export function adminStaffRoutes(services: Services) {
  const { db } = services;
  const adminOnly = { access: 'admin' as const, tags: ['admin'] };

  return [
    defineRoute({
      ...adminOnly,
      method: 'GET',
      url: '/api/admin/staff',
      summary: 'Staff accounts (managers and admins)',
      response: staffListResponse,
      handler: async () => ({
        success: true,
        staff: await listStaff(db),
        invitations: await listInvitations(db),
      }),
    }),
    defineRoute({
      ...adminOnly,
      method: 'POST',
      url: '/api/admin/staff',
      summary:
        'Invites an address to the staff: a pending invitation mailed to it in the admin’s language; nothing is granted until it is accepted',
      body: staffInvite,
      response: staffInvitedResponse,
      handler: async ({ body, request, staffId }) => ({
        success: true,
        ...(await inviteStaff(
          db,
          staffId,
          { ...body, locale: requestLocale(request) },
          { publicUrl: services.config.publicUrl, shop: services.mailShop },
        )),
      }),
    }),
    defineRoute({
      ...adminOnly,
      method: 'DELETE',
      url: '/api/admin/staff/invitations/:id',
      summary: 'Revokes a pending invitation: its link stops working',
      params: idParams,
      response: doneResponse,
      handler: async ({ params, staffId }) => {
        await revokeInvitation(db, staffId, params.id);
        return { success: true };
      },
    }),
    defineRoute({
      ...adminOnly,
      method: 'PATCH',
      url: '/api/admin/staff/:id',
      summary: 'Changes a staff member’s role; `customer` takes them off the staff (the last admin stays)',
      params: idParams,
      body: staffRoleUpdate,
      response: staffRoleResponse,
      handler: async ({ params, body, staffId }) => ({
        success: true,
        ...(await setStaffRole(db, staffId, params.id, body.role)),
      }),
    }),
    defineRoute({
      method: 'GET',
      url: '/api/staff-invitation',
      tags: ['accounts'],
      summary: 'The address and role a pending invitation link offers (404 staff-invitation-gone)',
      query: invitationToken,
      response: staffInvitationResponse,
      handler: async ({ query }) => ({ success: true, invitation: await invitationByToken(db, query.token) }),
    }),
    defineRoute({
      method: 'POST',
      url: '/api/staff-invitation',
      tags: ['accounts'],
      summary:
        'Accepts an invitation for the signed-in account, which must be the invited address (403 staff-invitation-other-address)',
      body: invitationToken,
      response: staffRoleResponse,
      handler: async ({ body, request }) => ({
        success: true,
        ...(await accountActions(services, request).acceptStaffInvitation(body.token)),
      }),
    }),
  ];
}
