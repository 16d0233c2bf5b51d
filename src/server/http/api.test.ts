import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type ApiRoute, defineRoute, registerApi } from './api.ts';

/** A call that answers whether its request went through the visitors' scope. */
const call = (url: string, method: 'GET' | 'PATCH' = 'GET') =>
  defineRoute({
    method,
    url,
    summary: url,
    tags: ['test'],
    response: z.object({ visitor: z.boolean() }),
    handler: async ({ request }) => ({ visitor: (request as { visitor?: boolean }).visitor === true }),
  });

const guards = { staff: async () => 1 };
/** Stands for the session plugin: marks every request of the scope it is registered in. */
const withVisitors = async (scope: FastifyInstance) => {
  scope.addHook('onRequest', async (request) => {
    (request as { visitor?: boolean }).visitor = true;
  });
};

let app: FastifyInstance | undefined;
afterEach(() => app?.close());

async function api(calls: { visitorFree: ApiRoute[]; visitors: ApiRoute[] }) {
  app = Fastify();
  await app.register((scope) => registerApi(scope, calls, guards, withVisitors), { prefix: '/api' });
  await app.ready();
  return app;
}

describe('the API scopes (ADR 0091)', () => {
  it('gives the visitor plugins to the visitor calls only, the spoofed posts and refusals alike', async () => {
    const shop = await api({
      visitorFree: [call('/api/product')],
      visitors: [call('/api/basket'), call('/api/basket', 'PATCH')],
    });
    expect((await shop.inject({ url: '/api/product' })).json()).toEqual({ visitor: false });
    expect((await shop.inject({ url: '/api/basket' })).json()).toEqual({ visitor: true });
    const spoofed = await shop.inject({
      method: 'POST',
      url: '/api/basket',
      payload: { _method: 'PATCH' },
    });
    expect(spoofed.json()).toEqual({ visitor: true });
    expect((await shop.inject({ url: '/api/nothing-here' })).statusCode).toBe(404);
  });

  it('refuses to build a staff call without the session', async () => {
    const staffCall = defineRoute({ ...call('/api/admin/products'), access: 'manager' } as never);
    await expect(api({ visitorFree: [staffCall], visitors: [] })).rejects.toThrow(
      'GET /api/admin/products is a staff call',
    );
  });
});
