import { useSyncExternalStore } from 'react';

/**
 * Units the cart shows but the server does not have yet (typed, not saved; or an add on its way,
 * ADR 0063): the header's badge adds them, so it follows a typed count at once (ADR 0059). A module of its own: the header is on every
 * page, the cart's saving code is not.
 */
export const unsavedBasketUnits = {
  units: 0,
  listeners: new Set<() => void>(),
  set(units: number) {
    if (units === unsavedBasketUnits.units) return;
    unsavedBasketUnits.units = units;
    for (const listener of unsavedBasketUnits.listeners) listener();
  },
  subscribe(listener: () => void) {
    unsavedBasketUnits.listeners.add(listener);
    return () => unsavedBasketUnits.listeners.delete(listener);
  },
};

/** The units typed in the cart and not saved yet (0 on the server and outside the cart). */
export const useUnsavedBasketUnits = () =>
  useSyncExternalStore(
    unsavedBasketUnits.subscribe,
    () => unsavedBasketUnits.units,
    () => 0,
  );
