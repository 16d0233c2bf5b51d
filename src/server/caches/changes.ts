/**
 * What changed in the catalogue, by key, and whether something kept is still fresh (ADR 0042).
 *
 * Every cached answer and page carries the keys of what it shows (`cacheKeys`) and the moment its
 * load started (a `Mark`). A change names keys, or everything; a kept thing is stale as soon as one
 * of its keys changed after its mark. A stock change is the exception pages may use: a page that
 * shows stock stays servable until one second (`STOCK_GRACE_MS`) after its own render began, so a
 * drop's orders cost at most one render of its pages per second, and the stock it shows is never
 * more than a second old.
 */

/**
 * The key scheme, shared by the in-process caches, the `Surrogate-Key`/`Cache-Tag` headers and the
 * CDN purge. Keys never contain spaces or commas.
 */
export const cacheKeys = {
  /** Everything that shows this product: its page and answer, any list, search or home showing it. */
  product: (id: number) => `product:${id}`,
  /** A project's lists (every sort, filter and page). */
  project: (link: string) => `project:${link}`,
  /** A category's lists. */
  category: (link: string) => `category:${link}`,
  /** The list of every product (`/products`). */
  all: 'all',
  /** Every search answer, suggestion and "did you mean". */
  search: 'search',
  /** The home page: the week's products and the category tiles' pictures. */
  home: 'home',
  /** Every cacheable page and answer (the CDN headers add it): what a change of everything purges. */
  shop: 'shop',
} as const;

/**
 * What a catalogue or stock write changed, in its domain's words (ADR 0071): everything shown
 * anywhere (projects, categories, synonyms, drops, static pages, rates, an import), these products
 * (`before`: the keys that showed them before a write that may move them between lists), or the
 * stock of these products, or of these orders' products. Null: nothing shown changed.
 */
export type CatalogWrite =
  | { everything: true }
  | { products: readonly number[]; before?: readonly string[] }
  | { stockOf: readonly number[] }
  | { ordersOf: readonly number[] }
  | null;

/** A change of some keys, or of everything (settings, rates, projects, categories). */
export type CatalogChange =
  | { everything: true }
  | {
      keys: readonly string[];
      /** Only stock moved: a page may go on showing the old figure for `STOCK_GRACE_MS`. */
      stockOnly?: boolean;
    };

export const EVERYTHING: CatalogChange = { everything: true };

/** How long a page may show stock that has changed since its render began. */
export const STOCK_GRACE_MS = 1000;

/** When a load began: the change count then, and the time. */
export interface Mark {
  seq: number;
  at: number;
}

export interface ChangeLog {
  mark(): Mark;
  record(change: CatalogChange): void;
  /**
   * True when nothing a thing with these `keys`, loaded from `mark` on, shows has changed since;
   * `stockGraceMs` lets a stock-only change go unseen that long after the mark.
   */
  isFresh(mark: Mark, keys: Iterable<string>, stockGraceMs?: number): boolean;
}

export function createChangeLog(clock: () => number = Date.now): ChangeLog {
  let seq = 0;
  let everythingAt = 0;
  /** Per key, the count at its last change (of anything, or of stock only). */
  const changedAt = new Map<string, number>();
  const stockChangedAt = new Map<string, number>();
  return {
    mark: () => ({ seq, at: clock() }),
    record(change) {
      seq += 1;
      if ('everything' in change) {
        everythingAt = seq;
        // Whatever was marked before is stale anyway: nothing older needs remembering.
        changedAt.clear();
        stockChangedAt.clear();
        return;
      }
      const log = change.stockOnly ? stockChangedAt : changedAt;
      for (const key of change.keys) log.set(key, seq);
    },
    isFresh(mark, keys, stockGraceMs = 0) {
      if (everythingAt > mark.seq) return false;
      const graceOver = clock() >= mark.at + stockGraceMs;
      for (const key of keys) {
        if ((changedAt.get(key) ?? 0) > mark.seq) return false;
        if (graceOver && (stockChangedAt.get(key) ?? 0) > mark.seq) return false;
      }
      return true;
    },
  };
}
