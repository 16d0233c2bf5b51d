import { infoPageResponse, infoPagesResponse } from '../../contract/admin-answers.ts';
import { staticPageParams, staticPageSave } from '../../contract/pages.ts';
import { defineRoute } from '../http/api.ts';
import { getStaticPage, listStaticPages } from '../pages/service.ts';
import type { Services } from '../requests/services.ts';

/**
 * The back office's editing of static pages: staff (managers too) read and save them; a save
 * empties the shop's caches, so the next visitor sees the new text.
 */
export function staticPageRoutes(services: Services) {
  const staff = { access: 'manager' as const, tags: ['admin'] };
  return [
    defineRoute({
      ...staff,
      method: 'GET',
      url: '/api/admin/pages',
      summary: "The static pages' texts as staff wrote them ('' shows the built-in text)",
      response: infoPagesResponse,
      handler: async () => ({ success: true, pages: await listStaticPages(services.db) }),
    }),
    defineRoute({
      ...staff,
      method: 'GET',
      url: '/api/admin/pages/:page',
      summary: "One static page's text in both languages",
      params: staticPageParams,
      response: infoPageResponse,
      handler: async ({ params }) => ({ success: true, page: await getStaticPage(services.db, params.page) }),
    }),
    defineRoute({
      ...staff,
      method: 'PATCH',
      url: '/api/admin/pages/:page',
      summary: "Save a static page's text (sanitized HTML per language); a stale version gets 409",
      params: staticPageParams,
      body: staticPageSave,
      response: infoPageResponse,
      handler: async ({ params, body, staffId }) => {
        const page = await services.writes.saveStaticPage(staffId, params.page, body);
        return { success: true, page };
      },
    }),
  ];
}
