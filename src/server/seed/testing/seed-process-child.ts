/**
 * The child `seed-process.test.ts` starts: writes one row into the PGlite database in
 * `FIXTURE_DATA_DIR` (creating the database and its table when there are none yet), marked with
 * whether it knows itself to be the seeding process; fails on demand.
 */
import { sql } from 'drizzle-orm';
import { openDatabase } from '../../db/client.ts';
import { isSeedProcess } from '../seed-process.ts';

if (process.env.FIXTURE_FAIL === '1') process.exit(3);
const connection = await openDatabase({ dataDir: process.env.FIXTURE_DATA_DIR });
await connection.db.execute(sql`create table if not exists marks (value text)`);
await connection.db.execute(sql`insert into marks (value) values (${isSeedProcess() ? 'seeded' : 'plain'})`);
await connection.close();
