import path from 'node:path';
import { loadConfig } from '../../src/server/config.ts';
import { type Database, openDatabase } from '../../src/server/db/client.ts';
import { createStorage } from '../../src/server/files/storage.ts';
import { seedDemoData } from '../../src/server/seed/seed.ts';

/**
 * The demo shop's database in `directory`, migrated and seeded as the shop's first start would,
 * then changed by `adjust` (a spec's own catalogue), before a shop of the spec's own starts on it
 * (`startShop` in server.global.ts).
 */
export async function prepareDemoShop(directory: string, adjust: (db: Database) => Promise<void>) {
  const config = loadConfig({ DATA_DIR: directory, NODE_ENV: 'development' });
  const connection = await openDatabase({ dataDir: path.join(directory, 'db') });
  try {
    await connection.migrate();
    await seedDemoData(connection.db, {
      storage: createStorage(config.storage),
      admin: { email: 'admin@vitrina.example', password: 'e2e-admin-password' },
      log: () => {},
    });
    await adjust(connection.db);
  } finally {
    await connection.close();
  }
}
