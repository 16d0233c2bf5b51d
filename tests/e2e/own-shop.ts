import { cpSync } from 'node:fs';
import path from 'node:path';
import { inject } from 'vitest';
import { loadConfig } from '../../src/server/config.ts';
import { type Database, openDatabase } from '../../src/server/db/client.ts';
import { createStorage } from '../../src/server/files/storage.ts';
import { seedDemoData } from '../../src/server/seed/seed.ts';

/** The admin every journey's shop has (server.global.ts starts the shops with these settings). */
export const E2E_ADMIN = { email: 'admin@vitrina.example', password: 'e2e-admin-password' };

/**
 * The demo shop's data folder as the shop's first start leaves it, migrated and seeded, in
 * `directory`: done once per run (server.global.ts), then copied for each shop of a spec's own.
 */
export async function seedDemoShop(directory: string) {
  const config = loadConfig({ DATA_DIR: directory, NODE_ENV: 'development' });
  const connection = await openDatabase({ dataDir: path.join(directory, 'db') });
  try {
    await connection.migrate();
    await seedDemoData(connection.db, {
      storage: createStorage(config.storage),
      admin: E2E_ADMIN,
      log: () => {},
    });
  } finally {
    await connection.close();
  }
}

/**
 * The demo shop's data folder, copied into `directory` from the run's seeded one, then changed by
 * `adjust` (a spec's own catalogue), before a shop of the spec's own starts on it (`startShop`).
 */
export async function prepareDemoShop(directory: string, adjust: (db: Database) => Promise<void>) {
  cpSync(inject('demoShop'), directory, { recursive: true });
  const connection = await openDatabase({ dataDir: path.join(directory, 'db') });
  try {
    await adjust(connection.db);
  } finally {
    await connection.close();
  }
}
