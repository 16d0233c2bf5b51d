import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../config.ts';
import type { DatabaseConnection } from '../db/client.ts';
import { buildApp } from '../http/app.ts';
import { createServices } from '../services.ts';
import { createTestDatabase } from './database.ts';

/** The API over a fresh test database, without the web app; `inject` talks to it in-process. */
export async function createTestApp(options: { usdRate?: number } = {}) {
  const connection: DatabaseConnection = await createTestDatabase();
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'vitrina-data-')),
  });
  const services = createServices({ db: connection.db, config, usdRate: () => options.usdRate ?? 90 });
  const app = await buildApp({ services });
  return {
    app,
    services,
    db: connection.db,
    async close() {
      await app.close();
      await connection.close();
    },
  };
}
