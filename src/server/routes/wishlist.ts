import { doneResponse } from '../../contract/accounts.ts';
import {
  basketLineBody,
  basketQuery,
  basketRemoveResponse,
  productBody,
  productParams,
  wishlistResponse,
} from '../../contract/shopping.ts';
import { defineRoute } from '../http/api.ts';
import { requestLocale } from '../http/locale.ts';
import type { Services } from '../requests/services.ts';
import { shopperActions } from '../requests/shopper-actions.ts';

/** The wishlist calls of spec section 7 (signed-in users only). */
export function wishlistRoutes(services: Services) {
  const shopper = (request: Parameters<typeof shopperActions>[1]) => shopperActions(services, request);
  return [
    defineRoute({
      method: 'GET',
      url: '/api/wishlist',
      summary: "The signed-in user's wishlist",
      tags: ['wishlist'],
      query: basketQuery,
      response: wishlistResponse,
      handler: async ({ query, request }) => ({
        success: true,
        ...(await shopper(request).wishlist.get(query.locale ?? requestLocale(request))),
      }),
    }),
    defineRoute({
      method: 'POST',
      url: '/api/wishlist',
      summary: 'Add a product (envisioned ones too); answers the wishlist',
      tags: ['wishlist'],
      query: basketQuery,
      body: productBody,
      response: wishlistResponse,
      handler: async ({ query, body, request }) => ({
        success: true,
        ...(await shopper(request).wishlist.add(body.product, query.locale ?? requestLocale(request))),
      }),
    }),
    defineRoute({
      method: 'DELETE',
      url: '/api/wishlist/:id',
      summary: 'Remove a product; POST with _method=DELETE works too',
      tags: ['wishlist'],
      body: productBody,
      response: basketRemoveResponse,
      handler: async ({ body, request }) => ({
        success: true,
        ...(await shopper(request).wishlist.remove(body.product)),
      }),
    }),
    defineRoute({
      method: 'POST',
      url: '/api/stock-alerts',
      summary:
        'Ask to be mailed once when a sold-out variant is back (signed in; 409 variant-in-stock when it is in stock)',
      tags: ['wishlist'],
      query: basketQuery,
      body: basketLineBody,
      response: doneResponse,
      handler: async ({ query, body, request }) => {
        await shopper(request).stockAlert.ask(
          body.product,
          body.variant,
          query.locale ?? requestLocale(request),
        );
        return { success: true };
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/api/release-reminders',
      summary:
        'Ask to be mailed once when an announced product goes on sale (signed in; idempotent; 409 product-already-released)',
      tags: ['wishlist'],
      query: basketQuery,
      body: productBody,
      response: doneResponse,
      handler: async ({ query, body, request }) => {
        await shopper(request).releaseReminder.ask(body.product, query.locale ?? requestLocale(request));
        return { success: true };
      },
    }),
    defineRoute({
      method: 'DELETE',
      url: '/api/release-reminders/:id',
      summary: 'No reminder of the product named in the address after all (signed in; idempotent)',
      tags: ['wishlist'],
      params: productParams,
      response: doneResponse,
      handler: async ({ params, request }) => {
        await shopper(request).releaseReminder.forget(params.id);
        return { success: true };
      },
    }),
  ];
}
