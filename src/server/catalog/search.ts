import { type SQL, sql } from 'drizzle-orm';
import type { SearchSuggestions } from '../../contract/catalog.ts';
import type { Locale } from '../../contract/locale.ts';
import { kopecksToRoubles } from '../../contract/money.ts';
import type { Executor } from '../db/client.ts';
import { rowsOf } from '../db/client.ts';
import { categories, orderItems, products, projects, searchSynonyms, searchWords } from '../db/schema.ts';
import { isAvailable, isListed } from './release.ts';
import { closestWord, normaliseSearchText, otherLayout, wordsOf } from './search-text.ts';

/**
 * How a shopper's text becomes a full-text query (ADR 0030). Each typed word becomes a term: the
 * word itself, the catalogue word it most likely misspells, and the manager's synonyms of it; a
 * product must match every term, in either language. Text typed in the wrong keyboard layout is
 * read in the other one when that makes more of its words known.
 */

/** Catalogue words looked at per misspelt word (most similar by trigrams), before counting edits. */
const TYPO_CANDIDATES = 20;

/** Texts as Postgres reads them in an array literal: words are letters and digits, swaps add spaces. */
const textArray = (words: string[]) => `{${words.map((word) => `"${word}"`).join(',')}}`;

/** A word or phrase matched in either language's stems. */
const eitherLanguage = (text: string | SQL) =>
  sql`(plainto_tsquery('russian', ${text}) || plainto_tsquery('english', ${text}))`;

export interface SearchPlan {
  /** The text as read: normalised, in the layout that made sense. */
  text: string;
  /** One entry per word: the alternatives any of which a product must match. */
  terms: string[][];
  /** Whether the last word is being typed: it matches the words it begins, too (suggestions). */
  prefix: boolean;
}

interface WordFacts {
  word: string;
  known: boolean;
  /** A catalogue word begins with it. */
  begins: boolean;
  synonyms: string[];
  candidates: string[] | null;
}

/** The word with each pair of neighbouring letters swapped: trigrams barely see such a typo. */
const swapsOf = (word: string) => {
  const letters = [...word];
  return letters.slice(1).map((_, index) => {
    const swapped = [...letters];
    [swapped[index], swapped[index + 1]] = [letters[index + 1] ?? '', letters[index] ?? ''];
    return swapped.join('');
  });
};

/**
 * What the catalogue knows of each word, in one statement for all the words of both readings: a
 * word is known when it is a word of the names or finds a product (its stem, a word of a
 * description); only unknown words get correction candidates: the most similar names' words by
 * trigrams, and any of its swapped-letter forms that is one.
 */
async function wordFacts(db: Executor, words: string[]): Promise<Map<string, WordFacts>> {
  if (words.length === 0) return new Map();
  const rows = rowsOf<WordFacts>(
    await db.execute(sql`select typed.word, known.known,
        exists (select 1 from ${searchWords} w where w.word like typed.word || '%') as begins,
        coalesce((select array_agg(s.meaning order by s.meaning) from ${searchSynonyms} s
          where s.term = typed.word), '{}') as synonyms,
        (select array_agg(candidate.word order by candidate.rank desc, candidate.word) from (
          (select w.word, similarity(w.word, typed.word) as rank from ${searchWords} w
            where not known.known and length(typed.word) >= 3 and w.word % typed.word
            order by rank desc, w.word limit ${TYPO_CANDIDATES})
          union
          select w.word, 1 from ${searchWords} w
            where not known.known and w.word = any(string_to_array(typed.swaps, ' '))
        ) as candidate) as candidates
      from unnest(${textArray(words)}::text[], ${textArray(words.map((word) => swapsOf(word).join(' ')))}::text[])
        as typed(word, swaps)
      cross join lateral (select exists (select 1 from ${searchWords} w where w.word = typed.word)
        or exists (select 1 from ${products} where ${products.searchVector} @@ ${eitherLanguage(sql`typed.word`)})
        as known) as known`),
  );
  return new Map(rows.map((row) => [row.word, row]));
}

/**
 * Reads a shopper's text: each word with its corrections and synonyms, in the keyboard layout
 * typed, or in the other one when that reads as known words only and more of them. `prefix`: the last word may be
 * unfinished (suggestions while typing).
 */
export async function planSearch(db: Executor, text: string, prefix = false): Promise<SearchPlan> {
  const typed = normaliseSearchText(text);
  const retyped = otherLayout(typed);
  const readings = [typed, ...(retyped ? [retyped] : [])];
  const facts = await wordFacts(db, [...new Set(readings.flatMap(wordsOf))]);

  const read = (reading: string) => {
    const words = wordsOf(reading);
    let score = 0;
    let sure = true;
    const terms = words.map((word, index) => {
      const fact = facts.get(word);
      const typing = prefix && index === words.length - 1;
      const correction =
        fact && !fact.known && fact.synonyms.length === 0
          ? closestWord(word, fact.candidates ?? [])
          : undefined;
      if (fact?.known || (typing && fact?.begins) || (fact?.synonyms.length ?? 0) > 0) score += 2;
      else {
        sure = false;
        if (correction) score += 1;
      }
      return [word, ...(correction ? [correction] : []), ...(fact?.synonyms ?? [])];
    });
    return { text: reading, terms, score, sure };
  };
  // The other layout only when it reads as words the catalogue knows, every one of them.
  const [first, second] = readings.map(read);
  const chosen = second?.sure && first && second.score > first.score ? second : first;
  return { text: chosen?.text ?? typed, terms: chosen?.terms ?? [], prefix };
}

/**
 * The full-text query of a plan. A word that is a stop word in either language (`и`, `the`) asks
 * nothing; an unfinished last word matches the words it begins.
 */
export function planQuery(plan: SearchPlan): SQL {
  const terms = plan.terms.map(([word, ...alternatives], index) => {
    if (word === undefined) return sql`''::tsquery`;
    const options = [eitherLanguage(word), ...alternatives.map(eitherLanguage)];
    if (plan.prefix && index === plan.terms.length - 1)
      return sql`(to_tsquery('simple', ${`${word}:*`}) || ${sql.join(options, sql` || `)})`;
    return sql`(case when numnode(plainto_tsquery('russian', ${word})) = 0
        or numnode(plainto_tsquery('english', ${word})) = 0 then ''::tsquery
      else ${sql.join(options, sql` || `)} end)`;
  });
  return terms.length === 0 ? sql`''::tsquery` : sql.join(terms, sql` && `);
}

/** Products looked at per suggestion request before ranking: bounded work for a two-letter prefix. */
const SUGGESTION_CANDIDATES = 500;
const SUGGESTED_PRODUCTS = 6;
const SUGGESTED_SECTIONS = 4;

const localized = <Ru, En>(locale: Locale, ru: Ru, en: En): Ru | En => (locale === 'ru' ? ru : en);

/**
 * Suggestions while typing: the best products (picture, name, price) and the projects and
 * categories whose names match, the last word read as unfinished. One statement after the plan.
 */
export async function suggestSearch(
  db: Executor,
  locale: Locale,
  text: string,
  now: Date = new Date(),
): Promise<SearchSuggestions> {
  const plan = await planSearch(db, text, !/\s$/u.test(text));
  if (plan.terms.length === 0) return { text: plan.text, products: [], sections: [] };
  const query = planQuery(plan);
  const nameDocument = (table: typeof projects | typeof categories) =>
    sql`(to_tsvector('russian', ${table.nameRu}) || to_tsvector('english', ${table.nameEn})
      || to_tsvector('simple', ${table.nameRu} || ' ' || ${table.nameEn}))`;
  const [row] = rowsOf<{
    products: Array<{ link: string; name: string; image: string | null; price: number; sale: number | null }>;
    sections: SearchSuggestions['sections'];
  }>(
    await db.execute(sql`with search_query as (select ${query} as query),
      candidates as (
        select ${products.id} as id, ts_rank(${products.searchVector}, search_query.query) as rank
        from ${products} join ${projects} on ${projects.id} = ${products.projectId}, search_query
        where ${isListed(now)} and ${products.searchVector} @@ search_query.query
        limit ${SUGGESTION_CANDIDATES}
      ),
      best as (select id, rank from candidates order by rank desc, id limit ${SUGGESTED_PRODUCTS})
      select
        (select coalesce(json_agg(json_build_object('link', ${products.link},
            'name', ${localized(locale, products.nameRu, products.nameEn)},
            'image', (select pi.file from product_images pi where pi.product_id = ${products.id}
              order by pi.position, pi.id limit 1),
            'price', ${products.price}, 'sale', ${products.sale}) order by best.rank desc, best.id), '[]')
          from best join ${products} on ${products.id} = best.id) as products,
        (select coalesce(json_agg(section order by section.kind desc, section.position), '[]') from (
          (select 'project' as kind, ${projects.link} as link,
              ${localized(locale, projects.nameRu, projects.nameEn)} as name, ${projects.position} as position
            from ${projects}, search_query where ${projects.visible} and ${nameDocument(projects)} @@ search_query.query)
          union all
          (select 'category', ${categories.link}, ${localized(locale, categories.nameRu, categories.nameEn)},
              ${categories.position}
            from ${categories}, search_query
            where ${categories.visible} and ${nameDocument(categories)} @@ search_query.query)
          order by kind desc, position limit ${SUGGESTED_SECTIONS}) as section) as sections`),
  );
  return {
    text: plan.text,
    products: (row?.products ?? []).map((product) => ({
      link: product.link,
      name: product.name,
      image: product.image,
      price: kopecksToRoubles(product.price),
      sale: product.sale === null ? null : kopecksToRoubles(product.sale),
    })),
    sections: (row?.sections ?? []).map(({ kind, link, name }) => ({ kind, link, name })),
  };
}

/** How similar (trigrams) a catalogue word must be to a typed one to be offered for "did you mean". */
const LOOSE_SIMILARITY = 0.2;
const DID_YOU_MEAN = 3;

/**
 * Help for a search that found nothing: the names of the products closest to what was typed (any
 * of its words, each read loosely), for "did you mean".
 */
export async function closestNames(
  db: Executor,
  locale: Locale,
  text: string,
  now: Date = new Date(),
): Promise<Array<{ name: string; link: string }>> {
  const words = wordsOf(normaliseSearchText(text)).filter((word) => word.length >= 3);
  if (words.length === 0) return [];
  const loose = rowsOf<{ word: string }>(
    await db.execute(sql`select distinct close.word from unnest(${textArray(words)}::text[]) as typed(word)
      cross join lateral (select w.word from ${searchWords} w
        where similarity(w.word, typed.word) >= ${LOOSE_SIMILARITY}
        order by similarity(w.word, typed.word) desc, w.word limit 2) as close`),
  ).map((row) => row.word);
  if (loose.length === 0) return [];
  const query = sql.join(loose.map(eitherLanguage), sql` || `);
  return rowsOf<{ name: string; link: string }>(
    await db.execute(sql`select ${localized(locale, products.nameRu, products.nameEn)} as name, ${products.link} as link
      from ${products} join ${projects} on ${projects.id} = ${products.projectId}
      where ${isListed(now)} and ${products.searchVector} @@ (${query})
      order by ts_rank(${products.searchVector}, ${query}) desc, ${products.id}
      limit ${DID_YOU_MEAN}`),
  );
}

const POPULAR = 8;

/**
 * Popular products for a search that found nothing: the most ordered ones that can be bought, then
 * the week's featured ones, then in the shop's own order.
 */
export async function popularProductIds(db: Executor, now: Date = new Date()): Promise<number[]> {
  const rows = rowsOf<{ id: number }>(
    await db.execute(sql`select ${products.id} as id
      from ${products} join ${projects} on ${projects.id} = ${products.projectId}
      left join (select oi.product_id, sum(oi.count) as units from ${orderItems} oi group by oi.product_id) as ordered
        on ordered.product_id = ${products.id}
      where ${isAvailable(now)}
      order by coalesce(ordered.units, 0) desc, ${products.weekSale} desc, ${products.position}, ${products.id}
      limit ${POPULAR}`),
  );
  return rows.map((row) => row.id);
}
