import {
  initialResponse,
  linkQuery,
  listQuery,
  localeQuery,
  productListResponse,
  productResponse,
  searchQuery,
  searchSuggestionsResponse,
  suggestionsQuery,
} from '../../contract/catalog.ts';
import type { ListView } from '../../contract/shop.ts';
import { defineRoute, sendJson } from '../http/api.ts';
import { requestLocale } from '../http/locale.ts';
import type { Services } from '../services.ts';

/** The optional sort, filters and page of a list call. */
const listView = (query: {
  sort?: ListView['sort'];
  project?: number;
  category?: number;
  size?: string;
  page?: number;
}) => ({
  sort: query.sort ?? 'default',
  projectId: query.project ?? 0,
  categoryId: query.category ?? 0,
  size: query.size ?? '',
  page: query.page,
});

/** The catalogue calls of spec section 7; answers come from the read-through cache. */
export function catalogRoutes({ catalog }: Services) {
  return [
    defineRoute({
      method: 'GET',
      url: '/api/initial',
      summary: 'Categories, projects, featured products and the dollar rate',
      tags: ['catalogue'],
      query: localeQuery,
      response: initialResponse,
      handler: async ({ query, request, reply }) =>
        sendJson(reply, (await catalog.initial(query.locale ?? requestLocale(request))).json),
    }),
    defineRoute({
      method: 'GET',
      url: '/api/project',
      summary: "A project's products with side-section counts; optionally sorted, filtered and paged",
      tags: ['catalogue'],
      query: listQuery,
      response: productListResponse,
      handler: async ({ query, request, reply }) =>
        sendJson(
          reply,
          (await catalog.project(query.locale ?? requestLocale(request), query.link, listView(query))).json,
        ),
    }),
    defineRoute({
      method: 'GET',
      url: '/api/category',
      summary: "A category's products with side-section counts; optionally sorted, filtered and paged",
      tags: ['catalogue'],
      query: listQuery,
      response: productListResponse,
      handler: async ({ query, request, reply }) =>
        sendJson(
          reply,
          (await catalog.category(query.locale ?? requestLocale(request), query.link, listView(query))).json,
        ),
    }),
    defineRoute({
      method: 'GET',
      url: '/api/search',
      summary:
        'Full-text search over names, projects, categories and descriptions; typos, keyboard layout and synonyms',
      tags: ['catalogue'],
      query: searchQuery,
      response: productListResponse,
      handler: async ({ query, request, reply }) =>
        sendJson(
          reply,
          (await catalog.search(query.locale ?? requestLocale(request), query.search, listView(query))).json,
        ),
    }),
    defineRoute({
      method: 'GET',
      url: '/api/search/suggestions',
      summary: 'Suggestions while typing: up to 6 products and the matching projects and categories',
      tags: ['catalogue'],
      query: suggestionsQuery,
      response: searchSuggestionsResponse,
      handler: async ({ query, request, reply }) => {
        // The same for everyone asking in one language: caches may keep it a minute (shared ones
        // only when the language is in the address rather than negotiated).
        reply.header('cache-control', `${query.locale ? 'public' : 'private'}, max-age=60`);
        return sendJson(
          reply,
          (await catalog.suggest(query.locale ?? requestLocale(request), query.search)).json,
        );
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/api/product',
      summary: 'A product with its images, description and similar products',
      tags: ['catalogue'],
      query: linkQuery,
      response: productResponse,
      handler: async ({ query, request, reply }) =>
        sendJson(reply, (await catalog.product(query.locale ?? requestLocale(request), query.link)).json),
    }),
  ];
}
