import { eq } from 'drizzle-orm';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database, DatabaseConnection } from '../db/client.ts';
import { auditLog, exchangeRates, jobs } from '../db/schema.ts';
import { createWorker, type QueueLog } from '../jobs/queue.ts';
import { decodeXml, parseCbrDailyRate, parseMoexUsdRate } from '../providers/exchange-rates.ts';
import {
  createExchangeRateSimulator,
  type ExchangeRateSimulator,
  MOEX_LAST_USD_TRADE_DATE,
  SIMULATED_PREVPRICE_OFFSET,
} from '../providers/simulators/exchange-rates.ts';
import { createTestDatabase } from '../testing/database.ts';
import { newShopper } from '../testing/orders.ts';
import { RATE_REFRESH_JOB, rateRefreshHandler, scheduleRateRefresh } from './jobs.ts';
import {
  createRateKeeper,
  latestUsdRate,
  moscowDay,
  type RatesLog,
  refreshUsdRate,
  setManualUsdRate,
} from './service.ts';

let connection: DatabaseConnection;
let db: Database;
let app: FastifyInstance;
let simulator: ExchangeRateSimulator;
let sources: { moexUrl: string; cbrUrl: string };

beforeAll(async () => {
  connection = await createTestDatabase();
  db = connection.db;
  simulator = createExchangeRateSimulator();
  app = Fastify();
  await app.register(simulator.plugin);
  // MOEX may add, drop or reorder columns at any time: the same answer with its columns reversed.
  app.get('/test/moex-reordered', async () => {
    const body = await (await fetch(`${sources.moexUrl}`)).json();
    for (const block of [body.marketdata, body.securities]) {
      const order = block.columns.map((_: string, index: number) => index).reverse();
      block.columns = order.map((index: number) => block.columns[index]);
      block.data = block.data.map((row: unknown[]) => order.map((index: number) => row[index]));
    }
    return body;
  });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  sources = { moexUrl: `${address}/sandbox/rates/moex`, cbrUrl: `${address}/sandbox/rates/cbr` };
});

afterAll(async () => {
  await app?.close();
  await connection?.close();
});

/** Today and `days` before it in Moscow, as the sources date their rates. */
const today = () => moscowDay(new Date());
const daysAgo = (days: number) => moscowDay(new Date(Date.now() - days * 86_400_000));

beforeEach(async () => {
  simulator.setMode('normal');
  simulator.setRate(92.5012);
  simulator.setDates({ cbr: null, moex: MOEX_LAST_USD_TRADE_DATE });
  await db.delete(exchangeRates);
  await db.delete(auditLog);
  await db.delete(jobs);
});

function recordingLog() {
  const entries: { level: string; message: string; details: object }[] = [];
  const write = (level: string) => (details: object, message: string) => {
    entries.push({ level, message, details });
  };
  const log: RatesLog & QueueLog = { info: write('info'), warn: write('warn'), error: write('error') };
  return { log, entries };
}

describe('USD rate refresh', () => {
  it("uses the Central Bank's rate first, stored with the day its document is for", async () => {
    simulator.setMode('normal');
    simulator.setDates({ moex: null });
    simulator.setRate(93.1234);

    const result = await refreshUsdRate(db, sources);

    expect(result).toEqual({ rate: 93.1234, source: 'cbr', rateDate: today() });
    expect(await latestUsdRate(db)).toMatchObject({ rate: 93.1234, source: 'cbr', rateDate: today() });
  });

  it('ignores a MOEX answer dated June 2024, as MOEX answers since USD trading stopped', async () => {
    simulator.setMode('cbr-down');
    const body = await (await fetch(sources.moexUrl)).json();
    const columns: string[] = body.marketdata.columns;
    expect(body.marketdata.data[0][columns.indexOf('SYSTIME')]).toMatch(/^2024-06-13 /);
    const { log, entries } = recordingLog();

    expect(await refreshUsdRate(db, { ...sources, log })).toBeNull();

    expect(await db.select().from(exchangeRates)).toHaveLength(0);
    expect(entries).toContainEqual(
      expect.objectContaining({ level: 'warn', message: 'MOEX USD price ignored: not traded today' }),
    );
  });

  it("takes MOEX's weighted average price when the Central Bank is down and MOEX traded today", async () => {
    simulator.setMode('cbr-down');
    simulator.setDates({ moex: null });
    simulator.setRate(93.1234);
    const body = await (await fetch(sources.moexUrl)).json();
    const columns: string[] = body.marketdata.columns;
    expect(body.marketdata.data[0][columns.indexOf('MARKETPRICE')]).toBeNull();
    expect(body.marketdata.data[0][columns.indexOf('LAST')]).toBeNull();

    const result = await refreshUsdRate(db, sources);

    expect(result).toEqual({ rate: 93.1234, source: 'moex', rateDate: today() });
  });

  it('reads the right column when MOEX sends its columns in another order', async () => {
    simulator.setMode('cbr-down');
    simulator.setDates({ moex: null });
    simulator.setRate(94.4321);
    const result = await refreshUsdRate(db, {
      ...sources,
      moexUrl: sources.moexUrl.replace('/sandbox/rates/moex', '/test/moex-reordered'),
    });
    expect(result).toEqual({ rate: 94.4321, source: 'moex', rateDate: today() });
  });

  it("falls back to the previous day's price, dated by PREVDATE, when MOEX has no price today", async () => {
    simulator.setDates({ moex: null });
    simulator.setRate(90);
    const body = await (await fetch(sources.moexUrl)).json();
    const columns: string[] = body.marketdata.columns;
    body.marketdata.data[0][columns.indexOf('WAPRICE')] = null;
    const parsed = parseMoexUsdRate(body);
    expect(parsed?.rate).toBeCloseTo(90 + SIMULATED_PREVPRICE_OFFSET, 4);
    expect(parsed?.date).toBe(daysAgo(1));
  });

  it('reads the Central Bank page as served: windows-1251, comma decimals, quotes per 100 units', async () => {
    const response = await fetch(sources.cbrUrl);
    expect(response.headers.get('content-type')).toMatch(/windows-1251/i);
    const xml = decodeXml(new Uint8Array(await response.arrayBuffer()), response.headers.get('content-type'));
    expect(xml).toContain('<Name>Доллар США</Name>');
    expect(xml).toContain('<Value>92,5012</Value>');
    expect(xml).toMatch(/<CharCode>JPY<\/CharCode><Nominal>100<\/Nominal>/);
    expect(parseCbrDailyRate(xml, 'USD')).toEqual({ rate: 92.5012, date: today() });
    expect(parseCbrDailyRate(xml, 'JPY')?.rate).toBeCloseTo(0.612345, 6);
  });

  it('keeps the last stored rate when both sources are down', async () => {
    await refreshUsdRate(db, sources);
    simulator.setMode('all-down');
    simulator.setRate(120);
    const { log, entries } = recordingLog();

    const result = await refreshUsdRate(db, { ...sources, log });

    expect(result).toBeNull();
    expect(await db.select().from(exchangeRates)).toHaveLength(1);
    expect(await latestUsdRate(db)).toMatchObject({ rate: 92.5012, source: 'cbr' });
    expect(entries.filter((entry) => entry.level === 'warn')).toHaveLength(2);
    expect(entries.some((entry) => entry.level === 'error')).toBe(true);
  });

  it('does not throw when a source host cannot be reached at all', async () => {
    simulator.setDates({ moex: null });
    const unreachable = 'http://127.0.0.1:1/scripts/XML_daily.asp';
    const result = await refreshUsdRate(db, { ...sources, cbrUrl: unreachable });
    expect(result).toEqual({ rate: 92.5012, source: 'moex', rateDate: today() });
  });
});

describe('rate keeper', () => {
  const keeperOptions = { maxAgeDays: 3 };

  it('reports 0 while no rate has ever been stored', async () => {
    const keeper = createRateKeeper(db, { ...sources, ...keeperOptions });
    await keeper.load();
    expect(keeper.current()).toBe(0);
  });

  it('holds the refreshed rate and announces each change once', async () => {
    const changes: number[] = [];
    const keeper = createRateKeeper(db, {
      ...sources,
      ...keeperOptions,
      onChange: (rate) => changes.push(rate),
    });

    await keeper.refresh();
    expect(keeper.current()).toBe(92.5012);
    await keeper.refresh();
    simulator.setRate(95.25);
    await keeper.refresh();
    expect(keeper.current()).toBe(95.25);
    expect(changes).toEqual([92.5012, 95.25]);

    simulator.setMode('all-down');
    await keeper.refresh();
    expect(keeper.current()).toBe(95.25);
    expect(changes).toEqual([92.5012, 95.25]);
  });

  it('sees a rate another instance stored when it loads', async () => {
    const keeper = createRateKeeper(db, { ...sources, ...keeperOptions });
    await keeper.load();
    await refreshUsdRate(db, sources);
    expect(keeper.current()).toBe(0);
    await keeper.load();
    expect(keeper.current()).toBe(92.5012);
  });

  it('withholds dollars when the rate in force is 4 days old, and uses one 3 days old', async () => {
    const changes: number[] = [];
    const keeper = createRateKeeper(db, {
      ...sources,
      ...keeperOptions,
      onChange: (rate) => changes.push(rate),
    });
    simulator.setDates({ cbr: daysAgo(3) });
    await keeper.refresh();
    expect(keeper.current()).toBe(92.5012);

    await db.update(exchangeRates).set({ rateDate: daysAgo(4) });
    await keeper.load();
    expect(keeper.current()).toBe(0);
    expect(changes).toEqual([92.5012, 0]);

    // MOEX's old answer does not bring dollars back; the Central Bank's next document does.
    simulator.setMode('cbr-down');
    await keeper.refresh();
    expect(keeper.current()).toBe(0);
    simulator.setMode('normal');
    simulator.setDates({ cbr: null });
    await keeper.refresh();
    expect(keeper.current()).toBe(92.5012);
  });

  it('lets a manual rate win over the official rate of its day, audited with who set it', async () => {
    const manager = await newShopper(db);
    const keeper = createRateKeeper(db, { ...sources, ...keeperOptions });
    await keeper.refresh();

    const set = await setManualUsdRate(db, manager.id, 97.5);
    await keeper.load();

    expect(set).toEqual({ rate: 97.5, source: 'manual', rateDate: today() });
    expect(keeper.current()).toBe(97.5);
    expect(await latestUsdRate(db)).toMatchObject({ rate: 97.5, source: 'manual', setBy: manager.email });
    const [row] = await db.select().from(exchangeRates).where(eq(exchangeRates.source, 'manual'));
    expect(row).toMatchObject({ setBy: manager.id, rateDate: today() });
    const [entry] = await db.select().from(auditLog).where(eq(auditLog.entity, 'exchange-rate'));
    expect(entry).toMatchObject({
      actorId: manager.id,
      action: 'create',
      entityId: String(row?.id),
      before: { rate: 92.5012, source: 'cbr', rateDate: today() },
      after: { rate: 97.5, source: 'manual', rateDate: today() },
    });

    // The same day's official rate read again does not replace it; the next day's does.
    await keeper.refresh();
    expect(keeper.current()).toBe(97.5);
    simulator.setDates({ cbr: moscowDay(new Date(Date.now() + 86_400_000)) });
    simulator.setRate(96.1);
    await keeper.refresh();
    expect(keeper.current()).toBe(96.1);
  });

  it('refreshes on schedule through the job queue', async () => {
    let now = new Date('2026-11-21T09:00:00Z');
    const clock = () => new Date(now);
    const keeper = createRateKeeper(db, { ...sources, ...keeperOptions });
    const worker = createWorker({
      db,
      clock,
      log: recordingLog().log,
      handlers: { [RATE_REFRESH_JOB]: rateRefreshHandler(keeper) },
    });
    await scheduleRateRefresh(db, 60, clock);

    expect(await worker.runDue()).toBe(1);
    expect(keeper.current()).toBe(92.5012);

    simulator.setRate(96.5);
    expect(await worker.runDue()).toBe(0);
    now = new Date(now.getTime() + 60 * 60_000);
    expect(await worker.runDue()).toBe(1);
    expect(keeper.current()).toBe(96.5);
  });
});
