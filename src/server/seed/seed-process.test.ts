import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/client.ts';
import { isSeedProcess, SEED_PROCESS_VARIABLE, seedInChildProcess } from './seed-process.ts';

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
  }, 60_000);

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
