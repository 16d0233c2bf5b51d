import {
  initialResponse,
  linkQuery,
  listQuery,
  localeQuery,
  productListResponse,
  productResponse,
  searchQuery,
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
  page?: number;
}) => ({
  sort: query.sort ?? 'default',
  projectId: query.project ?? 0,
  categoryId: query.category ?? 0,
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
      summary: 'Full-text search over names and descriptions, tolerant of typos',
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
