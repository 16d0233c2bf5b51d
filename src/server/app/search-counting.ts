import type { FastifyInstance } from 'fastify';
import { isLocale } from '../../contract/locale.ts';
import { requestLocale } from '../http/locale.ts';
import type { Services } from '../requests/services.ts';

/** A shop search page, or its data for a client navigation. */
const SEARCH_PAGE = /^\/search\/([^/]+?)(?:\.data)?\/?$/;
/** A list's view beyond its first page as it is: the same search looked at again. */
const VIEW_PARAMETERS = ['page', 'sort', 'project', 'category'];

/**
 * Counts searches for the back office's analytics (ADR 0030): each search page and `/api/search`
 * answered, its first page as it is. Counted once the answer is sent, kept pages included: the
 * page cache answers most anonymous searches without reaching a loader.
 */
export function searchCounting(app: FastifyInstance, services: Services) {
  app.addHook('onResponse', async (request, reply) => {
    if (request.method !== 'GET' || reply.statusCode !== 200) return;
    // Most answers are other pages: told apart without parsing their address.
    if (!request.url.startsWith('/search/') && !request.url.startsWith('/api/search')) return;
    const url = new URL(request.url, 'http://shop.invalid');
    if (VIEW_PARAMETERS.some((name) => url.searchParams.has(name))) return;
    const page = SEARCH_PAGE.exec(url.pathname);
    const text = page?.[1]
      ? safelyDecoded(page[1])
      : url.pathname === '/api/search'
        ? url.searchParams.get('search')
        : null;
    if (!text?.trim()) return;
    const asked = url.searchParams.get('locale');
    const locale = asked !== null && isLocale(asked) ? asked : requestLocale(request);
    try {
      await services.catalog.countSearch(locale, text);
    } catch (error) {
      request.log.warn({ err: error }, 'search not counted');
    }
  });
}

function safelyDecoded(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}
