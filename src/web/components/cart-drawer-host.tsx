import { type ComponentType, lazy, Suspense, useSyncExternalStore } from 'react';
import type { CartDrawerProps } from './cart-drawer.tsx';

/**
 * The added-to-cart drawer's switch (ADR 0063): an add answered by the server asks for the drawer,
 * and the host (in the root layout) draws it. The drawer itself is a chunk of its own, downloaded
 * when a shopper first presses "Add to cart", so a first visit does not pay for it. Without
 * JavaScript none of this runs: the add form posts and the page comes back with its confirmation.
 */

interface DrawerRequest {
  /** A new number per add: the drawer opens afresh and loads the cart anew. */
  id: number;
  /** The control that added it: focus goes back there when the drawer closes. */
  opener: HTMLElement | null;
}

const drawer = {
  request: null as DrawerRequest | null,
  listeners: new Set<() => void>(),
  set(request: DrawerRequest | null) {
    drawer.request = request;
    for (const listener of drawer.listeners) listener();
  },
  subscribe(listener: () => void) {
    drawer.listeners.add(listener);
    return () => drawer.listeners.delete(listener);
  },
};

/** Downloads the drawer's code (once): called as an add is sent, so it is there when the answer comes. */
export const preloadCartDrawer = () => import('./cart-drawer.tsx');

/**
 * Should the code not come (the connection lost, a new release's files), the add still shows its
 * confirmation with a link to the cart: no drawer, rather than the error page.
 */
const CartDrawer = lazy<ComponentType<CartDrawerProps>>(() =>
  preloadCartDrawer().then(
    (module) => ({ default: module.CartDrawer }),
    () => ({ default: () => null }),
  ),
);

/** Shows the cart in the drawer after an add; `opener` gets the focus back when it closes. */
export function openCartDrawer(opener: HTMLElement | null) {
  drawer.set({ id: (drawer.request?.id ?? 0) + 1, opener });
}

/** Focuses the control that added, else (the sticky bar's button, hidden by now) the page's own. */
export function focusOpener(opener: HTMLElement | null | undefined, options?: FocusOptions) {
  opener?.focus(options);
  if (opener && document.activeElement !== opener) {
    // The sticky bar's button belongs to the page's add form by its `form` attribute.
    const form = opener instanceof HTMLButtonElement ? opener.form : opener.closest('form');
    form?.querySelector<HTMLElement>('button[type="submit"]')?.focus(options);
  }
}

/**
 * Closed: focus back on the control that opened it. The browser has already put it there as the
 * dialog closed (see `CartDrawer`); this is for a control that was hidden meanwhile.
 */
function closeCartDrawer(returnFocus: boolean) {
  const opener = drawer.request?.opener;
  drawer.set(null);
  if (returnFocus) focusOpener(opener);
}

export function CartDrawerHost() {
  const request = useSyncExternalStore(
    drawer.subscribe,
    () => drawer.request,
    () => null,
  );
  if (!request) return null;
  return (
    <Suspense fallback={null}>
      <CartDrawer key={request.id} opener={request.opener} onClose={closeCartDrawer} />
    </Suspense>
  );
}
