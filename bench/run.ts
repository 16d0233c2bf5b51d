import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVER_ENTRY, SERVER_ENVIRONMENT, SERVER_NODE_FLAGS } from '../scripts/build-server.ts';
import { type HotResult, hotLine, hotRound } from './hot.ts';
import {
  auditPage,
  CATEGORIES,
  chromeUnavailable,
  killChrome,
  LIGHTHOUSE_TARGETS,
  type PageAudit,
} from './lighthouse.ts';
import {
  type LoadResult,
  type LoadSettings,
  type LoadTarget,
  runLoad,
  SETTLED,
  stopLoad,
  WARMUP_WINDOW_SECONDS,
} from './load.ts';
import {
  MEMORY_SETTINGS,
  type MemoryReport,
  measureMemory,
  memoryLines,
  memoryTargetLines,
  QUICK_MEMORY_SETTINGS,
  stopMemoryLoad,
} from './memory.ts';
import { createShoppers, editProduct, type OrderPlacer, placeOrders, signIn } from './orders.ts';
import {
  measurePageScripts,
  type PageScripts,
  pageScriptLines,
  productScriptsTargetLine,
} from './page-scripts.ts';
import { type Child, freePort, killAllNow, startNodeServer, waitUntilReady } from './processes.ts';
import {
  describeScaleRun,
  postgresAnswers,
  printScale,
  QUICK_SCALE_SETTINGS,
  runScaleBench,
  SCALE_SETTINGS,
  type ScaleReport,
  scaleServerUrl,
  scaleTargetLines,
  stopScaleLoad,
} from './scale/run.ts';
import { databaseUrl, recreateDatabase } from './scale/seed.ts';

/**
 * `npm run bench`: load-tests the built shop against a bare Fastify baseline with autocannon,
 * then audits three pages with Lighthouse. See bench/README.md for how to read the output.
 */

const HELP = `Usage: npm run bench -- [options]

  --quick           2 s per load test and no warm-up (smoke test; figures are rough)
  --no-lighthouse   skip the Lighthouse audits
  --postgres URL    run the shop on this PostgreSQL database instead of a fresh PGlite one
                    (and build the scale catalogue on the same server)
  --no-scale        skip the scale section (100,000 products on PostgreSQL; it runs when
                    --postgres, TEST_DATABASE_URL or a local PostgreSQL answers)
  --memory          only the memory section: idle and after-traffic memory on PGlite, and on
                    PostgreSQL when --postgres, TEST_DATABASE_URL or a local PostgreSQL answers
  --no-memory       skip the memory section
  --walk-seconds N  the memory section's long browser session for N seconds (default 300,
                    --quick 60)
  --drop            only the drop rows (with the baseline): the cached product page while 10
                    orders a second are placed or while staff save it 5 times a second, and the
                    signed-in product page
  --rows ID,ID      only these load rows (with the baseline), by their id in the results file,
                    e.g. api-product,ssr-product-cached; no Lighthouse, memory or scale section
  --pages           only the page section: the scripts home, category and product pages load,
                    and their Lighthouse audits (no load tests, memory or scale section)
  --hot             only the hot product rows: 200 signed-in shoppers order the same product at
                    the same moment, with stock for all (the shop's first orders since its start,
                    then again) and with 50 units (PostgreSQL)
  --hot-reuse       the hot rows on the database an earlier --hot run seeded (new shoppers)
  --hot-instances N the hot rows with the shoppers spread over N instances of the shop on the
                    one database (default 1); BENCH_HOT_DATABASE names that database
  --help            this text`;

interface Options {
  quick: boolean;
  lighthouse: boolean;
  scale: boolean;
  memory: 'also' | 'only' | 'no';
  postgres: string | undefined;
  /** Only the baseline and the drop rows; no Lighthouse, memory or scale section. */
  drop: boolean;
  /** Only the page section: the scripts pages load and the Lighthouse audits. */
  pages: boolean;
  /** Only the hot product rows; on the database an earlier run seeded when 'reuse'. */
  hot: false | 'fresh' | 'reuse';
  /** The memory section's long session, when not its default. */
  walkSeconds: number | undefined;
  /** Instances of the shop the hot rows' shoppers are spread over. */
  hotInstances: number;
  /** Only these load rows (and the baseline). */
  rows: string[] | undefined;
}

function parseOptions(argv: string[]): Options {
  const options: Options = {
    quick: false,
    lighthouse: true,
    scale: true,
    memory: 'also',
    postgres: undefined,
    drop: false,
    pages: false,
    hot: false,
    walkSeconds: undefined,
    hotInstances: 1,
    rows: undefined,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--quick') options.quick = true;
    else if (arg === '--no-lighthouse') options.lighthouse = false;
    else if (arg === '--no-scale') options.scale = false;
    else if (arg === '--memory') options.memory = 'only';
    else if (arg === '--no-memory') options.memory = 'no';
    else if (arg === '--drop')
      Object.assign(options, { drop: true, lighthouse: false, scale: false, memory: 'no' });
    else if (arg === '--pages') Object.assign(options, { pages: true, scale: false, memory: 'no' });
    else if (arg === '--hot') options.hot = 'fresh';
    else if (arg === '--hot-reuse') options.hot = 'reuse';
    else if (arg === '--walk-seconds') {
      const value = Number(argv[++i]);
      if (!Number.isInteger(value) || value < 1) fail('--walk-seconds needs a whole number of seconds');
      options.walkSeconds = value;
    } else if (arg === '--hot-instances') {
      const value = Number(argv[++i]);
      if (!Number.isInteger(value) || value < 1)
        fail('--hot-instances needs a whole number of instances ≥ 1');
      options.hotInstances = value;
    } else if (arg === '--rows') {
      const value = argv[++i];
      if (!value || value.startsWith('--')) fail('--rows needs row ids, e.g. api-product,ssr-product-cached');
      Object.assign(options, { rows: value.split(','), lighthouse: false, scale: false, memory: 'no' });
    } else if (arg === '--postgres') {
      const value = argv[++i];
      if (!value || value.startsWith('--')) fail('--postgres needs a connection URL, e.g. postgres://…');
      options.postgres = value;
    } else if (arg.startsWith('--postgres=')) options.postgres = arg.slice('--postgres='.length);
    else if (arg === '--help' || arg === '-h') {
      console.log(HELP);
      process.exit(0);
    } else fail(`Unknown option ${arg}\n\n${HELP}`);
  }
  return options;
}

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

/** A load target, with what runs beside it while it is measured. */
type BenchTarget = LoadTarget & {
  background?: () => OrderPlacer;
  /** What the background does, as in "… orders/s placed": a plural noun and a participle. */
  backgroundWork?: string;
  /**
   * Stops what only this row needed once it is measured: the drop shop, whose queued mails would
   * otherwise go out during the rows and audits that follow.
   */
  after?: () => Promise<void>;
};

/**
 * Ratio of a target's req/s to the baseline `/json` req/s that it must reach. The uncached
 * anonymous render (`ssr-product`) is measured but no longer a target (design.md, "Quality bars").
 */
const RATIO_TARGETS: Record<string, number> = {
  'api-product': 0.2,
  'ssr-product-cached': 0.2,
  'ssr-product-during-orders': 0.1,
  'ssr-product-during-staff-writes': 0.1,
  'ssr-product-signed-in': 0.015,
};
/** p99 latency (ms) a target must stay under at the bench's 32 connections. */
const P99_TARGETS: Record<string, number> = { 'ssr-product-signed-in': 150 };
/** Orders placed a second in the background of the drop row. */
const DROP_ORDERS_PER_SECOND = 10;
/** Saves of the product a second by a staff member in the background of the staff writes row. */
const STAFF_WRITES_PER_SECOND = 5;
/** The account the bench's shop is seeded with: it signs in for the signed-in rows and places the orders. */
const BENCH_ACCOUNT = { email: 'bench@vitrina.example', password: 'bench-account-password' };
/** Sent with every shop request: hides the test-mode notice and fixes the language. */
const SHOP_COOKIE = 'overlay-test-info=hidden; locale=en';
/**
 * The "rendered" rows: a visitor with a session asking for the page a plain form sends its visitor
 * back to (`?added=`, ADR 0048), which is rendered for that visitor and never kept: the figures of
 * a full render with the session's reads, as for the foundation issue's "uncached" page.
 */
const SESSION_COOKIE = `${SHOP_COOKIE}; vitrina.sid=bench-visitor-with-a-session`;
const RENDERED = '?added=0';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const children: Child[] = [];
let dataDir: string | undefined;

async function cleanUp() {
  stopLoad();
  stopScaleLoad();
  stopMemoryLoad();
  killChrome();
  await Promise.all(children.map((child) => child.stop()));
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  dataDir = undefined;
}

let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (interrupted) return;
    interrupted = true;
    console.error(`\n${signal}: stopping the servers…`);
    void cleanUp().finally(() => process.exit(130));
  });
}
// Last resort (uncaught errors, process.exit): never leave servers or Chromium behind.
process.on('exit', () => {
  killChrome();
  killAllNow();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const fmt = (value: number, digits = 0) =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

function gitRevision() {
  try {
    const git = (...args: string[]) =>
      execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const commit = git('rev-parse', '--short', 'HEAD');
    const dirty = git('status', '--porcelain') !== '';
    return `${commit}${dirty ? ' (uncommitted changes)' : ''}`;
  } catch {
    return undefined;
  }
}

/** One plain request first, so that a broken URL is reported clearly rather than as 100% non-2xx. */
async function probe(target: LoadTarget) {
  const response = await fetch(target.url, { headers: target.headers, redirect: 'manual' });
  await response.arrayBuffer();
  return response.status;
}

function printTable(results: LoadResult[], baseline: number) {
  const rows = results.map((result) => ({
    name: result.name,
    rps: fmt(result.requestsPerSecond),
    p99: fmt(result.latencyMs.p99),
    ratio: baseline > 0 ? (result.requestsPerSecond / baseline).toFixed(3) : 'n/a',
    cpu: `${micros(result.cpuMicrosPerRequest.server)} / ${micros(result.cpuMicrosPerRequest.client)}`,
    status: result.problems.length > 0 ? `ERRORS: ${result.problems.join('; ')}` : 'ok',
  }));
  const header = {
    name: 'Test',
    rps: 'req/s',
    p99: 'p99 ms',
    ratio: 'ratio',
    cpu: 'CPU µs/req server / bench',
    status: 'responses',
  };
  const width = (key: keyof typeof header) =>
    Math.max(header[key].length, ...rows.map((row) => row[key].length));
  const w = {
    name: width('name'),
    rps: width('rps'),
    p99: width('p99'),
    ratio: width('ratio'),
    cpu: width('cpu'),
  };
  const line = (row: typeof header) =>
    `  ${row.name.padEnd(w.name)}  ${row.rps.padStart(w.rps)}  ${row.p99.padStart(w.p99)}  ${row.ratio.padStart(w.ratio)}  ${row.cpu.padStart(w.cpu)}  ${row.status}`;
  console.log(line(header));
  console.log(`  ${'-'.repeat(w.name + w.rps + w.p99 + w.ratio + w.cpu + 10 + 'responses'.length)}`);
  for (const row of rows) console.log(line(row));
}

const micros = (value: number | undefined) => (value === undefined ? 'n/a' : value.toFixed(0));

function ratioLine(ratio: { name: string; ratio: number; target: number; pass: boolean; clean: boolean }) {
  return `${ratio.name.padEnd(32)} ratio ${ratio.ratio.toFixed(3)} ≥ ${ratio.target}  ${ratio.pass ? 'PASS' : 'FAIL'}${ratio.clean ? '' : ' (responses had errors)'}`;
}

function printAudit(audit: PageAudit) {
  console.log(`\n  ${audit.name}  ${audit.url}`);
  if (audit.finalUrl && audit.finalUrl !== audit.url) console.log(`    (ended on ${audit.finalUrl})`);
  if (audit.runtimeError) console.log(`    RUNTIME ERROR ${audit.runtimeError}`);
  for (const category of audit.categories) {
    const score = category.score === null ? '—' : String(category.score);
    const target = category.target === 100 ? '= 100' : `≥ ${category.target}`;
    console.log(
      `    ${category.id.padEnd(15)} ${score.padStart(3)}  (target ${target})  ${category.pass ? 'PASS' : 'FAIL'}`,
    );
    for (const failing of category.failing) {
      const score = failing.score === null ? 'error' : `score ${failing.score}`;
      const weight = failing.weight > 0 ? `, weight ${failing.weight}` : '';
      const value = failing.displayValue ? ` — ${failing.displayValue}` : '';
      console.log(`        ✗ ${failing.id}: ${failing.title}${value}  [${score}${weight}]`);
      if (failing.error) console.log(`            error: ${failing.error}`);
      for (const example of failing.examples) console.log(`            · ${example}`);
    }
  }
  const metrics = Object.entries(audit.metrics)
    .filter(([, metric]) => metric.displayValue)
    .map(([id, metric]) => `${id} ${metric.displayValue}`)
    .join(', ');
  if (metrics) console.log(`    metrics: ${metrics}`);
  if (audit.externalRequests.length > 0) {
    console.log(
      `    requests outside the shop (blocked in this offline run): ${audit.externalRequests.join(', ')}`,
    );
  }
  console.log(
    `    scripts the browser downloaded: ${audit.scripts.count}, ${(audit.scripts.transferBytes / 1000).toFixed(1)} kB as sent`,
  );
  if (audit.benchmarkIndex)
    console.log(`    CPU benchmark index of this machine: ${Math.round(audit.benchmarkIndex)}`);
  for (const warning of audit.runWarnings) console.log(`    warning: ${warning}`);
}

/** Starts the compiled shop in test mode on a fresh PGlite folder, or on `databaseUrl`. */
function startShop(name: string, port: number, databaseUrl: string | undefined) {
  const shop = startNodeServer({
    name,
    script: SERVER_ENTRY,
    // BENCH_SHOP_FLAGS adds node flags to the shop's (e.g. --cpu-prof, which NODE_OPTIONS refuses).
    nodeFlags: [...SERVER_NODE_FLAGS, ...(process.env.BENCH_SHOP_FLAGS?.split(' ').filter(Boolean) ?? [])],
    port,
    cwd: root,
    env: {
      ...SERVER_ENVIRONMENT,
      NODE_ENV: 'production',
      TEST_MODE: 'true',
      LOG_LEVEL: 'warn',
      DATA_DIR: mkdtempSync(path.join(dataDir ?? os.tmpdir(), 'shop-')),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      SESSION_SECRET: 'bench-session-secret-that-is-long-enough-for-production-mode',
      DATABASE_URL: databaseUrl ?? '',
      ADMIN_EMAIL: BENCH_ACCOUNT.email,
      ADMIN_PASSWORD: BENCH_ACCOUNT.password,
      // The order placer and the signed-in rows are one account asking far faster than a person.
      RATE_LIMIT_MULTIPLIER: '1000',
      ADMIN_TWO_FACTOR: 'optional',
    },
  });
  children.push(shop);
  return shop;
}

/**
 * How long a shop may take to seed its demo data and answer: on a machine shared with other work
 * the first start has taken over 3 minutes.
 */
const SHOP_START_MS = 600_000;

/** How many shoppers place the drop row's orders when the bench can create them. */
const DROP_SHOPPERS = 3;
/** The database the drop row's shop runs on, when it is not the bench's own shop's. */
const DROP_DATABASE = 'vitrina_bench_drop';

/**
 * The shop the drop row places its orders on. A drop happens in production, on PostgreSQL; on
 * PGlite the database runs on the shop's own thread, so every order's queries would be taken from
 * the pages. When the bench's shop is on PGlite and a PostgreSQL answers, a second shop on a fresh
 * database of it takes the row; else the bench's own shop, named in the row.
 */
async function shopForOrders(
  options: Options,
  benchShop: string,
): Promise<{ baseUrl: string; database: string; databaseUrl?: string; stop?: () => Promise<void> }> {
  if (options.postgres) return { baseUrl: benchShop, database: 'PostgreSQL', databaseUrl: options.postgres };
  const serverUrl = scaleServerUrl(undefined);
  const unreachable = await postgresAnswers(serverUrl);
  if (unreachable) return { baseUrl: benchShop, database: 'PGlite' };
  await recreateDatabase(serverUrl, DROP_DATABASE);
  const url = databaseUrl(serverUrl, DROP_DATABASE);
  const shop = startShop('The drop shop', await freePort(), url);
  await waitUntilReady(shop, `${shop.baseUrl}/api/initial?locale=en`, SHOP_START_MS);
  return { baseUrl: shop.baseUrl, database: 'PostgreSQL', databaseUrl: url, stop: shop.stop };
}

/**
 * The shoppers who place the drop row's orders, signed in: a few, as a drop's orders come from
 * many people at once and each shopper's orders follow one another. On PGlite, where nothing but
 * the shop reaches its database, the bench's account alone.
 */
async function dropShoppers(dropShop: { baseUrl: string; databaseUrl?: string }) {
  const emails = dropShop.databaseUrl
    ? await createShoppers(dropShop.databaseUrl, DROP_SHOPPERS, BENCH_ACCOUNT.password)
    : [BENCH_ACCOUNT.email];
  return Promise.all(
    emails.map(
      async (email) =>
        `${SHOP_COOKIE}; ${await signIn(dropShop.baseUrl, SHOP_COOKIE, email, BENCH_ACCOUNT.password)}`,
    ),
  );
}

/** How many shoppers order the hot product at the same moment. */
const HOT_SHOPPERS = 200;
/** The database the hot rows' shop runs on (BENCH_HOT_DATABASE names another, e.g. one per developer). */
const HOT_DATABASE = process.env.BENCH_HOT_DATABASE || 'vitrina_bench_hot';

/**
 * The hot product rows (issue 32): on a shop of its own on a fresh PostgreSQL database, 200
 * signed-in shoppers with the same product in their baskets place their orders at once; first with
 * stock for every one of them, then with 50 units (exactly 50 must be placed).
 */
async function hotSection(options: Options) {
  const serverUrl = options.postgres ?? scaleServerUrl(undefined);
  const unreachable = await postgresAnswers(serverUrl);
  if (unreachable) fail(`The hot product rows need PostgreSQL: ${unreachable}`);
  if (options.hot !== 'reuse') await recreateDatabase(serverUrl, HOT_DATABASE);
  const url = databaseUrl(serverUrl, HOT_DATABASE);
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'vitrina-bench-'));
  const shop = startShop('The hot product shop', await freePort(), url);
  console.log(
    `Hot product rows — ${new Date().toISOString()}, ${os.cpus().length} CPUs, load average ${os
      .loadavg()
      .map((load) => load.toFixed(1))
      .join(' ')}`,
  );
  // Seeding a fresh database takes minutes on a busy machine.
  await waitUntilReady(shop, `${shop.baseUrl}/api/initial?locale=en`, 900_000);
  // More instances on the same database, started once the first has seeded it.
  const shops = [shop];
  for (let instance = 2; instance <= options.hotInstances; instance += 1) {
    const more = startShop(`The hot product shop ${instance}`, await freePort(), url);
    await waitUntilReady(more, `${more.baseUrl}/api/initial?locale=en`, 300_000);
    shops.push(more);
  }
  const initial = (await (await fetch(`${shop.baseUrl}/api/initial?locale=en`)).json()) as {
    week?: Array<{ link?: string }>;
  };
  const link = initial.week?.[0]?.link;
  if (!link) throw new Error('/api/initial?locale=en has no week[0].link');
  const { product } = (await (
    await fetch(`${shop.baseUrl}/api/product?locale=en&link=${encodeURIComponent(link)}`)
  ).json()) as { product: { id: number; variants: Array<{ id: number }> } };
  const variant = product.variants[0]?.id;
  if (variant === undefined) throw new Error(`product ${link} has no variant`);
  // The first round is the shop's first orders since it started (its placement code not yet
  // optimized by V8); the others are a shop that has placed orders before, as one during a drop.
  const rounds = [
    { stock: HOT_SHOPPERS, prefix: `hot-first-${Date.now()}`, firstSinceStart: true },
    { stock: HOT_SHOPPERS, prefix: `hot-a-${Date.now()}` },
    { stock: 50, prefix: `hot-b-${Date.now()}` },
  ];
  const results: HotResult[] = [];
  for (const round of rounds) {
    const result = await hotRound({
      baseUrls: shops.map((each) => each.baseUrl),
      databaseUrl: url,
      shopPids: shops.map((each) => each.process.pid),
      shopCookie: SHOP_COOKIE,
      password: BENCH_ACCOUNT.password,
      product: product.id,
      variant,
      shoppers: HOT_SHOPPERS,
      ...round,
    });
    results.push(result);
    console.log(`  ${hotLine(result)}`);
  }
  console.log(
    `  load average after: ${os
      .loadavg()
      .map((load) => load.toFixed(1))
      .join(' ')}`,
  );
  await Promise.all(shops.map((each) => each.stop()));
  const resultsDir = path.join(root, 'bench', 'results');
  mkdirSync(resultsDir, { recursive: true });
  const file = path.join(resultsDir, `hot-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify({ git: gitRevision(), loadavg: os.loadavg(), results }, null, 2)}\n`);
  console.log(`All figures: ${path.relative(root, file)}`);
}

async function main() {
  const options = parseOptions(process.argv.slice(2));
  for (const file of [SERVER_ENTRY, path.join('build', 'server', 'index.js')]) {
    if (!existsSync(path.join(root, file))) fail(`${file} is missing: run \`npm run build\` first.`);
  }
  if (options.memory === 'only') {
    const memory = await memorySection(options);
    console.log('\nAll targets');
    for (const line of memoryTargetSummary(memory)) console.log(`  ${line}`);
    return;
  }
  if (options.hot) {
    await hotSection(options);
    return;
  }
  const settings: LoadSettings = options.quick
    ? { connections: 32, duration: 2, warmup: 0 }
    : { connections: 32, duration: 8, warmup: 20 };
  const startedAt = new Date();

  console.log(
    `Vitrina bench — ${startedAt.toISOString()}, Node ${process.version}, ${os.cpus().length}× ${os.cpus()[0]?.model ?? 'CPU'}`,
  );
  if (!options.pages)
    console.log(
      `Load: autocannon, ${settings.connections} connections, ${settings.duration} s measured` +
        (settings.warmup > 0
          ? ` after a warm-up until the rate settles (${WARMUP_WINDOW_SECONDS} s windows agreeing within ${SETTLED * 100}%, ${settings.warmup} s at most)`
          : ', no warm-up') +
        (options.quick ? ' (--quick: rough figures)' : ''),
    );
  console.log(
    `Database: ${options.postgres ? 'PostgreSQL (--postgres)' : 'fresh PGlite in a temp folder'}\n`,
  );

  // Both servers.
  const [baselinePort, shopPort] = [await freePort(), await freePort()];
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'vitrina-bench-'));
  // The page section alone compares with nothing: no baseline.
  const baseline = options.pages
    ? undefined
    : startNodeServer({
        name: 'The baseline server',
        script: 'bench/baseline-server.ts',
        port: baselinePort,
        cwd: root,
        env: { NODE_ENV: 'production' },
      });
  if (baseline) children.push(baseline);
  const shop = startShop('The shop', shopPort, options.postgres);
  console.log(`Starting ${baseline ? 'the baseline and ' : ''}the shop (the first start seeds demo data)…`);
  const shopStart = Date.now();
  await Promise.all([
    baseline ? waitUntilReady(baseline, `${baseline.baseUrl}/json`, 30_000) : undefined,
    waitUntilReady(shop, `${shop.baseUrl}/api/initial?locale=en`, SHOP_START_MS),
  ]);
  console.log(`  ready (shop in ${((Date.now() - shopStart) / 1000).toFixed(1)} s)`);

  const initial = (await (await fetch(`${shop.baseUrl}/api/initial?locale=en`)).json()) as {
    week?: Array<{ link?: string; id?: number }>;
    categories?: Array<{ link?: string }>;
  };
  const productLink = initial.week?.[0]?.link;
  const categoryLink = initial.categories?.[0]?.link;
  if (!productLink || !categoryLink) {
    throw new Error(
      `/api/initial?locale=en has no week[0].link or categories[0].link (week: ${initial.week?.length ?? 'missing'}, categories: ${initial.categories?.length ?? 'missing'})`,
    );
  }
  console.log(`  product: ${productLink}, category: ${categoryLink}\n`);
  const product = encodeURIComponent(productLink);
  const category = encodeURIComponent(categoryLink);
  const { load, baselineRps, ratios, latencies } = options.pages
    ? { load: [], baselineRps: 0, ratios: [], latencies: [] }
    : await loadSection({
        options,
        settings,
        shop: shop.baseUrl,
        baseline: baseline?.baseUrl ?? '',
        product,
        category,
      });

  const pages = [
    { name: 'home', url: `${shop.baseUrl}/` },
    { name: 'category', url: `${shop.baseUrl}/category/${category}` },
    { name: 'product', url: `${shop.baseUrl}/product/${product}` },
  ];
  const pageScripts: PageScripts[] = [];
  if (!options.drop && !options.rows) {
    console.log(
      '\nScripts a first visit loads (named by the page: module preloads and imports), as sent to a browser asking for br, gzip, or neither',
    );
    for (const page of pages) {
      const scripts = await measurePageScripts(page.name, page.url, { cookie: SHOP_COOKIE });
      pageScripts.push(scripts);
      console.log(`\n  ${page.name}  ${page.url}`);
      for (const line of pageScriptLines(scripts)) console.log(`    ${line}`);
    }
  }
  const productScripts = pageScripts.find((page) => page.name === 'product');
  if (productScripts) console.log(`\n  ${productScriptsTargetLine(productScripts)}`);

  const audits: PageAudit[] = [];
  const lighthouseSkipped = options.lighthouse ? chromeUnavailable() : undefined;
  if (lighthouseSkipped) {
    console.log(`\nLighthouse: skipped, ${lighthouseSkipped} (install Chromium there to audit the pages)`);
  } else if (options.lighthouse) {
    console.log(
      '\nLighthouse (default config: mobile, simulated slow 4G, 4× CPU slowdown; cookie overlay-test-info=hidden; locale=en)',
    );
    for (const page of pages) {
      const audit = await auditPage(page.name, page.url, { Cookie: SHOP_COOKIE });
      audits.push(audit);
      printAudit(audit);
    }
    console.log('\n  Summary');
    console.log(`    ${'page'.padEnd(10)}${CATEGORIES.map((id) => id.padStart(16)).join('')}`);
    for (const audit of audits) {
      const cells = audit.categories.map((category) =>
        `${category.score ?? '—'} ${category.pass ? 'PASS' : 'FAIL'}`.padStart(16),
      );
      console.log(`    ${audit.name.padEnd(10)}${cells.join('')}`);
    }
    console.log(
      `    ${'target'.padEnd(10)}${CATEGORIES.map((id) => `${LIGHTHOUSE_TARGETS[id] === 100 ? '=' : '≥'} ${LIGHTHOUSE_TARGETS[id]}`.padStart(16)).join('')}`,
    );
  }

  // The memory and scale sections run alone: the baseline and the demo shop are stopped first.
  await Promise.all(children.splice(0).map((child) => child.stop()));
  const memory = options.memory === 'no' ? [] : await memorySection(options);
  const scale = options.scale ? await scaleSection(options) : { skipped: '--no-scale' };

  console.log('\nAll targets');
  for (const ratio of ratios) console.log(`  ${ratioLine(ratio)}`);
  for (const latency of latencies) console.log(`  ${latencyLine(latency)}`);
  if (productScripts) console.log(`  ${productScriptsTargetLine(productScripts)}`);
  for (const line of memoryTargetSummary(memory)) console.log(`  ${line}`);
  if ('results' in scale) for (const line of scaleTargetLines(scale)) console.log(`  ${line}`);
  else
    console.log(`  scale (100,000 products): ${scale.failed ? 'FAIL' : 'not measured'} (${scale.skipped})`);
  if (lighthouseSkipped) console.log(`  Lighthouse: not measured (${lighthouseSkipped})`);

  const results = {
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    git: gitRevision(),
    machine: {
      node: process.version,
      platform: `${os.platform()} ${os.release()}`,
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model,
      memoryGb: Math.round(os.totalmem() / 2 ** 30),
    },
    options: { ...options, postgres: options.postgres ? 'yes' : undefined },
    settings,
    links: { product: productLink, category: categoryLink },
    load: { baselineRps, results: load, targets: ratios },
    pageScripts,
    lighthouse: lighthouseSkipped
      ? { skipped: lighthouseSkipped }
      : options.lighthouse
        ? { targets: LIGHTHOUSE_TARGETS, pages: audits }
        : undefined,
    memory,
    scale,
  };
  const resultsDir = path.join(root, 'bench', 'results');
  mkdirSync(resultsDir, { recursive: true });
  const file = path.join(resultsDir, `${startedAt.toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`\nAll figures: ${path.relative(root, file)}`);
}

/**
 * The load tests: the baseline and the shop's rows one after the other, the table and the ratio
 * and latency targets.
 */
async function loadSection({
  options,
  settings,
  shop,
  baseline,
  product,
  category,
}: {
  options: Options;
  settings: LoadSettings;
  /** The shop's and the baseline's base URLs. */
  shop: string;
  baseline: string;
  /** The product's and the category's links, URL-encoded. */
  product: string;
  category: string;
}) {
  const pageHeaders = { cookie: SESSION_COOKIE };
  const signedIn = {
    cookie: `${SHOP_COOKIE}; ${await signIn(shop, SHOP_COOKIE, BENCH_ACCOUNT.email, BENCH_ACCOUNT.password)}`,
  };
  const dropShop = await shopForOrders(options, shop);
  const ordered = (await (
    await fetch(`${dropShop.baseUrl}/api/product?locale=en&link=${product}`)
  ).json()) as {
    product: { id: number; variants: Array<{ id: number; inStock: number }> };
  };
  // The variant with the most stock: each order takes a unit and gives back its predecessor's.
  const orderedVariant = ordered.product.variants.toSorted((a, b) => b.inStock - a.inStock)[0];
  const shoppers = await dropShoppers(dropShop);
  // The bench's account is the shop's admin, on the drop shop's database too.
  const staff = `${SHOP_COOKIE}; ${await signIn(dropShop.baseUrl, SHOP_COOKIE, BENCH_ACCOUNT.email, BENCH_ACCOUNT.password)}`;

  const dropTargets: BenchTarget[] = [
    {
      // The page of a product whose own fields change several times a second: a save makes the
      // kept page stale at once (no grace, unlike stock), so the crowd waits for each new render.
      id: 'ssr-product-during-staff-writes',
      name: `SSR /product/:link (page cache, br, ${STAFF_WRITES_PER_SECOND} staff saves/s of it, ${dropShop.database})`,
      url: `${dropShop.baseUrl}/product/${product}`,
      headers: { cookie: SHOP_COOKIE, 'accept-encoding': 'gzip, deflate, br' },
      background: () =>
        editProduct({
          baseUrl: dropShop.baseUrl,
          cookie: staff,
          product: ordered.product.id,
          perSecond: STAFF_WRITES_PER_SECOND,
        }),
      backgroundWork: 'saves/s made',
    },
    {
      id: 'ssr-product-during-orders',
      name: `SSR /product/:link (page cache, br, ${DROP_ORDERS_PER_SECOND} orders/s of it, ${dropShop.database})`,
      url: `${dropShop.baseUrl}/product/${product}`,
      headers: { cookie: SHOP_COOKIE, 'accept-encoding': 'gzip, deflate, br' },
      background: () =>
        placeOrders({
          baseUrl: dropShop.baseUrl,
          shoppers,
          product: ordered.product.id,
          variant: orderedVariant?.id,
          perSecond: DROP_ORDERS_PER_SECOND,
        }),
    },
    {
      id: 'ssr-product-signed-in',
      name: 'SSR /product/:link (signed in)',
      url: `${shop}/product/${product}`,
      headers: { ...signedIn, 'accept-encoding': 'gzip, deflate, br' },
    },
    {
      // What a signed-in page asks for once hydrated: its data, the shopper's own (ADR 0048).
      id: 'ssr-product-signed-in-data',
      name: 'SSR /product/:link.data (signed in, the data asked once hydrated)',
      url: `${shop}/product/${product}.data`,
      headers: { ...signedIn, 'accept-encoding': 'gzip, deflate, br' },
    },
  ];
  const allTargets: BenchTarget[] = [
    { id: 'baseline-json', name: 'baseline GET /json', url: `${baseline}/json` },
    { id: 'baseline-static', name: 'baseline static file', url: `${baseline}/static/hello.html` },
    {
      id: 'api-product',
      name: 'API /api/product',
      url: `${shop}/api/product?locale=en&link=${product}`,
    },
    { id: 'api-initial', name: 'API /api/initial', url: `${shop}/api/initial?locale=en` },
    {
      id: 'ssr-product',
      name: 'SSR /product/:link (rendered)',
      url: `${shop}/product/${product}${RENDERED}`,
      headers: pageHeaders,
    },
    {
      id: 'ssr-product-cached',
      name: 'SSR /product/:link (page cache, br)',
      url: `${shop}/product/${product}`,
      // As a browser asks: the kept page goes out as compressed once, not compressed per request.
      headers: { cookie: SHOP_COOKIE, 'accept-encoding': 'gzip, deflate, br' },
    },
    {
      id: 'ssr-product-cached-identity',
      name: 'SSR /product/:link (page cache, plain)',
      url: `${shop}/product/${product}`,
      headers: { cookie: SHOP_COOKIE },
    },
    {
      id: 'ssr-category',
      name: 'SSR /category/:link (rendered)',
      url: `${shop}/category/${category}${RENDERED}`,
      headers: pageHeaders,
    },
    ...dropTargets,
  ];
  const targets = options.rows
    ? allTargets.filter((target) => target.id === 'baseline-json' || options.rows?.includes(target.id))
    : options.drop
      ? allTargets.filter((target) => target.id === 'baseline-json' || dropTargets.includes(target))
      : allTargets;
  // The drop shop is stopped after the last row that uses it.
  const lastOnDropShop = targets.findLast((target) => target.url.startsWith(dropShop.baseUrl));
  if (dropShop.stop && dropShop.baseUrl !== shop) {
    if (lastOnDropShop) lastOnDropShop.after = dropShop.stop;
    else await dropShop.stop();
  }

  console.log('Load tests');
  const load: LoadResult[] = [];
  for (const target of targets) {
    const status = await probe(target);
    process.stdout.write(`  ${target.name} … `);
    const background = target.background?.();
    const server = children.find((child) => target.url.startsWith(`${child.baseUrl}/`));
    const result = await runLoad(target, settings, server?.process.pid);
    const orders = await background?.stop();
    await target.after?.();
    if (orders) {
      process.stdout.write(
        `(${fmt(orders.placed / orders.seconds, 1)} ${target.backgroundWork ?? 'orders/s placed'}, ${orders.failed} failed${orders.lastError ? `: ${orders.lastError}` : ''}) `,
      );
      if (orders.placed === 0) result.problems.push('nothing was done in the background');
    }
    if (status < 200 || status > 299) result.problems.unshift(`a single plain request answered ${status}`);
    load.push(result);
    const warmedUp = settings.warmup > 0 ? ` (after ${result.warmupSeconds} s warm-up)` : '';
    console.log(
      `${fmt(result.requestsPerSecond)} req/s${warmedUp}${result.problems.length > 0 ? '  (ERRORS)' : ''}`,
    );
  }

  const baselineRps = load.find((result) => result.id === 'baseline-json')?.requestsPerSecond ?? 0;
  console.log(
    `\nResults (ratio = req/s ÷ baseline /json req/s; CPU µs per answer of the serving process and of the bench's, where autocannon runs: a row whose bench time per answer is the larger is bound by autocannon)\n`,
  );
  printTable(load, baselineRps);

  const ratios = Object.entries(RATIO_TARGETS).flatMap(([id, target]) => {
    const result = load.find((entry) => entry.id === id);
    if (!result) return [];
    const ratio = result && baselineRps > 0 ? result.requestsPerSecond / baselineRps : 0;
    const clean = result !== undefined && result.problems.length === 0;
    return [{ id, name: result.name, ratio, target, pass: clean && ratio >= target, clean }];
  });
  const latencies = load.flatMap((result) => {
    const limit = P99_TARGETS[result.id];
    return limit === undefined ? [] : [{ name: result.name, p99: result.latencyMs.p99, limit }];
  });
  console.log('\nTargets');
  for (const ratio of ratios) console.log(`  ${ratioLine(ratio)}`);
  for (const latency of latencies) console.log(`  ${latencyLine(latency)}`);
  const loadErrors = load.filter((result) => result.problems.length > 0);
  if (loadErrors.length > 0) {
    console.log('\n  ERRORS during the load tests:');
    for (const result of loadErrors) console.log(`    ${result.name}: ${result.problems.join('; ')}`);
  }
  return { load, baselineRps, ratios, latencies };
}

interface LatencyCheck {
  name: string;
  p99: number;
  limit: number;
}

function latencyLine(latency: LatencyCheck) {
  return `${latency.name.padEnd(32)} p99 ${fmt(latency.p99)} ms < ${latency.limit} ms  ${latency.p99 < latency.limit ? 'PASS' : 'FAIL'}`;
}

type MemoryOutcome = MemoryReport | { database: 'pglite' | 'postgres'; skipped: string; failed?: true };

/**
 * The memory section: the compiled server's memory idle and after a minute of mixed traffic, on a
 * fresh PGlite database and, when one answers, on PostgreSQL (ADR 0029).
 */
async function memorySection(options: Options): Promise<MemoryOutcome[]> {
  const defaults = options.quick ? QUICK_MEMORY_SETTINGS : MEMORY_SETTINGS;
  const settings = {
    ...defaults,
    walk: { ...defaults.walk, seconds: options.walkSeconds ?? defaults.walk.seconds },
  };
  const serverUrl = scaleServerUrl(options.postgres);
  const unreachable = await postgresAnswers(serverUrl);
  const outcomes: MemoryOutcome[] = [];
  for (const database of ['pglite', 'postgres'] as const) {
    const where = database === 'pglite' ? 'PGlite' : `PostgreSQL at ${new URL(serverUrl).host}`;
    console.log(`\nMemory on ${where} (resident set of the compiled server)`);
    if (database === 'postgres' && unreachable) {
      const skipped = `no PostgreSQL at ${new URL(serverUrl).host} (${unreachable}); pass --postgres URL or set TEST_DATABASE_URL`;
      console.log(`  skipped: ${skipped}`);
      outcomes.push({ database, skipped });
      continue;
    }
    try {
      const report = await measureMemory({
        root,
        script: SERVER_ENTRY,
        nodeFlags: SERVER_NODE_FLAGS,
        environment: SERVER_ENVIRONMENT,
        postgres: database === 'postgres' ? serverUrl : undefined,
        settings,
        log: (line) => console.log(line),
        onChild: (child) => children.push(child),
      });
      for (const line of [...memoryLines(report), ...memoryTargetLines(report)]) console.log(`  ${line}`);
      outcomes.push(report);
    } catch (error) {
      if (interrupted) throw error;
      const skipped = `the memory section failed: ${error instanceof Error ? error.message : String(error)}`;
      console.log(`  ${skipped}`);
      outcomes.push({ database, skipped, failed: true });
    }
  }
  return outcomes;
}

function memoryTargetSummary(outcomes: MemoryOutcome[]): string[] {
  return outcomes.flatMap((outcome) =>
    'skipped' in outcome
      ? [`memory (${outcome.database}): ${outcome.failed ? 'FAIL' : 'not measured'} (${outcome.skipped})`]
      : memoryTargetLines(outcome),
  );
}

/** The scale section: p95 of category, search and product pages over 100,000 products on PostgreSQL. */
async function scaleSection(options: Options): Promise<ScaleReport | { skipped: string; failed?: true }> {
  const serverUrl = scaleServerUrl(options.postgres);
  const settings = options.quick ? QUICK_SCALE_SETTINGS : SCALE_SETTINGS;
  console.log(`\nScale (100,000 products on PostgreSQL at ${new URL(serverUrl).host})`);
  const unreachable = await postgresAnswers(serverUrl);
  if (unreachable) {
    const skipped = `no PostgreSQL at ${new URL(serverUrl).host} (${unreachable}); pass --postgres URL or set TEST_DATABASE_URL`;
    console.log(`  skipped: ${skipped}`);
    return { skipped };
  }
  try {
    const report = await runScaleBench({
      serverUrl,
      root,
      settings,
      log: (line) => console.log(line),
      onChild: (child) => children.push(child),
    });
    console.log(`\n  ${describeScaleRun(report)}\n`);
    printScale(report);
    return report;
  } catch (error) {
    // The figures above stay worth keeping: report the failure beside them.
    if (interrupted) throw error;
    const skipped = `the scale section failed: ${error instanceof Error ? error.message : String(error)}`;
    console.log(`  ${skipped}`);
    return { skipped, failed: true };
  }
}

main()
  .then(async () => {
    if (interrupted) return;
    await cleanUp();
    process.exit(0);
  })
  .catch(async (error: unknown) => {
    // After Ctrl-C, whatever was running fails because its server or browser is gone: not news.
    if (interrupted) return;
    console.error(
      `\nThe bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
    await cleanUp();
    process.exit(1);
  });
