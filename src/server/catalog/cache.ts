import { LRUCache } from 'lru-cache';

/**
 * Read-through cache of catalogue answers. Every catalogue or stock write calls `invalidate()`,
 * which empties it, so a shopper never sees a stale price or stock state. The serialized JSON is
 * kept beside the value so the API answers without serializing again.
 */
export interface CachedAnswer<T> {
  value: T;
  json: string;
}

export interface CatalogCache {
  remember<T>(key: string, load: () => Promise<T>): Promise<CachedAnswer<T>>;
  invalidate(): void;
  /** Counter that changes on every invalidation; page caches key on it. */
  readonly generation: number;
}

export function createCatalogCache(
  options: {
    /**
     * Rough memory bound: an answer counts three times its JSON (the JSON string itself plus the
     * parsed objects beside it). A 48-card list page is ~50 KB of JSON.
     */
    maxBytes?: number;
    /** False while another instance's change could go unnoticed (see invalidation.ts). */
    canKeep?: () => boolean;
  } = {},
): CatalogCache {
  const { maxBytes = 128 * 1024 * 1024, canKeep = () => true } = options;
  const entries = new LRUCache<string, CachedAnswer<unknown>>({
    maxSize: maxBytes,
    sizeCalculation: (answer) => answer.json.length * 3,
  });
  const loading = new Map<string, Promise<CachedAnswer<unknown>>>();
  let generation = 0;

  return {
    get generation() {
      return generation;
    },
    async remember<T>(key: string, load: () => Promise<T>): Promise<CachedAnswer<T>> {
      const hit = entries.get(key);
      if (hit) return hit as CachedAnswer<T>;
      const pending = loading.get(key);
      if (pending) return pending as Promise<CachedAnswer<T>>;
      const startedAt = generation;
      const promise = load()
        .then((value) => {
          const answer = { value, json: JSON.stringify({ success: true, ...(value as object) }) };
          // A write that happened while loading makes this answer possibly stale: don't keep it.
          if (startedAt === generation && canKeep()) entries.set(key, answer);
          return answer;
        })
        .finally(() => loading.delete(key));
      loading.set(key, promise);
      return promise;
    },
    invalidate() {
      generation += 1;
      entries.clear();
      loading.clear();
    },
  };
}
