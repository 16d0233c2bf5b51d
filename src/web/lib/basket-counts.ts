import { useCallback, useEffect, useRef, useState } from 'react';
import { useBlocker, useRevalidator, useSubmit } from 'react-router';
import { basketLineFields } from '../../contract/shopping.ts';
import { ENHANCED_FIELD, INTENT } from './enhanced-forms.ts';
import { unsavedBasketUnits as unsaved } from './unsaved-basket-units.ts';

/** Count edits are saved this long after the last change (spec section 9). */
export const BASKET_SAVE_DELAY_MS = 5000;

/** The spec's count call, for saves that must outlive the page (form-encoded, `_method=PATCH`). */
const COUNT_URL = '/api/basket/0';

/** Cart quantity: an integer, falling back to 1, never below 1 (spec section 5); null while unreadable. */
export function readCount(text: string): number | null {
  if (!/^\s*\d+\s*$/.test(text)) return null;
  const count = Number.parseInt(text, 10);
  return count >= 1 ? count : null;
}

/** A count kept between 1 and what is in stock (when anything is). */
export const clampCount = (count: number, inStock: number) =>
  Math.max(1, inStock > 0 ? Math.min(count, inStock) : count);

/** Counts by basket line key (a product id, or "product:variant"), as strings. */
type Counts = Record<string, number>;

const without = (counts: Counts, product: string): Counts => {
  const { [product]: _dropped, ...rest } = counts;
  return rest;
};

/**
 * The cart's count edits (spec section 4): shown at once, saved 5 s after the last change, or
 * immediately when the visitor leaves the cart (the navigation waits for the save, so the next page
 * and a return to the cart see it) or hides or closes the tab (a request that outlives the page).
 * Saves go through the cart route's action as fetcher submissions, so the header's badges and the
 * cart reload afterwards; the server's count then replaces the local one, which is how a `force`
 * answer (the count was clamped to stock) overwrites what the visitor typed.
 *
 * `serverCounts` changes identity whenever the cart's loader data does.
 */
export function useBasketCounts(serverCounts: Counts) {
  const submit = useSubmit();
  const revalidator = useRevalidator();
  /** What the page shows instead of the server's count, until the server has it. */
  const [edits, setEdits] = useState<Counts>({});
  const pending = useRef(new Map<string, number>());
  const saving = useRef(new Map<string, Promise<unknown>>());
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const submitRef = useRef(submit);
  submitRef.current = submit;
  const revalidate = useRef(revalidator.revalidate);
  revalidate.current = revalidator.revalidate;

  /** Sends every unsaved edit now; resolves when all saves (earlier ones too) are done. */
  const flush = useCallback(async () => {
    clearTimeout(timer.current);
    timer.current = undefined;
    const batch = [...pending.current];
    pending.current.clear();
    for (const [product, count] of batch) {
      const request = submitRef
        .current(
          { intent: INTENT.count, ...basketLineFields(product), count: String(count), [ENHANCED_FIELD]: '1' },
          { method: 'post', action: '/cart', navigate: false, fetcherKey: `basket-count-${product}` },
        )
        .then(() => {
          if (saving.current.get(product) === request) saving.current.delete(product);
          // The cart was reloaded: its count (the server's, clamped if it had to be) shows again.
          setEdits((current) =>
            current[product] === count && !pending.current.has(product) ? without(current, product) : current,
          );
        });
      saving.current.set(product, request);
    }
    await Promise.allSettled([...saving.current.values()]);
  }, []);

  const change = useCallback(
    (product: string, count: number) => {
      setEdits((current) => ({ ...current, [product]: count }));
      pending.current.set(product, count);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => void flush(), BASKET_SAVE_DELAY_MS);
    },
    [flush],
  );

  /** A removed product's unsaved count is dropped. */
  const forget = useCallback((product: string) => {
    pending.current.delete(product);
    setEdits((current) => without(current, product));
  }, []);

  // Fresh loader data: edits the server already has give way to its counts.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs whenever the cart's data is reloaded
  useEffect(() => {
    setEdits((current) => {
      const kept = Object.entries(current).filter(
        ([product]) => pending.current.has(product) || saving.current.has(product),
      );
      return kept.length === Object.keys(current).length ? current : Object.fromEntries(kept);
    });
  }, [serverCounts]);

  // The header's badge follows the typed counts at once.
  useEffect(() => {
    unsaved.set(
      Object.entries(edits).reduce(
        (sum, [product, count]) => sum + count - (serverCounts[product] ?? count),
        0,
      ),
    );
  }, [edits, serverCounts]);
  useEffect(() => () => unsaved.set(0), []);

  // Leaving the cart: the navigation waits until every edit is saved.
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      (pending.current.size > 0 || saving.current.size > 0) &&
      currentLocation.pathname !== nextLocation.pathname,
  );
  const blockerRef = useRef(blocker);
  blockerRef.current = blocker;
  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    void flush().finally(() => {
      if (blockerRef.current.state === 'blocked') blockerRef.current.proceed();
    });
  }, [blocker.state, flush]);

  // Hiding or closing the tab, or the page going away by other means: a request that outlives it.
  useEffect(() => {
    let sentWhileHidden = false;
    const sendNow = () => {
      if (pending.current.size === 0) return;
      clearTimeout(timer.current);
      for (const [product, count] of pending.current) {
        const body = new URLSearchParams({
          _method: 'PATCH',
          ...basketLineFields(product),
          count: String(count),
        });
        const request = fetch(COUNT_URL, {
          method: 'POST',
          body,
          keepalive: true,
          credentials: 'same-origin',
          headers: { accept: 'application/json' },
        })
          .catch(() => undefined)
          .finally(() => {
            if (saving.current.get(product) === request) saving.current.delete(product);
          });
        saving.current.set(product, request);
      }
      pending.current.clear();
      sentWhileHidden = true;
    };
    const onVisibilityChange = () => {
      if (document.visibilityState === 'hidden') {
        sendNow();
      } else if (sentWhileHidden) {
        // Back on the tab: reload the cart (and badges) once those saves are done.
        sentWhileHidden = false;
        void Promise.allSettled([...saving.current.values()]).then(() => revalidate.current());
      }
    };
    document.addEventListener('visibilitychange', onVisibilityChange);
    // A reload or a typed address asks for the next page before `pagehide`: save before it goes.
    window.addEventListener('beforeunload', sendNow);
    window.addEventListener('pagehide', sendNow);
    return () => {
      document.removeEventListener('visibilitychange', onVisibilityChange);
      window.removeEventListener('beforeunload', sendNow);
      window.removeEventListener('pagehide', sendNow);
      clearTimeout(timer.current);
      // Left the cart: anything still unsaved goes now.
      sendNow();
    };
  }, []);

  return {
    /** The count to show: the visitor's edit, else the server's. */
    countOf: (product: string) => edits[product] ?? serverCounts[product] ?? 1,
    change,
    forget,
    flush,
  };
}
