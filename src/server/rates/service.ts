import { desc, eq } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { exchangeRates } from '../db/schema.ts';
import { type FetchImpl, fetchCbrUsdRate, fetchMoexUsdRate } from '../providers/exchange-rates.ts';

/**
 * The USD/RUB rate: read from MOEX, else from the Central Bank, stored with its source and time;
 * when both fail, the last stored rate stays in force. Pages read an in-memory copy (the rate
 * keeper) and never wait on the network.
 */

export type RateSource = 'moex' | 'cbr';

export interface UsdRate {
  /** Roubles per US dollar, four decimals as stored. */
  rate: number;
  source: string;
}

/** The part of a pino (Fastify) logger the rate service uses. */
export interface RatesLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface RateSources {
  moexUrl: string;
  cbrUrl: string;
  fetchImpl?: FetchImpl;
  timeoutMs?: number;
  log?: RatesLog;
}

const USD = 'USD';

const silentLog: RatesLog = { info() {}, warn() {}, error() {} };

/** The column is numeric(12, 4): round the same way before returning what was stored. */
const toStored = (rate: number) => rate.toFixed(4);

async function readSource(
  source: RateSource,
  read: () => Promise<number | null>,
  url: string,
  log: RatesLog,
): Promise<number | null> {
  try {
    const rate = await read();
    if (rate === null) log.warn({ source, url }, 'exchange rate source gave no usable USD price');
    return rate;
  } catch (error) {
    log.warn({ source, url, err: error }, 'exchange rate source could not be read');
    return null;
  }
}

/**
 * Reads the rate from MOEX, then from the CBR, and stores the first one found. Returns null and
 * leaves the table alone when neither gives a rate; provider failures are logged, never thrown.
 */
export async function refreshUsdRate(db: Executor, sources: RateSources): Promise<UsdRate | null> {
  const log = sources.log ?? silentLog;
  const fetchImpl = sources.fetchImpl ?? fetch;
  const attempts: [RateSource, string, (url: string) => Promise<number | null>][] = [
    ['moex', sources.moexUrl, (url) => fetchMoexUsdRate(url, fetchImpl, sources.timeoutMs)],
    ['cbr', sources.cbrUrl, (url) => fetchCbrUsdRate(url, fetchImpl, sources.timeoutMs)],
  ];
  for (const [source, url, read] of attempts) {
    const rate = await readSource(source, () => read(url), url, log);
    if (rate === null) continue;
    const stored = toStored(rate);
    await db.insert(exchangeRates).values({ currency: USD, rate: stored, source });
    log.info({ source, rate: stored }, 'USD rate refreshed');
    return { rate: Number(stored), source };
  }
  log.error({}, 'USD rate not refreshed: MOEX and the CBR both failed; the last stored rate stays in force');
  return null;
}

export async function latestUsdRate(db: Executor): Promise<(UsdRate & { fetchedAt: Date }) | null> {
  const [row] = await db
    .select({ rate: exchangeRates.rate, source: exchangeRates.source, fetchedAt: exchangeRates.fetchedAt })
    .from(exchangeRates)
    .where(eq(exchangeRates.currency, USD))
    .orderBy(desc(exchangeRates.fetchedAt), desc(exchangeRates.id))
    .limit(1);
  return row ? { rate: Number(row.rate), source: row.source, fetchedAt: row.fetchedAt } : null;
}

export interface RateKeeperOptions extends RateSources {
  /** Called with the new rate whenever the value the keeper holds changes (the catalogue cache listens). */
  onChange?: (rate: number) => void;
}

export interface RateKeeper {
  /** Roubles per dollar as last loaded; 0 while no rate has ever been stored. */
  current(): number;
  /** Reads the latest stored rate (cheap; other instances' refreshes become visible this way). */
  load(): Promise<void>;
  /** Asks the providers for a new rate, then loads. Never throws for a provider failure. */
  refresh(): Promise<void>;
}

export function createRateKeeper(db: Executor, options: RateKeeperOptions): RateKeeper {
  const log = options.log ?? silentLog;
  let value = 0;

  async function load(): Promise<void> {
    const latest = await latestUsdRate(db);
    const next = latest?.rate ?? 0;
    if (next === value) return;
    value = next;
    if (!options.onChange) return;
    try {
      options.onChange(next);
    } catch (error) {
      log.error({ err: error, rate: next }, 'a USD rate change listener failed');
    }
  }

  return {
    current: () => value,
    load,
    async refresh() {
      await refreshUsdRate(db, options);
      await load();
    },
  };
}
