import { desc, eq, sql } from 'drizzle-orm';
import { recordAudit } from '../audit/audit.ts';
import type { Database, Executor } from '../db/client.ts';
import { exchangeRates, users } from '../db/schema.ts';
import {
  type DatedRate,
  type FetchImpl,
  fetchCbrUsdRate,
  fetchMoexUsdRate,
} from '../providers/exchange-rates.ts';

/**
 * The USD/RUB rate (ADR 0053): the Central Bank's daily rate first, stored with the day it is for;
 * MOEX only when its own trade date is today (exchange trading in USD stopped in June 2024, so its
 * answer is usually old); a rate a manager sets by hand. The rate in force is the one for the
 * latest day, a manual one winning over an official one for the same day; a rate for a day more
 * than `maxAgeDays` ago is not used, and the dollar prices are withheld. Pages read an in-memory
 * copy (the rate keeper) and never wait on the network.
 */

export type RateSource = 'cbr' | 'moex' | 'manual';

export interface UsdRate {
  /** Roubles per US dollar, four decimals as stored. */
  rate: number;
  source: string;
  /** The day the rate is for, `YYYY-MM-DD`. */
  rateDate: string;
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
  clock?: () => Date;
}

const USD = 'USD';

const silentLog: RatesLog = { info() {}, warn() {}, error() {} };

/** The column is numeric(12, 4): round the same way before returning what was stored. */
const toStored = (rate: number) => rate.toFixed(4);

/** The calendar day in Moscow (UTC+3 all year since 2014), where both sources date their rates. */
export const moscowDay = (now: Date) => new Date(now.getTime() + 3 * 3_600_000).toISOString().slice(0, 10);

/** Whole days from `rateDate` to today in Moscow; negative for a rate set for tomorrow. */
export const rateAgeDays = (rateDate: string, now: Date) =>
  Math.round((Date.parse(moscowDay(now)) - Date.parse(rateDate)) / 86_400_000);

async function readSource(
  source: RateSource,
  read: () => Promise<DatedRate | null>,
  url: string,
  log: RatesLog,
): Promise<DatedRate | null> {
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
 * Reads the Central Bank's rate and stores it with its date; when the Central Bank cannot be read,
 * MOEX's, but only when its trade date is today. Returns null and leaves the table alone when
 * neither gives one; provider failures are logged, never thrown.
 */
export async function refreshUsdRate(db: Executor, sources: RateSources): Promise<UsdRate | null> {
  const log = sources.log ?? silentLog;
  const fetchImpl = sources.fetchImpl ?? fetch;
  const today = moscowDay(sources.clock?.() ?? new Date());
  let found: (DatedRate & { source: RateSource }) | null = null;
  const cbr = await readSource(
    'cbr',
    () => fetchCbrUsdRate(sources.cbrUrl, fetchImpl, sources.timeoutMs),
    sources.cbrUrl,
    log,
  );
  if (cbr) found = { ...cbr, source: 'cbr' };
  else {
    const moex = await readSource(
      'moex',
      () => fetchMoexUsdRate(sources.moexUrl, fetchImpl, sources.timeoutMs),
      sources.moexUrl,
      log,
    );
    if (moex && moex.date >= today) found = { ...moex, source: 'moex' };
    else if (moex) log.warn({ source: 'moex', date: moex.date }, 'MOEX USD price ignored: not traded today');
  }
  if (!found) {
    log.error({}, 'USD rate not refreshed: no current rate from the Central Bank or MOEX');
    return null;
  }
  const stored = toStored(found.rate);
  await db.insert(exchangeRates).values({
    currency: USD,
    rate: stored,
    source: found.source,
    rateDate: found.date,
  });
  log.info({ source: found.source, rate: stored, date: found.date }, 'USD rate refreshed');
  return { rate: Number(stored), source: found.source, rateDate: found.date };
}

export interface RateInForce extends UsdRate {
  fetchedAt: Date;
  /** The manager who set a manual rate, by e-mail. */
  setBy: string | null;
}

/** The rate in force: the latest day's; for the same day a manual rate wins, then the latest read. */
export async function latestUsdRate(db: Executor): Promise<RateInForce | null> {
  const [row] = await db
    .select({
      rate: exchangeRates.rate,
      source: exchangeRates.source,
      rateDate: exchangeRates.rateDate,
      fetchedAt: exchangeRates.fetchedAt,
      setBy: users.email,
    })
    .from(exchangeRates)
    .leftJoin(users, eq(users.id, exchangeRates.setBy))
    .where(eq(exchangeRates.currency, USD))
    .orderBy(
      desc(exchangeRates.rateDate),
      desc(sql`${exchangeRates.source} = 'manual'`),
      desc(exchangeRates.fetchedAt),
      desc(exchangeRates.id),
    )
    .limit(1);
  return row ? { ...row, rate: Number(row.rate), setBy: row.setBy ?? null } : null;
}

/**
 * A manager's rate for today (Moscow), recorded with who set it and audited in one transaction. It
 * is in force until an official rate for a later day arrives, and ages out like any other.
 */
export async function setManualUsdRate(
  db: Database,
  actorId: number,
  rate: number,
  clock: () => Date = () => new Date(),
): Promise<UsdRate> {
  const rateDate = moscowDay(clock());
  return db.transaction(async (transaction) => {
    const before = await latestUsdRate(transaction);
    const [row] = await transaction
      .insert(exchangeRates)
      .values({ currency: USD, rate: toStored(rate), source: 'manual', rateDate, setBy: actorId })
      .returning({ id: exchangeRates.id, rate: exchangeRates.rate });
    if (!row) throw new Error('the manual rate was not stored');
    const after = { rate: Number(row.rate), source: 'manual', rateDate };
    await recordAudit(transaction, {
      actorId,
      action: 'create',
      entity: 'exchange-rate',
      entityId: row.id,
      before: before && { rate: before.rate, source: before.source, rateDate: before.rateDate },
      after,
    });
    return after;
  });
}

/** What the back office shows about the rate: the one in force, and whether it is too old to use. */
export interface RateStatus {
  current: RateInForce | null;
  /** True when there is no rate or it is older than `maxAgeDays`: dollar prices are withheld. */
  withheld: boolean;
  maxAgeDays: number;
}

/** Whether the rate in force may be used today. */
export function rateStatus(current: RateInForce | null, maxAgeDays: number, now: Date): RateStatus {
  const withheld = current === null || rateAgeDays(current.rateDate, now) > maxAgeDays;
  return { current, withheld, maxAgeDays };
}

export interface RateKeeperOptions extends RateSources {
  /** A rate for a day more than this many days ago is not used (config.rates.maxAgeDays). */
  maxAgeDays: number;
  /** Called with the new rate whenever the value the keeper holds changes (the catalogue cache listens). */
  onChange?: (rate: number) => void;
}

export interface RateKeeper {
  /** Roubles per dollar as last loaded; 0 while there is no rate recent enough to use. */
  current(): number;
  /** Reads the latest stored rate (cheap; other instances' refreshes become visible this way). */
  load(): Promise<void>;
  /** Asks the providers for a new rate, then loads. Never throws for a provider failure. */
  refresh(): Promise<void>;
}

export function createRateKeeper(db: Executor, options: RateKeeperOptions): RateKeeper {
  const log = options.log ?? silentLog;
  const clock = options.clock ?? (() => new Date());
  let value = 0;

  async function load(): Promise<void> {
    const status = rateStatus(await latestUsdRate(db), options.maxAgeDays, clock());
    const next = status.withheld || !status.current ? 0 : status.current.rate;
    if (next === value) return;
    if (next === 0)
      log.error({ rate: status.current }, 'no USD rate recent enough: dollar prices are withheld');
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
