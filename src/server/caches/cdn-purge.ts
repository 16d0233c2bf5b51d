import { type CatalogChange, cacheKeys } from './changes.ts';

/** Purges are sent at most this often, each with every key changed since the last one. */
export const PURGE_INTERVAL_MS = 1000;

/**
 * Tells a CDN which cached pages and answers to drop (docs/production.md): each catalogue change
 * made on this instance POSTs `{"keys": [...]}` (JSON) to `CDN_PURGE_URL`, the same keys the
 * `Surrogate-Key` and `Cache-Tag` headers carry; a change of everything purges `shop`, which every
 * cacheable answer carries. During a drop, orders change stock many times a second: purges go out
 * at most once a second with the keys of everything changed meanwhile, and a purge the CDN refused
 * or did not answer is sent again with the next.
 */
export function cdnPurge(options: {
  url: string;
  log?: (message: string) => void;
  fetchImpl?: typeof fetch;
  clock?: () => number;
}) {
  const { url, fetchImpl = fetch, clock = Date.now } = options;
  let waiting = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let lastSentAt = Number.NEGATIVE_INFINITY;
  let sending: Promise<void> = Promise.resolve();

  const send = async () => {
    timer = undefined;
    const keys = [...waiting];
    waiting = new Set();
    if (keys.length === 0) return;
    lastSentAt = clock();
    try {
      const response = await fetchImpl(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ keys }),
        signal: AbortSignal.timeout(5000),
      });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
    } catch (error) {
      options.log?.(`CDN purge failed, sent again with the next: ${(error as Error).message}`);
      add(keys);
    }
  };
  const add = (keys: readonly string[]) => {
    for (const key of keys) waiting.add(key);
    if (timer) return;
    timer = setTimeout(
      () => {
        sending = send();
      },
      Math.max(0, lastSentAt + PURGE_INTERVAL_MS - clock()),
    );
    timer.unref();
  };

  return {
    purge: (change: CatalogChange) => add('everything' in change ? [cacheKeys.shop] : change.keys),
    /** Sends what is still waiting (on shutdown). */
    async close() {
      clearTimeout(timer);
      await sending;
      if (waiting.size > 0) await send();
      clearTimeout(timer);
    },
  };
}
