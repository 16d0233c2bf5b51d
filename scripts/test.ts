/**
 * Runs every test suite and ends with one line `N passed, N failed, N skipped`:
 *   1. unit and API tests on the embedded PGlite database, on this Node and once more on Node 24 LTS
 *      when NODE_24 names its binary (.ci/run installs it; the image runs Node 24, ADR 0028);
 *   2. the same database tests on PostgreSQL (TEST_DATABASE_URL, or the local server);
 *   3. browser journeys in Debian's Chromium against the built shop;
 *   4. load and fault tests: shop processes on PostgreSQL (and Redis) under mixed traffic, kill -9,
 *      a PostgreSQL restart and a fuzz pass over the API (tests/load, docs/decisions/0013).
 * Without PostgreSQL or Chromium the suite says it was skipped and why; with `--ci` that is a failure.
 * Each suite gets a temporary folder of its own (TMPDIR): a `vitrina-…` folder its tests leave there
 * counts as a failure, and the folder is removed after the suite, so a run leaves nothing behind.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

const ci = process.argv.includes('--ci');
const totals = { passed: 0, failed: 0, skipped: 0 };
const problems: string[] = [];

function vitest(name: string, args: string[], env: Record<string, string> = {}, node = process.execPath) {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'vitrina-suite-'));
  const temporary = path.join(scratch, 'tmp');
  mkdirSync(temporary);
  try {
    runVitest(name, args, { ...env, TMPDIR: temporary }, node, path.join(scratch, 'report.json'));
    const leftBehind = readdirSync(temporary).filter((entry) => entry.startsWith('vitrina-'));
    if (leftBehind.length > 0) {
      totals.failed += 1;
      problems.push(`${name}: tests left temporary folders behind: ${leftBehind.join(', ')}`);
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

function runVitest(name: string, args: string[], env: Record<string, string>, node: string, report: string) {
  console.log(`\n━━ ${name} ━━`);
  const run = spawnSync(
    node,
    [
      'node_modules/vitest/vitest.mjs',
      'run',
      ...args,
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${report}`,
    ],
    { stdio: 'inherit', env: { ...process.env, ...env } },
  );
  if (!existsSync(report)) {
    totals.failed += 1;
    problems.push(`${name}: the runner failed before reporting (exit ${run.status})`);
    return;
  }
  const result = JSON.parse(readFileSync(report, 'utf8')) as {
    numPassedTests: number;
    numFailedTests: number;
    numPendingTests: number;
    numTodoTests: number;
    success: boolean;
  };
  totals.passed += result.numPassedTests;
  totals.failed += result.numFailedTests;
  totals.skipped += result.numPendingTests + result.numTodoTests;
  if (!result.success && result.numFailedTests === 0) {
    totals.failed += 1;
    problems.push(`${name}: a test file failed to load or a hook failed`);
  }
}

function skip(name: string, why: string) {
  console.log(`\n━━ ${name} ━━\nskipped: ${why}`);
  totals.skipped += 1;
  if (ci) {
    totals.failed += 1;
    problems.push(`${name} was skipped in CI: ${why}`);
  }
}

async function postgresReachable(url: string): Promise<string | null> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query("select 'pg_trgm'::text");
    return null;
  } catch (error) {
    return (error as Error).message;
  } finally {
    await client.end().catch(() => {});
  }
}

vitest('Unit and API tests (PGlite)', []);

const node24 = process.env.NODE_24;
if (!node24 || !existsSync(node24)) {
  skip(
    'Unit and API tests on Node 24 (PGlite)',
    'NODE_24 does not name a Node 24 binary (.ci/run installs one)',
  );
} else {
  vitest('Unit and API tests on Node 24 (PGlite)', [], {}, node24);
}

const postgresUrl = process.env.TEST_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test';
const postgresProblem = await postgresReachable(postgresUrl);
if (postgresProblem) {
  skip(
    'Database tests on PostgreSQL',
    `cannot reach ${postgresUrl} (${postgresProblem}); set TEST_DATABASE_URL`,
  );
} else {
  vitest('Database tests on PostgreSQL', ['src/server'], { TEST_DATABASE_URL: postgresUrl });
}

let webAppBuilt: boolean | undefined;
/** Builds ./build once for the suites that serve pages; false (and counted as a failure) if it fails. */
function buildWebApp(): boolean {
  if (webAppBuilt === undefined) {
    console.log('\n━━ Building the web app ━━');
    webAppBuilt = spawnSync('npx', ['react-router', 'build'], { stdio: 'inherit' }).status === 0;
    if (!webAppBuilt) {
      totals.failed += 1;
      problems.push('the web app did not build');
    }
  }
  return webAppBuilt;
}

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(chromium)) {
  skip('Browser tests (Chromium)', `${chromium} is not installed (apt-get install chromium)`);
} else if (buildWebApp()) {
  vitest('Browser tests (Chromium)', ['--config', 'vitest.e2e.config.ts']);
}

if (postgresProblem) {
  skip('Load and fault tests', `cannot reach ${postgresUrl} (${postgresProblem}); set TEST_DATABASE_URL`);
} else if (buildWebApp()) {
  vitest('Load and fault tests (PostgreSQL)', ['--config', 'vitest.load.config.ts'], {
    TEST_DATABASE_URL: postgresUrl,
  });
}

for (const problem of problems) console.log(`problem: ${problem}`);
// Under CI, .ci/run adds its own checks and prints the one closing line.
const summary = `${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`;
console.log(ci ? `Suites summed: ${summary}` : summary);
process.exit(totals.failed > 0 ? 1 : 0);
