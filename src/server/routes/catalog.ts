import type { FastifyReply, FastifyRequest } from 'fastify';
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
import type { Locale } from '../../contract/locale.ts';
import { type Currency, majorToMinor, shownRangeInKopecks } from '../../contract/money.ts';
import { distinctIds, distinctSizes, type ListView, orderOfSort, type Sort } from '../../contract/shop.ts';
import type { CachedAnswer } from '../caches/cache.ts';
import { Invalid } from '../errors.ts';
import { defineRoute, sendJson } from '../http/api.ts';
import { catalogAnswerHeaders } from '../http/cdn.ts';
import { requestLocale } from '../http/locale.ts';
import type { Services } from '../requests/services.ts';

/** The optional sort, filters and page of a list call; a price range in dollars is turned into kopecks at `usdRate`. */
export function listView(
  query: {
    sort?: Sort;
    project?: number[];
    category?: number[];
    size?: string[];
    available?: '1' | '0' | 'true' | 'false';
    price_min?: number;
    price_max?: number;
    currency?: Currency;
    page?: number;
  },
  usdRate: number,
): ListView {
  const { sort, available } = orderOfSort(query.sort ?? 'default');
  const bound = (value: number | undefined) => (value === undefined ? null : majorToMinor(value));
  const price = shownRangeInKopecks(
    { min: bound(query.price_min), max: bound(query.price_max) },
    query.currency ?? 'RUB',
    usdRate,
  );
  if (!price)
    throw new Invalid(
      'invalid-currency-rate',
      { currency: ['No dollar rate is known'] },
      'invalid-currency-rate',
    );
  return {
    sort,
    projectIds: distinctIds(query.project ?? []),
    categoryIds: distinctIds(query.category ?? []),
    sizes: distinctSizes(query.size ?? []),
    available: available || query.available === '1' || query.available === 'true',
    price,
    page: query.page,
  };
}

/**
 * The catalogue calls of spec section 7; answers come from the read-through cache, with the CDN
 * headers of their keys (http/cdn.ts).
 */
export function catalogRoutes({ catalog, config, usdRate }: Services) {
  const purging = config.cdnPurgeUrl !== undefined;
  const send = (
    request: FastifyRequest,
    reply: FastifyReply,
    locale: Locale | undefined,
    answer: CachedAnswer<unknown>,
  ) => {
    catalogAnswerHeaders(request, reply, answer, { localeInAddress: locale !== undefined, purging });
    return sendJson(reply, answer.json);
  };
  return [
    defineRoute({
      method: 'GET',
      url: '/api/initial',
      summary: 'Categories, projects, featured products and the dollar rate',
      tags: ['catalogue'],
      query: localeQuery,
      response: initialResponse,
      handler: async ({ query, request, reply }) =>
        send(request, reply, query.locale, await catalog.initial(query.locale ?? requestLocale(request))),
    }),
    defineRoute({
      method: 'GET',
      url: '/api/project',
      summary: "A project's products with side-section counts; optionally sorted, filtered and paged",
      tags: ['catalogue'],
      query: listQuery,
      response: productListResponse,
      handler: async ({ query, request, reply }) =>
        send(
          request,
          reply,
          query.locale,
          await catalog.project(
            query.locale ?? requestLocale(request),
            query.link,
            listView(query, usdRate()),
          ),
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
        send(
          request,
          reply,
          query.locale,
          await catalog.category(
            query.locale ?? requestLocale(request),
            query.link,
            listView(query, usdRate()),
          ),
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
        send(
          request,
          reply,
          query.locale,
          await catalog.search(
            query.locale ?? requestLocale(request),
            query.search,
            listView(query, usdRate()),
          ),
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
        send(
          request,
          reply,
          query.locale,
          await catalog.product(query.locale ?? requestLocale(request), query.link),
        ),
    }),
  ];
}
