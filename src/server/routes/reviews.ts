import { doneResponse } from '../../contract/accounts.ts';
import { reviewBody, reviewsQuery, reviewsResponse } from '../../contract/shopping.ts';
import { defineRoute } from '../http/api.ts';
import type { Services } from '../requests/services.ts';
import { shopperActions } from '../requests/shopper-actions.ts';

/** The reviews thread under each product, keyed by product id. */
export function reviewRoutes(services: Services) {
  const shopper = (request: Parameters<typeof shopperActions>[1]) => shopperActions(services, request);
  return [
    defineRoute({
      method: 'GET',
      url: '/api/reviews',
      summary: "A page of a product's reviews, newest first, with the average rating",
      tags: ['reviews'],
      query: reviewsQuery,
      response: reviewsResponse,
      handler: async ({ query, request }) => ({
        success: true,
        ...(await shopper(request).reviews.list(query.product, query.page)),
      }),
    }),
    defineRoute({
      method: 'POST',
      url: '/api/reviews',
      summary: 'Post a rating (1 to 5) and a plain-text review; signed-in users, one per product',
      tags: ['reviews'],
      body: reviewBody,
      response: doneResponse,
      handler: async ({ body, request }) => {
        await shopper(request).reviews.add(body);
        return { success: true };
      },
    }),
  ];
}
