import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../config.ts';
import type { DatabaseConnection } from '../db/client.ts';
import { type AppOptions, buildApp } from '../http/app.ts';
import { createServices } from '../services.ts';
import { createTestDatabase } from './database.ts';

/**
 * The API over a fresh test database, without the web app; `inject` talks to it in-process.
 * `env` adds environment variables (e.g. `RUSSIAN_POST_URL` and `BOXBERRY_URL` pointing at
 * simulators a test listens with); `sandboxes` are mounted as in test mode; `logger` and `redis`
 * are handed to the app as `main.ts` does.
 */
export async function createTestApp(
  options: {
    usdRate?: number;
    env?: Record<string, string>;
    sandboxes?: Array<(app: import('fastify').FastifyInstance) => Promise<void>>;
    logger?: AppOptions['logger'];
    redis?: AppOptions['redis'];
  } = {},
) {
  const connection: DatabaseConnection = await createTestDatabase();
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'vitrina-data-')),
    // Tests sign admins in with a password alone; the two-step sign-in tests ask for `required`.
    ADMIN_TWO_FACTOR: 'optional',
    ...options.env,
  });
  const services = createServices({ db: connection.db, config, usdRate: () => options.usdRate ?? 90 });
  const app = await buildApp({
    services,
    sandboxes: options.sandboxes,
    logger: options.logger,
    redis: options.redis,
  });
  return {
    app,
    services,
    db: connection.db,
    connection,
    async close() {
      await app.close();
      await services.close();
      await connection.close();
    },
  };
}
