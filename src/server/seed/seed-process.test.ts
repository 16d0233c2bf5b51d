import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { type Database, type DatabaseConnection, openDatabase, rowsOf } from '../db/client.ts';
import { temporaryFolder } from '../testing/temporary-folder.ts';
import {
  isNewPgliteDirectory,
  isSeedProcess,
  openServingDatabase,
  SEED_PROCESS_VARIABLE,
  seedInChildProcess,
} from './seed-process.ts';

const child = path.join(path.dirname(fileURLToPath(import.meta.url)), 'testing/seed-process-child.ts');
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'vitrina-seed-process-'));

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('seeding in a child process (ADR 0070)', () => {
  it('the child writes into the PGlite database the parent closed, and the reopened parent reads it', async () => {
    const before = await openDatabase({ dataDir });
    await before.db.execute(sql`create table marks (value text)`);
    await before.close();

    await seedInChildProcess({
      script: child,
      execArgv: ['--import', 'tsx'],
      environment: { ...process.env, FIXTURE_DATA_DIR: dataDir },
    });

    const after = await openDatabase({ dataDir });
    try {
      const { rows } = (await after.db.execute(sql`select value from marks`)) as unknown as {
        rows: { value: string }[];
      };
      expect(rows).toEqual([{ value: 'seeded' }]);
    } finally {
      await after.close();
    }
  }, 120_000);

  it('rejects when the seeding process fails, so the shop does not serve an unseeded database', async () => {
    await expect(
      seedInChildProcess({
        script: child,
        execArgv: ['--import', 'tsx'],
        environment: { ...process.env, FIXTURE_FAIL: '1' },
      }),
    ).rejects.toThrow('exited with 3');
  }, 30_000);

  it('knows the seeding process by its variable alone', () => {
    expect(isSeedProcess({ [SEED_PROCESS_VARIABLE]: '1' })).toBe(true);
    expect(isSeedProcess({})).toBe(false);
  });
});

describe('the serving database of a start (ADR 0070, 0085)', () => {
  const folders: Array<{ remove: () => void }> = [];
  afterAll(() => {
    for (const folder of folders) folder.remove();
  });

  /** openServingDatabase on a PGlite folder, with the fixture as the child; what happened, in order. */
  async function start(directory: string) {
    const events: string[] = [];
    const open = async (): Promise<DatabaseConnection> => {
      events.push('open');
      const connection = await openDatabase({ dataDir: directory });
      return {
        ...connection,
        // The shop's migrations are not what is tested here (and slow on PGlite): only when.
        migrate: async () => {
          events.push('migrate');
        },
        close: async () => {
          events.push('close');
          await connection.close();
        },
      };
    };
    const connection = await openServingDatabase({
      open,
      pgliteDirectory: directory,
      seedDemoData: true,
      runChild: async () => {
        events.push('child');
        await seedInChildProcess({
          script: child,
          execArgv: ['--import', 'tsx'],
          environment: { ...process.env, FIXTURE_DATA_DIR: directory },
        });
      },
      seeded: async (db: Database) =>
        rowsOf(await db.execute(sql`select 1 from marks where value = 'seeded'`)).length > 0,
    });
    try {
      const marks = rowsOf<{ value: string }>(await connection.db.execute(sql`select value from marks`));
      return { events: [...events], marks: marks.map((row) => row.value) };
    } finally {
      await connection.close();
    }
  }

  /** A PGlite folder with a database and a marks table holding `marks`. */
  async function existingDatabase(marks: string[]) {
    const folder = temporaryFolder('serving-database');
    folders.push(folder);
    const connection = await openDatabase({ dataDir: folder.path });
    await connection.db.execute(sql`create table marks (value text)`);
    for (const mark of marks) await connection.db.execute(sql`insert into marks (value) values (${mark})`);
    await connection.close();
    return folder.path;
  }

  it('a new PGlite folder is created, migrated and seeded by the child before the serving process opens it', async () => {
    const folder = temporaryFolder('serving-database');
    folders.push(folder);
    expect(isNewPgliteDirectory(folder.path)).toBe(true);

    const { events, marks } = await start(folder.path);

    expect(events).toEqual(['child', 'open', 'migrate']);
    expect(marks).toEqual(['seeded']);
    expect(isNewPgliteDirectory(folder.path)).toBe(false);
  }, 120_000);

  it('a seeded database is opened and migrated, with no child', async () => {
    const directory = await existingDatabase(['seeded']);

    const { events, marks } = await start(directory);

    expect(events).toEqual(['open', 'migrate']);
    expect(marks).toEqual(['seeded']);
  }, 120_000);

  it('a migrated database without the catalogue is let go of while the child seeds, then opened afresh', async () => {
    const directory = await existingDatabase([]);

    const { events, marks } = await start(directory);

    expect(events).toEqual(['open', 'migrate', 'close', 'child', 'open']);
    expect(marks).toEqual(['seeded']);
  }, 120_000);
});
