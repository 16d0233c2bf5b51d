import { localeQuery } from '../../contract/catalog.ts';
import { type PartnersResponse, partnersResponse } from '../../contract/partners.ts';
import { defineRoute } from '../http/api.ts';
import { requestLocale } from '../http/locale.ts';
import type { Services } from '../requests/services.ts';

/** The partners list of the partners page (spec sections 2 and 3). */
export function partnerRoutes({ partners }: Services) {
  return [
    defineRoute({
      method: 'GET',
      url: '/api/partners',
      summary: 'Visible partners with their contacts and social links',
      tags: ['content'],
      query: localeQuery,
      response: partnersResponse,
      handler: async ({ query, request }): Promise<PartnersResponse> => ({
        success: true,
        partners: await partners.list(query.locale ?? requestLocale(request)),
      }),
    }),
  ];
}
