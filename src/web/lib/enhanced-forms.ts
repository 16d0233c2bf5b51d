import { useSyncExternalStore } from 'react';

const subscribe = () => () => {};

/**
 * False while the page is rendered on the server and hydrated, true once React runs in the
 * browser: controls that only work with JavaScript appear then, their plain-form fallbacks go.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}

/**
 * A form field present only when JavaScript sent the form (a fetcher): the action then answers data
 * instead of redirecting back, as it does for a plain form post.
 */
export const ENHANCED_FIELD = 'enhanced';

export const isEnhanced = (formData: FormData) => formData.get(ENHANCED_FIELD) === '1';

/** What a basket, wishlist or review form asks for (its `intent` field). */
export const INTENT = {
  addToCart: 'add-to-cart',
  count: 'count',
  remove: 'remove',
  wishlistAdd: 'wishlist-add',
  wishlistRemove: 'wishlist-remove',
  review: 'review',
  stockAlert: 'stock-alert',
  releaseReminder: 'release-reminder',
} as const;
