import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
} from 'react';
import { useBlocker } from 'react-router';
import { useAdminShop } from './text.ts';

/**
 * Leaving a changed back-office form asks first. React Router keeps one blocker per router, so the
 * admin layout holds the one `useBlocker` (links, Back, the section select) and the one
 * `beforeunload` listener (closing the tab, reloading, typing an address); each form only says
 * whether it holds changes, through `useUnsavedChanges`.
 */

interface Registry {
  /** Marks the form `id` as holding unsaved changes, or not. */
  mark(id: string, changed: boolean): void;
}

const UnsavedChangesContext = createContext<Registry | null>(null);

export function UnsavedChangesGuard({ children }: { children: ReactNode }) {
  const { t } = useAdminShop();
  const changedForms = useRef(new Set<string>());
  const [anyChanged, setAnyChanged] = useState(false);
  const registry = useMemo<Registry>(
    () => ({
      mark(id, changed) {
        if (changed) changedForms.current.add(id);
        else changedForms.current.delete(id);
        setAnyChanged(changedForms.current.size > 0);
      },
    }),
    [],
  );

  // Another page of the back office, not another filter or page of the same list.
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      changedForms.current.size > 0 && currentLocation.pathname !== nextLocation.pathname,
  );
  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    if (window.confirm(t('admin-unsaved-changes'))) {
      changedForms.current.clear();
      setAnyChanged(false);
      blocker.proceed();
    } else {
      blocker.reset();
    }
  }, [blocker, t]);

  useEffect(() => {
    if (!anyChanged) return;
    // The browser asks in its own words; a listener only while something is unsaved keeps the
    // back/forward cache for every other page.
    const ask = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [anyChanged]);

  return <UnsavedChangesContext.Provider value={registry}>{children}</UnsavedChangesContext.Provider>;
}

/**
 * Tells the back office whether this form holds changes not saved yet. Answers `saved()`, which
 * marks the form clean at once: call it before navigating away after a successful save or delete.
 */
export function useUnsavedChanges(changed: boolean) {
  const registry = useContext(UnsavedChangesContext);
  const id = useId();
  useEffect(() => {
    registry?.mark(id, changed);
    return () => registry?.mark(id, false);
  }, [registry, id, changed]);
  const saved = useCallback(() => registry?.mark(id, false), [registry, id]);
  return { saved };
}
