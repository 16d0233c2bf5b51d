import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon, { type Instance } from 'autocannon';
import pg from 'pg';
import { SERVER_ENTRY, SERVER_ENVIRONMENT, SERVER_NODE_FLAGS } from '../../scripts/build-server.ts';
import { type Child, freePort, startNodeServer, waitUntilReady } from '../processes.ts';
import {
  ADMIN_TARGET_MS,
  type AdminScreenResult,
  adminScreens,
  printAdminScreens,
  signInScaleAdmin,
  timeAdminScreens,
} from './admin.ts';
import { databaseUrl, SCALE_PRODUCTS, seedScaleCatalogue } from './seed.ts';
import { type PageUrls, pageUrls } from './urls.ts';

/**
 * The scale section of `npm run bench`: 100,000 products and 50,000 orders on PostgreSQL, then the
 * p50/p95/p99 latency of category, search and product pages (server-rendered HTML), every URL asked
 * for once so that every answer is a cache miss, and the load time of every back-office screen
 * (admin.ts). See bench/README.md.
 */

/** p95 of each page must stay under this many milliseconds. */
export const SCALE_TARGET_P95_MS = 50;
/** p95 of the suggestions while typing: they must keep up with the keys. */
export const SUGGESTIONS_TARGET_P95_MS = 30;

export interface ScaleSettings {
  /**
   * Requests in flight at once. One: each page's own time, from request to last byte, with no
   * queueing behind other requests (throughput under concurrency is what the ratio section measures).
   */
  connections: number;
  /** Measured requests per page kind. */
  requests: number;
  /** Requests per page kind before measuring, on URLs the measured run does not ask for. */
  warmup: number;
  /** Only these kinds (`--only search,suggestions`, `--only admin`); all when absent. */
  only?: Array<ScaleKind>;
}

export const SCALE_SETTINGS: ScaleSettings = { connections: 1, requests: 1000, warmup: 100 };
export const QUICK_SCALE_SETTINGS: ScaleSettings = { connections: 1, requests: 200, warmup: 50 };

export interface ScaleResult {
  id: keyof PageUrls;
  name: string;
  requests: number;
  /** Distinct URLs the run could draw from (each asked for at most once). */
  distinctUrls: number;
  requestsPerSecond: number;
  latencyMs: { p50: number; p95: number; p99: number; max: number };
  statusCodes: Record<string, number>;
  errors: number;
  problems: string[];
  targetP95Ms: number;
  pass: boolean;
}

/** A page kind, or `admin`: the back-office screens. */
export type ScaleKind = keyof PageUrls | 'admin';

export interface ScaleReport {
  products: number;
  orders: number;
  seedSeconds: number;
  settings: ScaleSettings;
  postgres: string;
  /** 1-minute load average of the machine before and after the measured runs: other work skews latency. */
  loadAverage: { before: string; after: string };
  results: ScaleResult[];
  /** Every back-office screen's load time (absent when `--only` left them out). */
  admin?: AdminScreenResult[];
}

const NAMES: Record<keyof PageUrls, string> = {
  category: 'SSR /category/:link?sort&page',
  search: 'SSR /search/:text?sort&page',
  suggestions: 'API /api/search/suggestions',
  product: 'SSR /product/:link',
};

const targetP95Ms = (id: keyof PageUrls) =>
  id === 'suggestions' ? SUGGESTIONS_TARGET_P95_MS : SCALE_TARGET_P95_MS;

/** The n-th percentile of sorted values (nearest rank). */
const percentile = (sorted: number[], n: number) =>
  sorted[Math.max(0, Math.ceil((n / 100) * sorted.length) - 1)] ?? 0;

let current: Instance | undefined;

/** Stops the load run in progress, if any (Ctrl-C). */
export const stopScaleLoad = () => current?.stop();

/**
 * Sends each of `urls` once, `connections` at a time, half with the English and half with the
 * Russian locale cookie (the locale is part of every cache key), and times each answer.
 */
async function measure(baseUrl: string, urls: string[], connections: number) {
  let next = 0;
  const times: number[] = [];
  const started = performance.now();
  current = autocannon({
    url: baseUrl,
    connections,
    amount: urls.length,
    timeout: 10,
    requests: [
      {
        method: 'GET',
        setupRequest: (request) => {
          const index = next++;
          return {
            ...request,
            path: urls[index % urls.length],
            headers: { cookie: `overlay-test-info=hidden; locale=${index % 2 === 0 ? 'en' : 'ru'}` },
          };
        },
      },
    ],
  });
  current.on('response', (_client, _status, _bytes, responseTime) => times.push(responseTime));
  try {
    const result = await current;
    return { result, times: times.sort((a, b) => a - b), seconds: (performance.now() - started) / 1000 };
  } finally {
    current = undefined;
  }
}

/** A PostgreSQL server to build the scale database on answers, or the reason it does not. */
export async function postgresAnswers(serverUrl: string): Promise<string | undefined> {
  const client = new pg.Client({
    connectionString: databaseUrl(serverUrl, 'postgres'),
    connectionTimeoutMillis: 3000,
  });
  try {
    await client.connect();
    await client.query('select 1');
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    await client.end().catch(() => {});
  }
}

export async function runScaleBench(options: {
  serverUrl: string;
  root: string;
  settings: ScaleSettings;
  log: (line: string) => void;
  /** Called with the shop process once started, so that the caller can stop it on Ctrl-C. */
  onChild?: (child: Child) => void;
}): Promise<ScaleReport> {
  const { settings, log } = options;
  log(`Seeding ${SCALE_PRODUCTS.toLocaleString('en-US')} products and their orders…`);
  const catalogue = await seedScaleCatalogue(options.serverUrl, { log });
  log(`  done in ${catalogue.seconds.toFixed(1)} s`);

  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'vitrina-scale-'));
  const port = await freePort();
  const shop = startNodeServer({
    name: 'The shop on the scale catalogue',
    script: SERVER_ENTRY,
    nodeFlags: SERVER_NODE_FLAGS,
    port,
    cwd: options.root,
    env: {
      ...SERVER_ENVIRONMENT,
      NODE_ENV: 'production',
      TEST_MODE: 'true',
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      SESSION_SECRET: 'bench-session-secret-that-is-long-enough-for-production-mode',
      DATABASE_URL: catalogue.url,
      SEED_DEMO_DATA: '0',
      // The back-office timings sign in with a password only; a required second factor would
      // answer their calls 403 (ADR 0055).
      ADMIN_TWO_FACTOR: 'optional',
    },
  });
  options.onChild?.(shop);
  try {
    await waitUntilReady(shop, `${shop.baseUrl}/api/initial?locale=en`, 120_000);
    const urls = await pageUrls(catalogue.url, settings.requests + settings.warmup);
    const loadBefore = os.loadavg()[0]?.toFixed(1) ?? '?';
    const results: ScaleResult[] = [];
    const kinds = settings.only ?? [...(Object.keys(NAMES) as Array<keyof PageUrls>), 'admin'];
    for (const id of kinds.filter((kind): kind is keyof PageUrls => kind !== 'admin')) {
      const all = urls[id];
      if (all.length < settings.requests + settings.warmup) {
        throw new Error(
          `only ${all.length} distinct ${id} URLs for ${settings.requests} + ${settings.warmup}`,
        );
      }
      // Warm-up: the JIT, the connection pool and PostgreSQL's buffers; the URLs are not measured.
      await measure(
        shop.baseUrl,
        all.slice(settings.requests, settings.requests + settings.warmup),
        settings.connections,
      );
      log(`  ${NAMES[id]} … `);
      const { result, times, seconds } = await measure(
        shop.baseUrl,
        all.slice(0, settings.requests),
        settings.connections,
      );
      const statusCodes = Object.fromEntries(
        Object.entries(result.statusCodeStats ?? {}).map(([code, { count }]) => [code, Number(count)]),
      );
      const problems: string[] = [];
      const wrong = Object.entries(statusCodes).filter(([code]) => !code.startsWith('2'));
      if (wrong.length > 0)
        problems.push(`non-2xx: ${wrong.map(([code, count]) => `${count}× ${code}`).join(', ')}`);
      if (result.errors > 0)
        problems.push(`${result.errors} connection errors (${result.timeouts} timeouts)`);
      const latencyMs = {
        p50: percentile(times, 50),
        p95: percentile(times, 95),
        p99: percentile(times, 99),
        max: times.at(-1) ?? 0,
      };
      results.push({
        id,
        name: NAMES[id],
        requests: times.length,
        distinctUrls: all.length,
        requestsPerSecond: times.length / seconds,
        latencyMs,
        statusCodes,
        errors: result.errors,
        problems,
        targetP95Ms: targetP95Ms(id),
        pass: problems.length === 0 && times.length > 0 && latencyMs.p95 < targetP95Ms(id),
      });
    }
    let admin: AdminScreenResult[] | undefined;
    if (kinds.includes('admin')) {
      log('  back-office screens …');
      admin = await timeAdminScreens(
        shop.baseUrl,
        await signInScaleAdmin(shop.baseUrl),
        await adminScreens(catalogue.url),
      );
    }
    return {
      products: catalogue.products,
      orders: catalogue.orders,
      seedSeconds: catalogue.seconds,
      settings,
      postgres: `${new URL(catalogue.url).host}/${new URL(catalogue.url).pathname.slice(1)}`,
      loadAverage: { before: loadBefore, after: os.loadavg()[0]?.toFixed(1) ?? '?' },
      results,
      ...(admin ? { admin } : {}),
    };
  } finally {
    await shop.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const fmt = (value: number) =>
  value.toLocaleString('en-US', { maximumFractionDigits: 1, minimumFractionDigits: 1 });

/** The latency table of a scale run. */
export function printScale(report: ScaleReport, print: (line: string) => void = console.log) {
  const header = ['Page', 'requests', 'req/s', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms', 'responses'];
  const rows = report.results.map((result) => [
    result.name,
    String(result.requests),
    fmt(result.requestsPerSecond),
    fmt(result.latencyMs.p50),
    fmt(result.latencyMs.p95),
    fmt(result.latencyMs.p99),
    fmt(result.latencyMs.max),
    result.problems.length > 0 ? `ERRORS: ${result.problems.join('; ')}` : 'ok',
  ]);
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => row[column]?.length ?? 0)),
  );
  const line = (cells: string[]) =>
    `  ${cells.map((cell, column) => (column === 0 || column === 7 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0))).join('  ')}`.trimEnd();
  if (rows.length > 0) {
    print(line(header));
    print(`  ${'-'.repeat(widths.reduce((sum, width) => sum + width + 2, -2))}`);
    for (const row of rows) print(line(row));
  }
  if (report.admin) {
    print('');
    printAdminScreens(report.admin, print);
  }
}

/** How the figures were taken, in one line above the table. */
export function describeScaleRun(report: ScaleReport) {
  const { connections, requests, warmup } = report.settings;
  return (
    `${report.products.toLocaleString('en-US')} products and ${report.orders.toLocaleString('en-US')} orders on PostgreSQL (${report.postgres}); ` +
    `${connections} request${connections === 1 ? '' : 's'} at a time, ${requests} per page kind after ${warmup} warm-up; ` +
    `each URL asked for once, so every page is a cache miss; load average ${report.loadAverage.before} before, ${report.loadAverage.after} after`
  );
}

/** One PASS/FAIL line per page, for the targets list. */
export const scaleTargetLines = (report: ScaleReport) => [
  ...report.results.map(
    (result) =>
      `${result.name.padEnd(32)} p95 ${fmt(result.latencyMs.p95)} ms < ${result.targetP95Ms} ms  ${result.pass ? 'PASS' : 'FAIL'}${result.problems.length > 0 ? ' (responses had errors)' : ''}`,
  ),
  ...(report.admin
    ? [
        `${'Back-office screens'.padEnd(32)} slowest ${fmt(Math.max(...report.admin.map((screen) => screen.maxMs)))} ms < ${ADMIN_TARGET_MS} ms  ${
          report.admin.every((screen) => screen.pass)
            ? 'PASS'
            : `FAIL (${report.admin
                .filter((screen) => !screen.pass)
                .map((screen) => screen.name)
                .join(', ')})`
        }`,
      ]
    : []),
];

/** The PostgreSQL server of the scale run: `--postgres`, else TEST_DATABASE_URL, else the local one. */
export const scaleServerUrl = (postgres: string | undefined) =>
  postgres ?? process.env.TEST_DATABASE_URL ?? 'postgres://127.0.0.1:5432/postgres';

/** `npm run bench:scale [-- --quick] [-- --postgres URL] [-- --only search,suggestions]`: the scale section alone. */
async function main() {
  const args = process.argv.slice(2);
  const at = args.indexOf('--postgres');
  const serverUrl = scaleServerUrl(at >= 0 ? args[at + 1] : undefined);
  const only = args.includes('--only') ? args[args.indexOf('--only') + 1]?.split(',') : undefined;
  const unknown = only?.filter((id) => !(id in NAMES) && id !== 'admin');
  if (unknown?.length)
    throw new Error(
      `--only names no page kind: ${unknown.join(', ')} (${[...Object.keys(NAMES), 'admin'].join(', ')})`,
    );
  const settings = {
    ...(args.includes('--quick') ? QUICK_SCALE_SETTINGS : SCALE_SETTINGS),
    ...(only ? { only: only as ScaleKind[] } : {}),
  };
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
  const unreachable = await postgresAnswers(serverUrl);
  if (unreachable)
    throw new Error(`PostgreSQL at ${new URL(serverUrl).host} does not answer: ${unreachable}`);
  const startedAt = new Date();
  let shop: Child | undefined;
  process.on('SIGINT', () => {
    stopScaleLoad();
    void shop?.stop().finally(() => process.exit(130));
  });
  const report = await runScaleBench({
    serverUrl,
    root,
    settings,
    log: console.log,
    onChild: (child) => {
      shop = child;
    },
  });
  console.log(`\n${describeScaleRun(report)}\n`);
  printScale(report);
  console.log('\nTargets');
  for (const line of scaleTargetLines(report)) console.log(`  ${line}`);
  const resultsDir = path.join(root, 'bench', 'results');
  mkdirSync(resultsDir, { recursive: true });
  const file = path.join(resultsDir, `${startedAt.toISOString().replace(/[:.]/g, '-')}-scale.json`);
  writeFileSync(file, `${JSON.stringify({ startedAt: startedAt.toISOString(), scale: report }, null, 2)}\n`);
  console.log(`\nAll figures: ${path.relative(root, file)}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(
        `\nThe scale bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
      process.exit(1);
    },
  );
}
