import { auditQuery } from '../../contract/admin.ts';
import { auditResponse } from '../../contract/admin-answers.ts';
import { listAudit } from '../audit/audit.ts';
import { defineRoute } from '../http/api.ts';
import type { Services } from '../requests/services.ts';

/** The back office's audit log. Staff only: the API refuses a call (401/403) before reading any input. */
export function adminAuditRoutes(services: Services) {
  const { db } = services;
  const staff = { access: 'manager' as const, tags: ['admin'] };
  return [
    defineRoute({
      ...staff,
      method: 'GET',
      url: '/api/admin/audit',
      summary: 'The audit log: who changed what, when, before and after',
      query: auditQuery,
      response: auditResponse,
      handler: async ({ query }) => ({ success: true, ...(await listAudit(db, query)) }),
    }),
  ];
}
