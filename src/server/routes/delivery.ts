import { deliveryQuery, deliveryResponse } from '../../contract/delivery.ts';
import { kopecksToRoubles } from '../../contract/money.ts';
import { defineRoute } from '../http/api.ts';
import { quoteForRequest } from '../requests/delivery-quote.ts';
import type { Services } from '../requests/services.ts';

/** `GET /api/delivery?method=&country=&zip=` of spec section 7. */
export function deliveryRoutes(services: Services) {
  return [
    defineRoute({
      method: 'GET',
      url: '/api/delivery',
      summary: "Delivery cost and time of the visitor's basket by a method to a country and postcode",
      tags: ['delivery'],
      query: deliveryQuery,
      response: deliveryResponse,
      handler: async ({ query, request }) => {
        const quote = await quoteForRequest(services, request, query);
        return {
          success: true,
          method: quote.method,
          cost: kopecksToRoubles(quote.cost),
          days: quote.days,
        };
      },
    }),
  ];
}
