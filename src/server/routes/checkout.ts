import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { paymentStatusResponse } from '../../contract/orders.ts';
import { cancelPayment, handleRobokassaResult, paymentStatus } from '../checkout/payments.ts';
import { handlePaypalWebhook } from '../checkout/paypal.ts';
import { defineRoute } from '../http/api.ts';
import type { Services } from '../requests/services.ts';

const PROVIDERS = ['robokassa', 'paypal'] as const;

/** The result and cancel pages send the provider's return query string as a url-encoded body. */
const queryStringBody = z.record(z.string(), z.string()).default({});

/** `POST /api/{provider}/status` and `/cancel` of spec section 7. */
export function paymentPageRoutes(services: Services) {
  return PROVIDERS.flatMap((provider) => [
    defineRoute({
      method: 'POST',
      url: `/api/${provider}/status`,
      summary: `The payment state of the order ${provider} returned the shopper with (0 pending, 1 paid, -1 failed)`,
      tags: ['payments'],
      body: queryStringBody,
      response: paymentStatusResponse,
      handler: async ({ body, request }) => ({
        success: true,
        ...(await paymentStatus(
          services.db,
          services.config,
          provider,
          body,
          request.session.userId,
          services.mailShop,
        )),
      }),
    }),
    defineRoute({
      method: 'POST',
      url: `/api/${provider}/cancel`,
      summary: `Cancel the unpaid order ${provider} returned the shopper with; its items go back to the cart`,
      tags: ['payments'],
      body: queryStringBody,
      response: paymentStatusResponse,
      handler: async ({ body, request }) => {
        const result = await cancelPayment(
          services.db,
          provider,
          body,
          request.session.userId,
          services.mailShop,
        );
        // The order's stock is back: catalogue answers must show it.
        if (result.status === 1 && result.order !== null)
          await services.catalog.ordersChanged([result.order]);
        return { success: true, ...result };
      },
    }),
  ]);
}

/**
 * The providers' server-to-server notifications. They are exempt from the origin check (their
 * signatures authenticate them) and answer in the providers' own formats, not the API's JSON.
 */
export async function paymentNotifications(app: FastifyInstance, options: { services: Services }) {
  const { services } = options;
  const robokassa = async (params: Record<string, unknown>, reply: import('fastify').FastifyReply) => {
    const result = await handleRobokassaResult(services.db, services.config, params, services.mailShop);
    if (!result.ok) {
      app.log.warn({ reason: result.reason }, 'refused a Robokassa notification');
      return reply.status(400).type('text/plain').send('bad request');
    }
    return reply.type('text/plain').send(result.answer);
  };
  app.post('/api/robokassa/result', (request, reply) =>
    robokassa(
      typeof request.body === 'string'
        ? Object.fromEntries(new URLSearchParams(request.body))
        : ((request.body ?? {}) as Record<string, unknown>),
      reply,
    ),
  );
  app.get('/api/robokassa/result', (request, reply) =>
    robokassa(request.query as Record<string, unknown>, reply),
  );

  // PayPal checks the signature over the event as it sent it, so the body is kept as text here.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string', bodyLimit: 256 * 1024 },
    (_request, body, done) => done(null, body),
  );
  app.post('/api/paypal/webhook', async (request, reply) => {
    const outcome = await handlePaypalWebhook(
      services.db,
      services.config,
      request.headers,
      // PayPal posts JSON; any other body is no event of PayPal's and fails verification.
      typeof request.body === 'string' ? request.body : '',
      services.mailShop,
    );
    app.log.info({ outcome }, 'PayPal webhook');
    return reply.status(outcome === 'invalid' ? 400 : 200).send('');
  });
}
