import { createContext, useContext, useEffect, useState } from 'react';
import { useLocation } from 'react-router';

interface Menu {
  visible: boolean;
  toggle(): void;
  /** Sets the menu explicitly visible or hidden. */
  set(visible: boolean): void;
}

const MenuContext = createContext<Menu>({ visible: false, toggle() {}, set() {} });

export function MenuProvider({ children }: { children: React.ReactNode }) {
  const [visible, set] = useState(false);
  const { pathname } = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: close the menu whenever the page changes
  useEffect(() => set(false), [pathname]);
  return (
    <MenuContext.Provider value={{ visible, set, toggle: () => set((value) => !value) }}>
      {children}
    </MenuContext.Provider>
  );
}

export const useMenu = () => useContext(MenuContext);
