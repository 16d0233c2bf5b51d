import { type RefObject, useEffect, useRef } from 'react';
import { Link, useLocation, useMatches } from 'react-router';
import { signInPath } from '../lib/redirects.ts';
import { useShop } from '../lib/shop.ts';
import { useUnsavedBasketUnits } from '../lib/unsaved-basket-units.ts';
import { CartIcon, HeartIcon, MenuIcon } from './icons.tsx';
import { LanguageSwitcher } from './language-switcher.tsx';
import { useMenu } from './menu.tsx';
import { SearchField } from './search-field.tsx';

/** How many products the current search page found, while one is open (the found-count label). */
function useSearchCount(): number | null {
  const search = useMatches().find((match) => match.id === 'routes/search');
  const paging = (search?.data as { paging?: { total: number } } | undefined)?.paging;
  return paging ? paging.total : null;
}

/**
 * Keeps `--header-offset` (styles.css) at the sticky header's height while the header wraps or
 * changes, so anchors and scrolled-to fields stop just below it.
 */
function useHeaderOffset(header: RefObject<HTMLElement | null>) {
  useEffect(() => {
    const element = header.current;
    if (!element || typeof ResizeObserver === 'undefined') return undefined;
    const root = document.documentElement;
    const observer = new ResizeObserver(() =>
      root.style.setProperty('--header-offset', `${element.getBoundingClientRect().height}px`),
    );
    observer.observe(element);
    return () => {
      observer.disconnect();
      root.style.removeProperty('--header-offset');
    };
  }, [header]);
}

/** The number on the cart and wishlist links; nothing while they are empty. */
function CountBadge({ count }: { count: number }) {
  return count > 0 ? <span className="badge">{count}</span> : null;
}

export function Header() {
  const { data, t } = useShop();
  const user = data?.user;
  const menu = useMenu();
  const found = useSearchCount();
  const location = useLocation();
  const header = useRef<HTMLElement>(null);
  useHeaderOffset(header);
  const unsavedUnits = useUnsavedBasketUnits();
  return (
    <header className="site-header" ref={header}>
      <div className="site-header__inner">
        <button
          type="button"
          className="icon-button"
          aria-expanded={menu.visible}
          aria-controls="navigation-panel"
          onClick={menu.toggle}
        >
          <MenuIcon label={t('menu')} />
        </button>
        <Link to="/" prefetch="intent" className="brand">
          <span className="brand__title">{t('site-title')}</span>
          <span className="brand__subtitle">{t('site-subtitle')}</span>
        </Link>
        <SearchField found={found} />
        <nav className="header-links" aria-label={t('profile')}>
          {data?.ownDataLater ? (
            // Whose page this is comes once it is hydrated; a session usually means signed in.
            <Link to="/profile" prefetch="intent" className="header-links__text header-links__user">
              {t('profile')}
            </Link>
          ) : user ? (
            <Link
              to="/profile"
              prefetch="intent"
              className="header-links__text header-links__user"
              title={user.email}
            >
              {user.email}
            </Link>
          ) : (
            <>
              <Link
                to={signInPath(location.pathname, location.search)}
                prefetch="intent"
                className="header-links__text"
              >
                {t('login')}
              </Link>
              <Link to="/registration" prefetch="intent" className="header-links__text">
                {t('registration')}
              </Link>
            </>
          )}
          <Link to="/wishlist" prefetch="intent" className="icon-link">
            <HeartIcon label={t('wishlist')} />
            <CountBadge count={data?.counts.wishlist ?? 0} />
          </Link>
          <Link to="/cart" prefetch="intent" className="icon-link">
            <CartIcon label={t('cart')} />
            <CountBadge count={(data?.counts.basket ?? 0) + unsavedUnits} />
          </Link>
          <LanguageSwitcher className="header-language" />
        </nav>
      </div>
    </header>
  );
}
