import { type KeyboardEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import type { SearchSuggestions } from '../../contract/catalog.ts';
import { imageUrl } from '../../contract/images.ts';
import { useShop } from '../lib/shop.ts';
import { SearchIcon } from './icons.tsx';
import { Price } from './price.tsx';

/** Letters typed before suggestions are asked for. */
const SUGGEST_FROM = 2;
/** Quiet time after the last key before suggestions are asked for. */
const DEBOUNCE_MS = 180;
const LISTBOX_ID = 'search-suggestions';
const optionId = (index: number) => `search-option-${index}`;

/** Where a search for `text` leads; a blank one to the whole catalogue. */
export const searchHref = (text: string) => {
  const search = text.trim();
  return search ? `/search/${encodeURIComponent(search)}` : '/products';
};

/**
 * Where the options lead, in the order they are shown: products, then games and categories, then
 * "search for …" (all results for the text typed).
 */
const optionsOf = (suggestions: SearchSuggestions | null, text: string): Array<{ href: string }> =>
  suggestions
    ? [
        ...suggestions.products.map((product) => ({ href: `/product/${product.link}` })),
        ...suggestions.sections.map((section) => ({ href: `/${section.kind}/${section.link}` })),
        { href: searchHref(text) },
      ]
    : [];

/**
 * The header's search: a submit goes to /search/{text} (a blank one to the whole catalogue), and
 * without JavaScript the form still works. While typing (two letters or more) it suggests products, games and
 * categories: an ARIA combobox whose list the arrow keys walk, Enter opens the chosen option and
 * Escape closes. Suggestions are asked for once typing pauses; a request still running when typing
 * goes on is aborted. A plain form: with JavaScript the submit handler always navigates itself.
 */
export function SearchField({ found }: { found: number | null }) {
  const { t, locale } = useShop();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const current = pathname.startsWith('/search/')
    ? decodeURIComponent(pathname.slice('/search/'.length))
    : '';
  const [text, setText] = useState(current);
  const [typed, setTyped] = useState(false);
  const [suggestions, setSuggestions] = useState<SearchSuggestions | null>(null);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const pending = useRef<AbortController | null>(null);
  const options = optionsOf(suggestions, text);
  const expanded = open && options.length > 0;

  useEffect(() => {
    if (!typed) return;
    pending.current?.abort();
    if (text.trim().length < SUGGEST_FROM) {
      setSuggestions(null);
      return;
    }
    const controller = new AbortController();
    pending.current = controller;
    const timer = setTimeout(async () => {
      const query = new URLSearchParams({ locale, search: text });
      try {
        const response = await fetch(`/api/search/suggestions?${query}`, { signal: controller.signal });
        if (!response.ok) return;
        setSuggestions((await response.json()) as SearchSuggestions);
        setActive(-1);
        setOpen(true);
      } catch (error) {
        // Aborted because typing went on, or offline: the form still searches on Enter.
        if (!controller.signal.aborted) console.warn('search suggestions failed', error);
      }
    }, DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [text, typed, locale]);

  const close = () => {
    setOpen(false);
    setActive(-1);
  };

  const go = (href: string) => {
    close();
    setTyped(false);
    navigate(href);
  };
  const choose = (at: number) => {
    const option = options[at];
    if (option) go(option.href);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      if (options.length === 0) return;
      event.preventDefault();
      setOpen(true);
      const last = options.length - 1;
      setActive((index) =>
        event.key === 'ArrowDown' ? (index >= last ? 0 : index + 1) : index <= 0 ? last : index - 1,
      );
    } else if (event.key === 'Enter' && expanded && active >= 0) {
      event.preventDefault();
      choose(active);
    } else if (event.key === 'Escape' && expanded) {
      event.preventDefault();
      close();
    }
  };

  return (
    // biome-ignore lint/a11y/useSemanticElements: the header lays out the form itself; a <search> wrapper would change that
    <form
      method="get"
      action="/search"
      role="search"
      className="search-field"
      onSubmit={(event) => {
        event.preventDefault();
        go(searchHref(text));
      }}
    >
      <label htmlFor="search-input" className="visually-hidden">
        {t('search')}
      </label>
      <input
        id="search-input"
        name="search"
        type="search"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={LISTBOX_ID}
        aria-activedescendant={expanded && active >= 0 ? optionId(active) : undefined}
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          setTyped(true);
        }}
        onKeyDown={onKeyDown}
        onFocus={() => setOpen(true)}
        onBlur={close}
        placeholder={t('search-placeholder')}
        autoComplete="off"
        enterKeyHint="search"
      />
      {/* Beside the field, not over it: the field's clear button and a long query stay clear of it. */}
      {found !== null ? (
        <output className="search-field__found" aria-live="polite">
          {t('search-found', { count: found })}
        </output>
      ) : null}
      <button type="submit" className="icon-button">
        <SearchIcon label={t('search')} size={20} />
      </button>
      <div
        id={LISTBOX_ID}
        role="listbox"
        aria-label={t('search-suggestions')}
        className="search-suggestions"
        hidden={!expanded}
        // Choosing with the mouse must not blur the field first (that would close the list).
        onMouseDown={(event) => event.preventDefault()}
      >
        {suggestions?.products.map((product, at) => (
          <SuggestionOption key={product.link} at={at} active={active} onChoose={choose}>
            {product.image ? (
              <img src={imageUrl('products', product.image, 160)} alt="" width={40} height={40} />
            ) : (
              <span className="search-suggestion__no-image" />
            )}
            <span className="search-suggestion__name">{product.name}</span>
            <Price price={product.price} sale={product.sale} />
          </SuggestionOption>
        ))}
        {suggestions?.sections.map((section, at) => (
          <SuggestionOption
            key={`${section.kind}-${section.link}`}
            at={suggestions.products.length + at}
            active={active}
            onChoose={choose}
          >
            <span className="search-suggestion__name">{section.name}</span>
            <span className="search-suggestion__kind">
              {section.kind === 'project' ? t('search-suggestion-project') : t('search-suggestion-category')}
            </span>
          </SuggestionOption>
        ))}
        {suggestions ? (
          <SuggestionOption
            at={options.length - 1}
            active={active}
            onChoose={choose}
            className="search-suggestion--all"
          >
            <SearchIcon size={16} />
            <span className="search-suggestion__name">{t('search-for', { search: text.trim() })}</span>
          </SuggestionOption>
        ) : null}
      </div>
      <span className="visually-hidden" aria-live="polite">
        {expanded ? t('search-suggestions-count', { count: options.length }) : ''}
      </span>
    </form>
  );
}

function SuggestionOption({
  at,
  active,
  onChoose,
  className,
  children,
}: {
  at: number;
  active: number;
  onChoose: (at: number) => void;
  className?: string;
  children: ReactNode;
}) {
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the field keeps the focus: its arrow keys and Enter choose (aria-activedescendant)
    <div
      id={optionId(at)}
      role="option"
      aria-selected={at === active}
      tabIndex={-1}
      className={className ? `search-suggestion ${className}` : 'search-suggestion'}
      onClick={() => onChoose(at)}
    >
      {children}
    </div>
  );
}
