import pg from 'pg';
import { PAGE_SIZE } from '../../src/contract/catalog.ts';
import { orderOfSort, SORTS, type Sort } from '../../src/contract/shop.ts';
import { listHref, PLAIN_VIEW } from '../../src/web/lib/list-view.ts';
import { ADJECTIVES, NOUNS, PRODUCT_TYPES } from './words.ts';

/**
 * The pages the scale bench asks for, each URL once, shuffled the same way every run: category
 * pages over every category × sort × page, search pages over single words, word pairs and
 * misspelt words in both languages, suggestions for what is typed on the way to them, and a
 * sample of product pages. Since no URL repeats, neither
 * the catalogue cache nor a page cache can answer from memory: every figure is a cache miss.
 */

export interface PageUrls {
  category: string[];
  search: string[];
  suggestions: string[];
  product: string[];
}

/** The deepest search page asked for; single words match a thousand products and more (21 pages). */
const SEARCH_PAGES = 5;

/** Deterministic shuffle (mulberry32), so two runs ask for the same pages in the same order. */
function shuffled<T>(items: T[], seed: number): T[] {
  let state = seed;
  const random = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy;
}

/**
 * A sort's page as the shop's own links write it: the spec's `available` sort is the in-stock
 * filter, which the shop would otherwise answer with a 301 to this address.
 */
const query = (sort: Sort, page: number) => {
  const href = listHref({ ...PLAIN_VIEW, ...orderOfSort(sort), page });
  return href === '?' ? '' : href;
};

async function categoryUrls(client: pg.Client): Promise<string[]> {
  const { rows } = await client.query<{ link: string; total: number; available: number }>(
    `select c.link, count(*)::int as total,
       count(*) filter (where p.quantity > 0 and not p.envisioned)::int as available
     from categories c
     join product_categories pc on pc.category_id = c.id
     join products p on p.id = pc.product_id and p.visible
     join projects pr on pr.id = p.project_id and pr.visible
     where c.visible
     group by c.link`,
  );
  return rows.flatMap((row) =>
    SORTS.flatMap((sort) => {
      const pages = Math.ceil((sort === 'available' ? row.available : row.total) / PAGE_SIZE);
      return Array.from({ length: pages }, (_, index) => `/category/${row.link}${query(sort, index + 1)}`);
    }),
  );
}

/** A word with its middle letter left out, as a hurried shopper types it: "dragon" → "draon". */
const misspelt = (word: string) => word.slice(0, word.length >> 1) + word.slice((word.length >> 1) + 1);

function searchUrls(): string[] {
  const singles = [
    ...ADJECTIVES.flat(),
    ...NOUNS.flat(),
    ...PRODUCT_TYPES.flatMap((type) => [type[0], type[1]]),
  ];
  const pairs = ADJECTIVES.flatMap(([adjectiveRu, adjectiveEn], index) => {
    const [nounRu, nounEn] = NOUNS[(index * 7) % NOUNS.length] ?? ['', ''];
    return [`${adjectiveRu} ${nounRu}`, `${adjectiveEn} ${nounEn}`];
  });
  const typos = singles.filter((word) => word.length >= 6 && !word.includes(' ')).map(misspelt);
  const path = (text: string) => `/search/${encodeURIComponent(text)}`;
  return [
    ...singles.flatMap((word) =>
      SORTS.flatMap((sort) =>
        Array.from({ length: SEARCH_PAGES }, (_, index) => `${path(word)}${query(sort, index + 1)}`),
      ),
    ),
    ...[...pairs, ...typos].flatMap((text) => SORTS.map((sort) => `${path(text)}${query(sort, 1)}`)),
  ];
}

/**
 * Suggestions as the header's search asks for them while a shopper types: every prefix of two
 * letters or more of each word, and of the second word of each pair, in both languages.
 */
function suggestionUrls(): string[] {
  const prefixes = (text: string, from: number) =>
    Array.from({ length: text.length - from + 1 }, (_, index) => text.slice(0, from + index));
  const words = [
    ...ADJECTIVES.flat(),
    ...NOUNS.flat(),
    ...PRODUCT_TYPES.flatMap((type) => [type[0], type[1]]),
  ];
  const pairs = ADJECTIVES.flatMap(([adjectiveRu, adjectiveEn], index) => {
    const [nounRu, nounEn] = NOUNS[(index * 3) % NOUNS.length] ?? ['', ''];
    return [`${adjectiveRu} ${nounRu}`, `${adjectiveEn} ${nounEn}`];
  });
  const texts = new Set([
    ...words.flatMap((word) => prefixes(word, 2)),
    ...pairs.flatMap((pair) => prefixes(pair, pair.indexOf(' ') + 2)),
  ]);
  return [...texts].map((text) => `/api/search/suggestions?search=${encodeURIComponent(text)}`);
}

async function productUrls(client: pg.Client, count: number): Promise<string[]> {
  const { rows } = await client.query<{ link: string }>(
    `select p.link from products p join projects pr on pr.id = p.project_id and pr.visible
     where p.visible order by hashint4(p.id) limit $1`,
    [count],
  );
  return rows.map((row) => `/product/${encodeURIComponent(row.link)}`);
}

/** Every URL of each kind, shuffled; `products` is how many product pages to sample. */
export async function pageUrls(databaseUrl: string, products: number): Promise<PageUrls> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return {
      category: shuffled(await categoryUrls(client), 1),
      search: shuffled(searchUrls(), 2),
      suggestions: shuffled(suggestionUrls(), 4),
      product: shuffled(await productUrls(client, products), 3),
    };
  } finally {
    await client.end();
  }
}
