import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon, { type Instance, type Request } from 'autocannon';
import { type WalkSettings, walkShop } from './memory-walk.ts';
import { type Child, freePort, processTreeRss, sleep, startNodeServer, waitUntilReady } from './processes.ts';
import { databaseUrl, recreateDatabase } from './scale/seed.ts';

/**
 * The memory section of `npm run bench` (ADR 0029): the compiled server's resident memory idle and
 * after a minute of mixed traffic, on PGlite and on PostgreSQL, against the production issue's budget.
 */

export const MEMORY_BUDGET_MB = {
  /** Resident memory of an idle instance that has served nothing since it started. */
  idle: { pglite: 350, postgres: 250 },
  /** How far the traffic may leave it above idle. */
  growth: 150,
};

export interface MemorySettings {
  /** Seconds of mixed traffic. */
  seconds: number;
  connections: number;
  /** The long session's walk after it (memory-walk.ts). */
  walk: WalkSettings;
}

export const MEMORY_SETTINGS: MemorySettings = {
  seconds: 60,
  connections: 16,
  walk: { seconds: 300, browsers: 4 },
};
export const QUICK_MEMORY_SETTINGS: MemorySettings = {
  seconds: 15,
  connections: 16,
  walk: { seconds: 60, browsers: 4 },
};
/** How long the server is left alone after the walk before its memory counts as settled. */
const SETTLE_SECONDS = 30;
/** How long after the end of the demo seed a first start counts as settled (issue 32, point 7). */
export const FIRST_START_SETTLE_SECONDS = 60;
/** What the seeding child prints when it is done (main.ts). */
const SEEDED_LINE = 'Demo data seeded.';

/** What the process reports on /metrics (prom-client's default metrics), in MB. */
export interface MemorySample {
  rss: number;
  heapUsed: number;
  heapTotal: number;
  /** Buffers and other memory V8 knows of outside its heap. */
  external: number;
  /** PGlite's WebAssembly memory (0 on PostgreSQL). */
  pglite: number;
  /** The kept pages, and the catalogue cache's estimate of its answers. */
  pageCache: number;
  catalogCache: number;
}

/**
 * A newcomer's first start on an empty database, as `npm start` runs it (the server's Node flags,
 * no `MALLOC_ARENA_MAX`): the resident set of the shop and of every process it started (the
 * seeding child, ADR 0070 and 0085), sampled every second from its start until
 * FIRST_START_SETTLE_SECONDS after the seed ended.
 */
export interface FirstStartReport {
  /** The highest resident set seen, in MB, and when (seconds after the start). */
  peakRss: number;
  peakAt: number;
  /** Seconds after the start: the seeding child's last line, and the first ready answer. */
  seededAt: number;
  readyAt: number;
  /** FIRST_START_SETTLE_SECONDS after the seed ended: the shop with any child it keeps, in MB… */
  settledRss: number;
  processes: number;
  /** …and what the shop's /metrics said at that moment. */
  settled: MemorySample;
}

export interface MemoryReport {
  database: 'pglite' | 'postgres';
  settings: MemorySettings;
  /** The first start, which migrated and seeded the demo catalogue. */
  firstStart: FirstStartReport;
  /** Restarted on the seeded database, 10 s after it answered. */
  idle: MemorySample;
  /** Highest resident memory seen during the traffic (sampled every second). */
  peakRss: number;
  /** 5 s after the traffic ended. */
  after: MemorySample;
  /** The long session: many browsers on ever new addresses, then left alone. */
  walk: {
    settings: WalkSettings;
    /** The sample with the highest resident memory during the walk. */
    peak: MemorySample;
    /** SETTLE_SECONDS after the walk ended. */
    settled: MemorySample;
    requests: number;
    /** Answered 5xx, or not at all. */
    failures: number;
  };
  requests: number;
  requestsPerSecond: number;
  statusCodes: Record<string, number>;
  errors: number;
  budget: { idle: number; growth: number };
  pass: boolean;
  problems: string[];
}

const SESSION_SECRET = 'bench-session-secret-that-is-long-enough-for-production-mode';
const ADMIN = { email: 'memory-bench@vitrina.example', password: 'memory-bench-password' };
const SHOP_COOKIE = 'overlay-test-info=hidden; locale=en';
/** Its own database on the PostgreSQL server, made afresh for each run. */
const MEMORY_DATABASE = 'vitrina_bench_memory';

const megabytes = (bytes: number) => Math.round(bytes / 2 ** 20);

async function sample(baseUrl: string): Promise<MemorySample> {
  const text = await (await fetch(`${baseUrl}/metrics`)).text();
  const metric = (name: string) => {
    const line = text.split('\n').find((each) => each.startsWith(`${name} `));
    if (!line) throw new Error(`/metrics has no ${name}`);
    return megabytes(Number(line.split(' ')[1]));
  };
  return {
    rss: metric('process_resident_memory_bytes'),
    heapUsed: metric('nodejs_heap_size_used_bytes'),
    heapTotal: metric('nodejs_heap_size_total_bytes'),
    external: metric('nodejs_external_memory_bytes'),
    pglite: metric('vitrina_pglite_memory_bytes'),
    pageCache: metric('vitrina_page_cache_bytes'),
    catalogCache: metric('vitrina_catalog_cache_bytes'),
  };
}

/** Signs the bench's admin in and returns the session cookie. */
async function signIn(baseUrl: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: SHOP_COOKIE },
    body: JSON.stringify({ ...ADMIN, remember: 1 }),
  });
  const session = response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0] ?? '')
    .find((pair) => pair.startsWith('vitrina.sid='));
  if (!response.ok || !session) throw new Error(`/api/login answered ${response.status} with no session`);
  return session;
}

/**
 * A shop's traffic: anonymous visitors on the catalogue pages (mostly the page cache), signed-in
 * shoppers on the same pages and their own (each one rendered), and API calls. Every connection goes
 * through the list in turn.
 */
async function mixedTraffic(baseUrl: string, session: string): Promise<Request[]> {
  const initial = (await (await fetch(`${baseUrl}/api/initial?locale=en`)).json()) as {
    week?: Array<{ link: string }>;
    categories?: Array<{ link: string }>;
    projects?: Array<{ link: string }>;
  };
  const products = (initial.week ?? []).map((each) => `/product/${encodeURIComponent(each.link)}`);
  const lists = [
    ...(initial.categories ?? []).map((each) => `/category/${encodeURIComponent(each.link)}`),
    ...(initial.projects ?? []).map((each) => `/project/${encodeURIComponent(each.link)}`),
  ];
  if (products.length === 0 || lists.length === 0) throw new Error('/api/initial lists no products or lists');
  const anonymous = { cookie: SHOP_COOKIE, 'accept-encoding': 'gzip, deflate, br' };
  const signedIn = { cookie: `${SHOP_COOKIE}; ${session}` };
  const get = (requestPath: string, headers: Record<string, string>): Request => ({
    method: 'GET',
    path: requestPath,
    headers,
  });
  const pages = ['/', ...lists, ...products, '/search/figure', '/search/poster'];
  return [
    ...pages.map((page) => get(page, anonymous)),
    ...pages.map((page) => get(page, signedIn)),
    ...['/cart', '/wishlist', '/profile', '/order/history'].map((page) => get(page, signedIn)),
    get('/api/initial?locale=en', anonymous),
    ...products.map((page) =>
      get(`/api/product?locale=en&link=${page.slice('/product/'.length)}`, anonymous),
    ),
    get('/api/search?locale=en&search=figure', anonymous),
    get('/api/basket', signedIn),
    get('/api/wishlist', signedIn),
    get('/api/user', signedIn),
  ];
}

/** Samples `shop`, started a moment ago on an empty database, as FirstStartReport says. */
async function measureFirstStart(shop: Child): Promise<FirstStartReport> {
  const started = Date.now();
  const pid = shop.process.pid;
  if (pid === undefined) throw new Error(`${shop.name} has no process id`);
  const seconds = () => Math.round((Date.now() - started) / 100) / 10;
  let peak = { rss: 0, at: 0 };
  let seededAt: number | undefined;
  const tick = () => {
    const each = processTreeRss(pid);
    if (each.rss > peak.rss) peak = { rss: each.rss, at: seconds() };
    if (seededAt === undefined && shop.output().includes(SEEDED_LINE)) seededAt = seconds();
    return each;
  };
  tick();
  const sampling = setInterval(tick, 1000);
  try {
    await waitUntilReady(shop, `${shop.baseUrl}/health/ready`, 600_000);
    const readyAt = seconds();
    tick();
    if (seededAt === undefined) throw new Error(`${shop.name} became ready without "${SEEDED_LINE}"`);
    await sleep(Math.max(0, started + (seededAt + FIRST_START_SETTLE_SECONDS) * 1000 - Date.now()));
    const last = tick();
    const settled = await sample(shop.baseUrl);
    return {
      peakRss: peak.rss,
      peakAt: peak.at,
      seededAt,
      readyAt,
      settledRss: last.rss,
      processes: last.processes,
      settled,
    };
  } finally {
    clearInterval(sampling);
  }
}

let current: Instance | undefined;

/** Stops the traffic in progress, if any (Ctrl-C). */
export const stopMemoryLoad = () => current?.stop();

/** Sends `requests` round and round for `settings.seconds`, noting the server's peak memory. */
async function traffic(baseUrl: string, requests: Request[], settings: MemorySettings) {
  let peakRss = 0;
  const sampling = setInterval(() => {
    sample(baseUrl).then(
      (each) => {
        peakRss = Math.max(peakRss, each.rss);
      },
      () => {},
    );
  }, 1000);
  try {
    current = autocannon({
      url: baseUrl,
      connections: settings.connections,
      duration: settings.seconds,
      timeout: 10,
      requests,
    });
    const result = await current;
    return { result, peakRss };
  } finally {
    clearInterval(sampling);
    current = undefined;
  }
}

/**
 * Starts `script` (the compiled server) on a fresh database: the first start seeds it; then a restart
 * on the same data, idle for 10 s; then the traffic.
 */
export async function measureMemory(options: {
  root: string;
  script: string;
  nodeFlags: readonly string[];
  /** Variables the server runs with in production, besides the bench's own. */
  environment: Record<string, string>;
  /** A PostgreSQL server to make the database on; PGlite in a temp folder without it. */
  postgres?: string | undefined;
  settings: MemorySettings;
  log: (line: string) => void;
  onChild?: (child: Child) => void;
}): Promise<MemoryReport> {
  const { settings, log } = options;
  const database = options.postgres ? 'postgres' : 'pglite';
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'vitrina-memory-'));
  if (options.postgres) await recreateDatabase(options.postgres, MEMORY_DATABASE);
  const port = await freePort();
  let shop: Child | undefined;
  const start = (name: string, environment: Record<string, string>) => {
    shop = startNodeServer({
      name,
      script: options.script,
      nodeFlags: options.nodeFlags,
      port,
      cwd: options.root,
      env: {
        ...environment,
        NODE_ENV: 'production',
        TEST_MODE: 'true',
        LOG_LEVEL: 'warn',
        DATA_DIR: dataDir,
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        SESSION_SECRET,
        DATABASE_URL: options.postgres ? databaseUrl(options.postgres, MEMORY_DATABASE) : '',
        ADMIN_EMAIL: ADMIN.email,
        ADMIN_PASSWORD: ADMIN.password,
        // The traffic comes from one address.
        RATE_LIMIT_MULTIPLIER: '10000',
        ADMIN_TWO_FACTOR: 'optional',
      },
    });
    options.onChild?.(shop);
    return shop;
  };
  try {
    // As `npm start` runs it: the same Node flags, without the image's MALLOC_ARENA_MAX.
    const first = start(`The shop (${database}, first start)`, {});
    log(`  first start on an empty database, until ${FIRST_START_SETTLE_SECONDS} s after the seed…`);
    const firstStart = await measureFirstStart(first);
    await first.stop();

    const restarted = start(`The shop (${database})`, options.environment);
    await waitUntilReady(restarted, `${restarted.baseUrl}/health/ready`, 120_000);
    await sleep(10_000);
    const idle = await sample(restarted.baseUrl);
    log(`  idle: ${idle.rss} MB`);

    const adminSession = await signIn(restarted.baseUrl);
    const requests = await mixedTraffic(restarted.baseUrl, adminSession);
    log(
      `  ${settings.seconds} s of mixed traffic (${requests.length} addresses, ${settings.connections} connections)…`,
    );
    const { result, peakRss } = await traffic(restarted.baseUrl, requests, settings);
    await sleep(5_000);
    const after = await sample(restarted.baseUrl);

    log(
      `  a long session: ${settings.walk.seconds} s of ${settings.walk.browsers} browsers on ever new addresses…`,
    );
    let peak = after;
    const walked = await walkShop(restarted.baseUrl, adminSession, SHOP_COOKIE, settings.walk, async () => {
      const each = await sample(restarted.baseUrl);
      if (each.rss > peak.rss) peak = each;
    });
    await sleep(SETTLE_SECONDS * 1000);
    const settled = await sample(restarted.baseUrl);
    await restarted.stop();

    const statusCodes: Record<string, number> = {};
    for (const [code, count] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = count.count;
    const budget = { idle: MEMORY_BUDGET_MB.idle[database], growth: MEMORY_BUDGET_MB.growth };
    const problems: string[] = [];
    if (result.non2xx > 0) problems.push(`${result.non2xx} answers not 2xx`);
    if (result.errors > 0) problems.push(`${result.errors} connection errors`);
    if (walked.failures > 0) problems.push(`${walked.failures} walk requests answered 5xx or not at all`);
    return {
      database,
      settings,
      firstStart,
      idle,
      peakRss,
      after,
      walk: { settings: settings.walk, peak, settled, ...walked },
      requests: result.requests.total,
      requestsPerSecond: Math.round(result.requests.average),
      statusCodes,
      errors: result.errors,
      budget,
      pass:
        problems.length === 0 &&
        firstStart.settledRss <= budget.idle &&
        idle.rss <= budget.idle &&
        Math.max(after.rss, peak.rss, settled.rss) - idle.rss <= budget.growth,
      problems,
    };
  } finally {
    await shop?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export function memoryLines(report: MemoryReport): string[] {
  const mb = (each: MemorySample) =>
    `${each.rss} MB (heap ${each.heapUsed}/${each.heapTotal} MB, external ${each.external} MB, ` +
    `PGlite ${each.pglite} MB; kept pages ${each.pageCache} MB, catalogue answers ${each.catalogCache} MB)`;
  const { walk, firstStart } = report;
  return [
    `first start  peak ${firstStart.peakRss} MB at ${firstStart.peakAt} s (the shop and its seeding child; seeded at ${firstStart.seededAt} s, ready at ${firstStart.readyAt} s)`,
    `             ${FIRST_START_SETTLE_SECONDS} s after seeding ${firstStart.settledRss} MB in ${firstStart.processes} process${firstStart.processes === 1 ? '' : 'es'}: ${mb(firstStart.settled)}`,
    `idle         ${mb(report.idle)}`,
    `after        ${mb(report.after)}, peak ${report.peakRss} MB during ${report.requests.toLocaleString('en-US')} requests (${report.requestsPerSecond} req/s)`,
    `walk peak    ${mb(walk.peak)}, ${walk.requests.toLocaleString('en-US')} requests in ${walk.settings.seconds} s`,
    `settled      ${mb(walk.settled)}, ${SETTLE_SECONDS} s after the walk`,
    ...(report.problems.length > 0 ? [`ERRORS: ${report.problems.join('; ')}`] : []),
  ];
}

export function memoryTargetLines(report: MemoryReport): string[] {
  const idleOk = report.idle.rss <= report.budget.idle;
  const growth = report.after.rss - report.idle.rss;
  const growthOk = growth <= report.budget.growth;
  const clean = report.problems.length === 0 ? '' : ' (responses had errors)';
  const walkGrowth = Math.max(report.walk.peak.rss, report.walk.settled.rss) - report.idle.rss;
  const walkOk = walkGrowth <= report.budget.growth;
  const { firstStart } = report;
  const firstOk = firstStart.settledRss <= report.budget.idle;
  return [
    `memory first start (${report.database})`.padEnd(32) +
      ` peak ${firstStart.peakRss} MB, ${FIRST_START_SETTLE_SECONDS} s after seeding ${firstStart.settledRss} MB ≤ ${report.budget.idle} MB  ${firstOk ? 'PASS' : 'FAIL'}`,
    `memory idle (${report.database})`.padEnd(32) +
      ` ${report.idle.rss} MB ≤ ${report.budget.idle} MB  ${idleOk ? 'PASS' : 'FAIL'}`,
    `memory after traffic (${report.database})`.padEnd(32) +
      ` +${growth} MB ≤ +${report.budget.growth} MB  ${growthOk && clean === '' ? 'PASS' : 'FAIL'}${clean}`,
    `memory long session (${report.database})`.padEnd(32) +
      ` peak ${report.walk.peak.rss} MB, settled ${report.walk.settled.rss} MB: +${walkGrowth} MB ≤ +${report.budget.growth} MB  ${walkOk && clean === '' ? 'PASS' : 'FAIL'}${clean}`,
  ];
}
