import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database, DatabaseConnection } from '../db/client.ts';
import { exchangeRates, jobs } from '../db/schema.ts';
import { createWorker, type QueueLog } from '../jobs/queue.ts';
import { decodeXml, parseCbrDailyRate, parseMoexUsdRate } from '../providers/exchange-rates.ts';
import {
  createExchangeRateSimulator,
  type ExchangeRateSimulator,
  SIMULATED_PREVPRICE_OFFSET,
} from '../providers/simulators/exchange-rates.ts';
import { createTestDatabase } from '../testing/database.ts';
import { RATE_REFRESH_JOB, rateRefreshHandler, scheduleRateRefresh } from './jobs.ts';
import { createRateKeeper, latestUsdRate, type RatesLog, refreshUsdRate } from './service.ts';

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

beforeEach(async () => {
  simulator.setMode('normal');
  simulator.setRate(92.5012);
  await db.delete(exchangeRates);
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
  it('takes the weighted average price from MOEX when the market price is null', async () => {
    simulator.setRate(93.1234);
    const body = await (await fetch(sources.moexUrl)).json();
    const columns: string[] = body.marketdata.columns;
    expect(body.marketdata.data[0][columns.indexOf('MARKETPRICE')]).toBeNull();
    expect(body.marketdata.data[0][columns.indexOf('LAST')]).toBeNull();

    const result = await refreshUsdRate(db, sources);

    expect(result).toEqual({ rate: 93.1234, source: 'moex' });
    expect(await latestUsdRate(db)).toMatchObject({
      rate: 93.1234,
      source: 'moex',
      fetchedAt: expect.any(Date),
    });
  });

  it('reads the right column when MOEX sends its columns in another order', async () => {
    simulator.setRate(94.4321);
    const result = await refreshUsdRate(db, {
      ...sources,
      moexUrl: sources.moexUrl.replace('/sandbox/rates/moex', '/test/moex-reordered'),
    });
    expect(result).toEqual({ rate: 94.4321, source: 'moex' });
  });

  it('falls back to the previous day price when MOEX has no price today at all', async () => {
    // The simulator's "moex-empty" blanks PREVPRICE too, so check the PREVPRICE step on its real body instead.
    simulator.setRate(90);
    const body = await (await fetch(sources.moexUrl)).json();
    const columns: string[] = body.marketdata.columns;
    body.marketdata.data[0][columns.indexOf('WAPRICE')] = null;
    expect(parseMoexUsdRate(body)).toBeCloseTo(90 + SIMULATED_PREVPRICE_OFFSET, 4);
  });

  it('uses the Central Bank rate when MOEX is down', async () => {
    simulator.setMode('moex-down');
    simulator.setRate(91.7767);
    const { log, entries } = recordingLog();

    const result = await refreshUsdRate(db, { ...sources, log });

    expect(result).toEqual({ rate: 91.7767, source: 'cbr' });
    expect(await latestUsdRate(db)).toMatchObject({ rate: 91.7767, source: 'cbr' });
    expect(entries).toContainEqual(
      expect.objectContaining({ level: 'warn', message: 'exchange rate source could not be read' }),
    );
  });

  it('uses the Central Bank rate when MOEX answers without any price', async () => {
    simulator.setMode('moex-empty');
    const result = await refreshUsdRate(db, sources);
    expect(result).toEqual({ rate: 92.5012, source: 'cbr' });
  });

  it('reads the Central Bank page as served: windows-1251, comma decimals, quotes per 100 units', async () => {
    const response = await fetch(sources.cbrUrl);
    expect(response.headers.get('content-type')).toMatch(/windows-1251/i);
    const xml = decodeXml(new Uint8Array(await response.arrayBuffer()), response.headers.get('content-type'));
    expect(xml).toContain('<Name>Доллар США</Name>');
    expect(xml).toContain('<Value>92,5012</Value>');
    expect(xml).toMatch(/<CharCode>JPY<\/CharCode><Nominal>100<\/Nominal>/);
    expect(parseCbrDailyRate(xml, 'USD')).toBe(92.5012);
    expect(parseCbrDailyRate(xml, 'JPY')).toBeCloseTo(0.612345, 6);
  });

  it('keeps the last stored rate when both sources are down', async () => {
    await refreshUsdRate(db, sources);
    simulator.setMode('all-down');
    simulator.setRate(120);
    const { log, entries } = recordingLog();

    const result = await refreshUsdRate(db, { ...sources, log });

    expect(result).toBeNull();
    expect(await db.select().from(exchangeRates)).toHaveLength(1);
    expect(await latestUsdRate(db)).toMatchObject({ rate: 92.5012, source: 'moex' });
    expect(entries.filter((entry) => entry.level === 'warn')).toHaveLength(2);
    expect(entries.some((entry) => entry.level === 'error')).toBe(true);
  });

  it('does not throw when a source host cannot be reached at all', async () => {
    const result = await refreshUsdRate(db, {
      moexUrl:
        'http://127.0.0.1:1/iss/engines/currency/markets/selt/boards/CETS/securities/USD000UTSTOM.json',
      cbrUrl: sources.cbrUrl,
    });
    expect(result).toEqual({ rate: 92.5012, source: 'cbr' });
  });
});

describe('rate keeper', () => {
  it('reports 0 while no rate has ever been stored', async () => {
    const keeper = createRateKeeper(db, sources);
    await keeper.load();
    expect(keeper.current()).toBe(0);
  });

  it('holds the refreshed rate and announces each change once', async () => {
    const changes: number[] = [];
    const keeper = createRateKeeper(db, { ...sources, onChange: (rate) => changes.push(rate) });

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
    const keeper = createRateKeeper(db, sources);
    await keeper.load();
    await refreshUsdRate(db, sources);
    expect(keeper.current()).toBe(0);
    await keeper.load();
    expect(keeper.current()).toBe(92.5012);
  });

  it('refreshes on schedule through the job queue', async () => {
    let now = new Date('2026-11-21T09:00:00Z');
    const clock = () => new Date(now);
    const keeper = createRateKeeper(db, sources);
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
