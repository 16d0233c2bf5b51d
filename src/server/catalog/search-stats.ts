import { sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { searchQueries } from '../db/schema.ts';
import { normaliseSearchText } from './search-text.ts';

/**
 * What shoppers search for (ADR 0030): one counter per day and normalised text, with how many
 * products the text found. No shopper, address or time of day is kept, texts that look like an
 * e-mail address or a phone number are not counted at all, and days older than SEARCH_STATS_DAYS
 * are dropped when a day's first row of a text is written: the table stays bounded.
 */

export const SEARCH_STATS_DAYS = 30;
const TOP = 20;

/** Texts that may identify someone: an e-mail address, a long run of digits (phone, card). */
const looksPersonal = (text: string) => text.includes('@') || /\d[\d\s()+-]{6,}\d/u.test(text);

/** The day of `now` in UTC, as the table keeps it. */
const dayOf = (now: Date) => now.toISOString().slice(0, 10);

export async function recordSearch(db: Executor, text: string, results: number, now: Date): Promise<void> {
  const query = normaliseSearchText(text);
  if (!query || looksPersonal(query)) return;
  const day = dayOf(now);
  const [row] = await db
    .insert(searchQueries)
    .values({ day, query, results })
    .onConflictDoUpdate({
      target: [searchQueries.day, searchQueries.query],
      set: { searches: sql`${searchQueries.searches} + 1`, results },
    })
    .returning({ searches: searchQueries.searches });
  if (row?.searches === 1)
    await db.execute(
      sql`delete from ${searchQueries} where ${searchQueries.day} < ${day}::date - ${SEARCH_STATS_DAYS}::int`,
    );
}

export interface SearchStat {
  query: string;
  searches: number;
  /** Products the text found the last time it was searched. */
  results: number;
}

/** The most searched texts of the last `days` days, and the most searched of those that found nothing. */
export async function searchStats(
  db: Executor,
  days: number,
  now: Date,
): Promise<{ top: SearchStat[]; empty: SearchStat[] }> {
  const since = sql`${dayOf(now)}::date - ${days - 1}::int`;
  const ranked = (onlyEmpty: boolean) =>
    db.execute(sql`select ${searchQueries.query} as query, sum(${searchQueries.searches})::int as searches,
        (array_agg(${searchQueries.results} order by ${searchQueries.day} desc))[1] as results
      from ${searchQueries} where ${searchQueries.day} >= ${since}
      group by ${searchQueries.query}
      ${onlyEmpty ? sql`having (array_agg(${searchQueries.results} order by ${searchQueries.day} desc))[1] = 0` : sql``}
      order by searches desc, query limit ${TOP}`);
  const [top, empty] = await Promise.all([ranked(false), ranked(true)]);
  const rows = (result: unknown) => (result as { rows: SearchStat[] }).rows;
  return { top: rows(top), empty: rows(empty) };
}
