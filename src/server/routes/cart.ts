import { doneResponse } from '../../contract/accounts.ts';
import {
  basketCountResponse,
  basketLineBody,
  basketQuery,
  basketRemoveResponse,
  basketResponse,
  countBody,
  promoCodeBody,
} from '../../contract/shopping.ts';
import { defineRoute } from '../http/api.ts';
import { requestLocale } from '../http/locale.ts';
import type { Services } from '../requests/services.ts';
import { shopperActions } from '../requests/shopper-actions.ts';

/** The basket calls of spec section 7. */
export function basketRoutes(services: Services) {
  const shopper = (request: Parameters<typeof shopperActions>[1]) => shopperActions(services, request);
  return [
    defineRoute({
      method: 'GET',
      url: '/api/basket',
      summary: "The visitor's basket: items, unavailable ones, total",
      tags: ['basket'],
      query: basketQuery,
      response: basketResponse,
      handler: async ({ query, request }) => ({
        success: true,
        ...(await shopper(request).basket.get(query.locale ?? requestLocale(request))),
      }),
    }),
    defineRoute({
      method: 'POST',
      url: '/api/basket',
      summary:
        'Add one unit of a product, or of its variant `variant` when it has options (never beyond stock; envisioned items are refused)',
      tags: ['basket'],
      body: basketLineBody,
      response: doneResponse,
      handler: async ({ body, request }) => {
        await shopper(request).basket.add(body.product, body.variant);
        return { success: true };
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/api/basket/promo',
      summary:
        'Enter a promo code for the basket; refused (422) with the reason when it is unknown or does not apply to the goods now',
      tags: ['basket'],
      body: promoCodeBody,
      response: doneResponse,
      handler: async ({ body, request }) => {
        await shopper(request).basket.enterPromo(body.code);
        return { success: true };
      },
    }),
    defineRoute({
      method: 'DELETE',
      url: '/api/basket/promo',
      summary: 'Take the promo code off the basket; POST with _method=DELETE works too',
      tags: ['basket'],
      response: doneResponse,
      handler: async ({ request }) => {
        await shopper(request).basket.removePromo();
        return { success: true };
      },
    }),
    defineRoute({
      method: 'PATCH',
      url: '/api/basket/:id',
      summary:
        'Set a count, clamped to stock (force = the count was changed); POST with _method=PATCH works too',
      tags: ['basket'],
      body: countBody,
      response: basketCountResponse,
      handler: async ({ body, request }) => ({
        success: true,
        ...(await shopper(request).basket.setCount(body.product, body.count, body.variant)),
      }),
    }),
    defineRoute({
      method: 'DELETE',
      url: '/api/basket/:id',
      summary: 'Remove a product (or its variant `variant`); POST with _method=DELETE works too',
      tags: ['basket'],
      body: basketLineBody,
      response: basketRemoveResponse,
      handler: async ({ body, request }) => ({
        success: true,
        ...(await shopper(request).basket.remove(body.product, body.variant)),
      }),
    }),
  ];
}
