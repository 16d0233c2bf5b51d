import { doneResponse } from '../../contract/accounts.ts';
import { idParams, searchStatsQuery, synonymInput } from '../../contract/admin.ts';
import {
  searchStatsResponse,
  searchSynonymResponse,
  searchSynonymsResponse,
} from '../../contract/admin-answers.ts';
import { searchStats } from '../catalog/search-stats.ts';
import { listSynonyms } from '../catalog/search-synonyms.ts';
import { defineRoute } from '../http/api.ts';
import type { Services } from '../requests/services.ts';

/**
 * The back office's search tuning: synonyms and what shoppers searched. Staff only (deletions admin only):
 * the API refuses a call (401/403) before reading any input.
 */
export function adminSearchRoutes(services: Services) {
  const { db, writes } = services;
  const staff = { access: 'manager' as const, tags: ['admin'] };
  /** Deleting data is an admin's call, not a manager's. */
  const adminOnly = { access: 'admin' as const, tags: ['admin'] };
  return [
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
        synonym: await writes.addSynonym(staffId, body),
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
        await writes.deleteSynonym(staffId, params.id);
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
