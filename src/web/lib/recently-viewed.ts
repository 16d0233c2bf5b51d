/** Products a shopper looked at, most recent first, kept in their browser (localStorage). */

const STORAGE_KEY = 'recently-viewed';
/** Products shown under "recently viewed"; one more is kept, as the product being looked at is left out. */
export const RECENTLY_VIEWED_SHOWN = 8;

const productId = /^[1-9]\d{0,8}$/;

/** Product ids from `1,2,3`: at most RECENTLY_VIEWED_SHOWN, each once, anything else left out. */
export function readProductIds(text: string | null): number[] {
  const ids = (text ?? '')
    .split(',')
    .filter((part) => productId.test(part))
    .map(Number);
  return [...new Set(ids)].slice(0, RECENTLY_VIEWED_SHOWN);
}

function stored(storage: Storage): number[] {
  try {
    const value: unknown = JSON.parse(storage.getItem(STORAGE_KEY) ?? '[]');
    return Array.isArray(value) ? value.filter((id): id is number => Number.isInteger(id) && id > 0) : [];
  } catch {
    return [];
  }
}

/**
 * Notes that the shopper is looking at product `id` and answers the others they looked at before,
 * most recent first. A browser that keeps nothing (storage blocked or full) just has no history.
 */
export function noteViewed(id: number): number[] {
  try {
    const storage = window.localStorage;
    const others = stored(storage).filter((viewed) => viewed !== id);
    storage.setItem(STORAGE_KEY, JSON.stringify([id, ...others].slice(0, RECENTLY_VIEWED_SHOWN + 1)));
    return others.slice(0, RECENTLY_VIEWED_SHOWN);
  } catch {
    return [];
  }
}
