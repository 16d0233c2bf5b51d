import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import type { Redis } from 'ioredis';
import type { Database } from '../db/client.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Called when a shutdown begins: from then on `/health/ready` answers 503 so that load balancers
     * stop sending new traffic, while the server keeps answering until `close()`.
     */
    beginShutdown(): void;
  }
}

/** Each dependency gets this long to answer a readiness check. */
export const READINESS_TIMEOUT_MS = 1_000;

type CheckStatus = 'ok' | 'failed';

/** Rejects when `work` has not settled in time; the timer never keeps the process alive. */
export function withinTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
    timer.unref();
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Probes for orchestrators and load balancers, outside the `/api` contract: `GET /health/live`
 * (the process answers: restart it when this fails) and `GET /health/ready` (the database answers
 * a trivial query and Redis a PING, when configured: send traffic only while this is 200). Neither
 * reads a session; both log at `warn` only, so frequent probes do not flood the logs.
 */
export const healthChecks = fastifyPlugin(
  async (app: FastifyInstance, options: { db: Database; redis?: Redis | undefined }) => {
    let shuttingDown = false;
    app.decorate('beginShutdown', () => {
      shuttingDown = true;
    });

    const { db, redis } = options;
    const checks: Record<string, () => Promise<unknown>> = {
      database: () => db.execute(sql`select 1`),
      ...(redis ? { redis: () => redis.ping() } : {}),
    };

    app.get('/health/live', { logLevel: 'warn' }, async () => ({ status: 'ok' }));

    app.get('/health/ready', { logLevel: 'warn' }, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      if (shuttingDown) return reply.status(503).send({ status: 'shutting-down' });
      const results = await Promise.all(
        Object.entries(checks).map(async ([name, check]): Promise<[string, CheckStatus]> => {
          try {
            await withinTimeout(check(), READINESS_TIMEOUT_MS, name);
            return [name, 'ok'];
          } catch (error) {
            request.log.warn({ err: error, check: name }, 'readiness check failed');
            return [name, 'failed'];
          }
        }),
      );
      const ready = results.every(([, status]) => status === 'ok');
      return reply
        .status(ready ? 200 : 503)
        .send({ status: ready ? 'ok' : 'unavailable', checks: Object.fromEntries(results) });
    });
  },
  { name: 'vitrina-health' },
);
