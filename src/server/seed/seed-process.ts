import { fork } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Database, DatabaseConnection } from '../db/client.ts';
import { hasCatalogue } from './seed.ts';

/**
 * The demo seed runs in a child process of its own, and the serving process opens the database
 * afresh once that child has exited (ADR 0070). Drawing the pictures (sharp), the V8 heap of the
 * seed and PGlite's WASM memory, which grows during the bulk insert and never shrinks, then leave
 * with the child: a newcomer's first start settles where every later start does. A PGlite
 * directory with no database yet is created and migrated by that child too (ADR 0085): PGlite's
 * initdb runs a second PGlite instance and an initdb module of its own, whose memory stays with
 * the process that ran them until V8 happens to collect it.
 */

/** Set in the child's environment: the entry point seeds and exits instead of serving. */
export const SEED_PROCESS_VARIABLE = 'VITRINA_SEED_PROCESS';

export function isSeedProcess(environment: NodeJS.ProcessEnv = process.env): boolean {
  return environment[SEED_PROCESS_VARIABLE] === '1';
}

/** Whether PGlite finds no database in `directory` and would run initdb on opening it. */
export function isNewPgliteDirectory(directory: string): boolean {
  // PGlite's own test ("pglite: no db in filesystem, running initdb").
  return !existsSync(path.join(directory, 'PG_VERSION'));
}

/**
 * Runs `script` (the running entry point unless told) again as a child with the same Node flags and
 * environment, plus the seed variable, and waits for it. Its output is the parent's: the generated
 * admin password is printed there. Rejects when the child fails.
 */
export async function seedInChildProcess(
  options: { script?: string; execArgv?: string[]; environment?: NodeJS.ProcessEnv } = {},
): Promise<void> {
  const script = options.script ?? process.argv[1];
  if (!script) throw new Error('The entry point to seed the demo data with is unknown.');
  const child = fork(script, [], {
    execArgv: options.execArgv ?? process.execArgv,
    env: { ...(options.environment ?? process.env), [SEED_PROCESS_VARIABLE]: '1' },
    stdio: 'inherit',
  });
  const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
  if (code !== 0) {
    throw new Error(
      `The database could not be created or seeded: the seeding process ${signal ? `was stopped by ${signal}` : `exited with ${code}`}.`,
    );
  }
}

/**
 * The serving process's database, migrated and seeded: what a new database needs is done by a
 * child (`runChild`, which creates, migrates and seeds; see the entry point's seeding role), so
 * that its memory leaves with it.
 * - A PGlite directory with no database: the child creates it before this process opens anything.
 * - A migrated database with no catalogue while the demo data is wanted: this process lets go of a
 *   PGlite database (its files are one process's at a time; a PostgreSQL pool stays open), the
 *   child seeds, and the database is opened afresh.
 */
export async function openServingDatabase(options: {
  open: () => Promise<DatabaseConnection>;
  /** PGlite's directory; undefined on PostgreSQL. */
  pgliteDirectory: string | undefined;
  seedDemoData: boolean;
  runChild?: () => Promise<void>;
  /** Whether the database holds the catalogue already (the seed's own test unless told). */
  seeded?: (db: Database) => Promise<boolean>;
}): Promise<DatabaseConnection> {
  const runChild = options.runChild ?? (() => seedInChildProcess());
  const seeded = options.seeded ?? hasCatalogue;
  if (options.pgliteDirectory !== undefined && isNewPgliteDirectory(options.pgliteDirectory)) {
    await runChild();
  }
  let connection = await options.open();
  await connection.migrate();
  if (options.seedDemoData && !(await seeded(connection.db))) {
    if (connection.kind === 'pglite') await connection.close();
    await runChild();
    if (connection.kind === 'pglite') connection = await options.open();
  }
  return connection;
}
