import { useState } from 'react';
import { Link, useLocation, useMatches, useNavigate } from 'react-router';
import { useShop } from '../lib/shop.ts';
import { CartIcon, HeartIcon, MenuIcon, SearchIcon } from './icons.tsx';
import { LanguageSwitcher } from './language-switcher.tsx';
import { useMenu } from './menu.tsx';

/** How many products the current search page found, while one is open (the found-count label). */
function useSearchCount(): number | null {
  const search = useMatches().find((match) => match.id === 'routes/search');
  const paging = (search?.data as { paging?: { total: number } } | undefined)?.paging;
  return paging ? paging.total : null;
}

export function Header() {
  const { data, t } = useShop();
  const user = data?.user;
  const menu = useMenu();
  const found = useSearchCount();
  return (
    <header className="site-header">
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
          {user ? (
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
              <Link to="/login" prefetch="intent" className="header-links__text">
                {t('login')}
              </Link>
              <Link to="/registration" prefetch="intent" className="header-links__text">
                {t('registration')}
              </Link>
            </>
          )}
          <Link to="/wishlist" prefetch="intent" className="icon-link">
            <HeartIcon label={t('wishlist')} />
            <span className="badge">{data?.counts.wishlist ?? 0}</span>
          </Link>
          <Link to="/cart" prefetch="intent" className="icon-link">
            <CartIcon label={t('cart')} />
            <span className="badge">{data?.counts.basket ?? 0}</span>
          </Link>
          <LanguageSwitcher className="header-language" />
        </nav>
      </div>
    </header>
  );
}

/**
 * A submit with non-empty text goes to /search/{text}; without JavaScript the form still works. A
 * plain form: with JavaScript the submit handler always navigates itself, so React Router's `Form`
 * would add nothing but work on every page render.
 */
function SearchField({ found }: { found: number | null }) {
  const { t } = useShop();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const current = pathname.startsWith('/search/')
    ? decodeURIComponent(pathname.slice('/search/'.length))
    : '';
  const [text, setText] = useState(current);
  return (
    // biome-ignore lint/a11y/useSemanticElements: the header lays out the form itself; a <search> wrapper would change that
    <form
      method="get"
      action="/search"
      role="search"
      className="search-field"
      onSubmit={(event) => {
        event.preventDefault();
        const search = text.trim();
        if (search) navigate(`/search/${encodeURIComponent(search)}`);
      }}
    >
      <label htmlFor="search-input" className="visually-hidden">
        {t('search')}
      </label>
      <input
        id="search-input"
        name="search"
        type="search"
        value={text}
        onChange={(event) => setText(event.target.value)}
        placeholder={t('search-placeholder')}
        autoComplete="off"
        enterKeyHint="search"
      />
      <button type="submit" className="icon-button">
        <SearchIcon label={t('search')} size={20} />
      </button>
      {found !== null ? (
        <output className="search-field__found" aria-live="polite">
          {t('search-found', { count: found })}
        </output>
      ) : null}
    </form>
  );
}
