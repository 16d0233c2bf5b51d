import type { FastifyInstance, InjectOptions } from 'fastify';
import { type AppOptions, buildApp } from '../app/app.ts';
import { loadConfig } from '../config.ts';
import type { DatabaseConnection } from '../db/client.ts';
import { createServices } from '../requests/services.ts';
import { apiDocument } from './api-document.ts';
import { createTestDatabase } from './database.ts';
import { temporaryFolder } from './temporary-folder.ts';

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
  const dataDir = temporaryFolder('data');
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir.path,
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
  checkAnswersAgainstDocument(app);
  return {
    app,
    services,
    db: connection.db,
    connection,
    async close() {
      try {
        await app.close();
        await services.close();
        await connection.close();
      } finally {
        dataDir.remove();
      }
    },
  };
}

/**
 * Makes every JSON answer of `app.inject` under `/api/` a check of the API document (issue of the
 * contract): an answer `/api/docs/json` does not describe, for its operation and status, fails the
 * test at the call that asked for it, so the document cannot drift from what the routes answer.
 */
function checkAnswersAgainstDocument(app: FastifyInstance) {
  const inject = app.inject.bind(app);
  let document: ReturnType<typeof apiDocument> | undefined;
  const checked = async (options: InjectOptions | string) => {
    const response = await inject(options);
    const { method = 'GET', url = '', payload } = typeof options === 'string' ? { url: options } : options;
    const path = typeof url === 'string' ? url : (url.pathname ?? '');
    const json = String(response.headers['content-type'] ?? '').startsWith('application/json');
    if (json && path.startsWith('/api/') && !path.startsWith('/api/docs')) {
      document ??= apiDocument({ inject } as FastifyInstance);
      // A form POST with `_method=PATCH|DELETE` is that operation (registerApi's method spoofing).
      const spoofed =
        typeof payload === 'object' && payload !== null && '_method' in payload
          ? String((payload as { _method: unknown })._method)
          : typeof payload === 'string'
            ? new URLSearchParams(payload).get('_method')
            : null;
      const mismatch = (await document).mismatch(spoofed ?? method, path, response);
      if (mismatch) throw new Error(`the answer is not what /api/docs/json describes: ${mismatch}`);
    }
    return response;
  };
  app.inject = checked as typeof app.inject;
}
