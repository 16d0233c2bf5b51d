import { createServer, type Server, type Socket } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../testing/app.ts';
import { redisProblem, TEST_REDIS_URL } from '../testing/redis.ts';
import { READINESS_TIMEOUT_MS } from './health.ts';

const REDIS_URL = TEST_REDIS_URL;
const noRedis = await redisProblem();
if (noRedis) console.warn(`Skipping the Redis readiness test: ${REDIS_URL} does not answer (${noRedis})`);

describe('health probes', () => {
  let shop: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    shop = await createTestApp();
  });
  afterAll(() => shop.close());

  it('says the process is alive, without a session cookie', async () => {
    const response = await shop.app.inject('/health/live');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
    expect(response.headers['set-cookie']).toBeUndefined();
  });

  it('is ready when the database answers', async () => {
    const response = await shop.app.inject('/health/ready');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok', checks: { database: 'ok' } });
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('stays out of the API contract: no /api prefix, not in the OpenAPI document', async () => {
    expect((await shop.app.inject('/api/health/ready')).statusCode).toBe(404);
    const document = (await shop.app.inject('/api/docs/json')).json() as { paths: Record<string, unknown> };
    expect(Object.keys(document.paths).some((path) => path.includes('health'))).toBe(false);
  });
});

describe('readiness when things go wrong', () => {
  it('answers 503 naming the database when the database is closed, while liveness stays 200', async () => {
    const shop = await createTestApp();
    await shop.connection.close();
    try {
      const response = await shop.app.inject('/health/ready');
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({ status: 'unavailable', checks: { database: 'failed' } });
      expect((await shop.app.inject('/health/live')).statusCode).toBe(200);
    } finally {
      // Its database is closed already: closing it again may refuse, the rest is closed all the same.
      await shop.close().catch(() => undefined);
    }
  });

  it('answers 503 as soon as a shutdown begins, though everything still works', async () => {
    const shop = await createTestApp();
    try {
      shop.app.beginShutdown();
      const response = await shop.app.inject('/health/ready');
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({ status: 'shutting-down' });
      expect((await shop.app.inject('/api/initial?locale=en')).statusCode).toBe(200);
    } finally {
      await shop.close();
    }
  });

  describe('with Redis', () => {
    let silentServer: Server;
    const sockets = new Set<Socket>();
    beforeAll(async () => {
      // Accepts connections and never answers: a Redis that hangs.
      silentServer = createServer((socket) => sockets.add(socket));
      await new Promise<void>((resolve) => silentServer.listen(0, '127.0.0.1', resolve));
    });
    afterAll(async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silentServer.close(resolve));
    });

    it.skipIf(noRedis)(
      'checks Redis with PING (skipped when no Redis answers at TEST_REDIS_URL)',
      async () => {
        const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
        const shop = await createTestApp({ redis });
        try {
          const response = await shop.app.inject('/health/ready');
          expect(response.statusCode).toBe(200);
          expect(response.json()).toEqual({ status: 'ok', checks: { database: 'ok', redis: 'ok' } });
        } finally {
          await shop.close();
          redis.disconnect();
        }
      },
    );

    it('gives up on a Redis that does not answer after the timeout and answers 503', async () => {
      const address = silentServer.address() as { port: number };
      const redis = new Redis({ host: '127.0.0.1', port: address.port, maxRetriesPerRequest: 1 });
      const shop = await createTestApp({ redis });
      try {
        const started = Date.now();
        const response = await shop.app.inject('/health/ready');
        const took = Date.now() - started;
        expect(response.statusCode).toBe(503);
        expect(response.json()).toEqual({
          status: 'unavailable',
          checks: { database: 'ok', redis: 'failed' },
        });
        expect(took).toBeGreaterThanOrEqual(READINESS_TIMEOUT_MS - 50);
        expect(took).toBeLessThan(READINESS_TIMEOUT_MS + 2_000);
      } finally {
        await shop.close();
        redis.disconnect();
      }
    });
  });
});
