import { LRUCache } from 'lru-cache';
import { gauge } from '../metrics.ts';
import type { ChangeLog, Mark } from './changes.ts';

/**
 * Read-through cache of catalogue answers. Each answer carries the keys of what it shows
 * (changes.ts); a change of one of them makes it stale, so a shopper never sees a stale price or
 * stock state, and a change elsewhere in the catalogue leaves it kept. The serialized JSON is kept
 * beside the value so the API answers without serializing again; the value is that JSON's parse.
 */
export interface CachedAnswer<T> {
  value: T;
  json: string;
  /** What the answer shows, in the key scheme of changes.ts. */
  keys: readonly string[];
}

interface Kept<T> extends CachedAnswer<T> {
  mark: Mark;
}

export interface CatalogCache {
  /** The answer under `key`, loaded when missing or stale; `keysOf` names what a loaded value shows. */
  remember<T>(
    key: string,
    load: () => Promise<T>,
    keysOf: (value: T) => readonly string[],
  ): Promise<CachedAnswer<T>>;
}

/** The estimated bytes of the catalogue answers the process keeps (the last cache made). */
let keptAnswersBytes = () => 0;
gauge({
  name: 'vitrina_catalog_cache_bytes',
  help: 'Estimated bytes of the catalogue answers kept in memory (three times their JSON)',
  collect() {
    this.set(keptAnswersBytes());
  },
});

export function createCatalogCache(options: {
  changes: ChangeLog;
  /**
   * Rough memory bound: an answer counts three times its JSON (the JSON string itself plus the
   * parsed objects beside it). A 48-card list page is ~50 KB of JSON.
   */
  maxBytes?: number;
  /** False while another instance's change could go unnoticed (see invalidation.ts). */
  canKeep?: () => boolean;
}): CatalogCache {
  const { changes, maxBytes = 128 * 1024 * 1024, canKeep = () => true } = options;
  const entries = new LRUCache<string, Kept<unknown>>({
    maxSize: maxBytes,
    sizeCalculation: (answer) => answer.json.length * 3,
  });
  keptAnswersBytes = () => entries.calculatedSize;
  const loading = new Map<string, { mark: Mark; promise: Promise<CachedAnswer<unknown>> }>();

  return {
    async remember<T>(key: string, load: () => Promise<T>, keysOf: (value: T) => readonly string[]) {
      const hit = entries.get(key);
      if (hit) {
        if (changes.isFresh(hit.mark, hit.keys)) return hit as Kept<T>;
        entries.delete(key);
      }
      const mark = changes.mark();
      // Join a load of the same answer only if nothing at all changed since it began.
      const pending = loading.get(key);
      if (pending && pending.mark.seq === mark.seq) return pending.promise as Promise<CachedAnswer<T>>;
      const promise = load()
        .then((loaded) => {
          // What is kept is what the API sends, read back (ADR 0098): the pages render the same
          // answer, and objects built by spreading (`{ ...view, more }`), which V8 gives a shape
          // each, are kept as JSON's compact objects, which share their shapes.
          const value = JSON.parse(JSON.stringify(loaded)) as T;
          const keys = keysOf(value);
          const answer: Kept<T> = {
            value,
            json: JSON.stringify({ success: true, ...(value as object) }),
            keys,
            mark,
          };
          // A change of what it shows while it loaded makes the answer possibly stale: don't keep it.
          if (changes.isFresh(mark, keys) && canKeep()) entries.set(key, answer);
          return answer;
        })
        .finally(() => {
          if (loading.get(key)?.promise === promise) loading.delete(key);
        });
      loading.set(key, { mark, promise });
      return promise;
    },
  };
}
