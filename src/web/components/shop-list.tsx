import type { ReactNode } from 'react';
import { Form, Link, useLocation, useNavigation, useSubmit } from 'react-router';
import type { Paging, ProductCard, ProductListResponse } from '../../contract/catalog.ts';
import type { Locale } from '../../contract/locale.ts';
import { type Currency, shownPrice } from '../../contract/money.ts';
import { toggleValue } from '../../contract/shop.ts';
import {
  hasFilters,
  listHref,
  PAGE_SORTS,
  type PageView,
  priceBoundText,
  priceRangeText,
  readListView,
  withoutFilters,
} from '../lib/list-view.ts';
import { useShop } from '../lib/shop.ts';
import { ChevronIcon, CloseIcon } from './icons.tsx';
import { Pager } from './pager.tsx';
import { ComingSoon, ProductGrid } from './product-card.tsx';

/** One page of a list, as the server sorted, filtered and cut it. */
type ListData = Omit<ProductListResponse, 'success' | 'paging'> & {
  paging: Paging;
  view: PageView;
  /** The currency the page shows prices, and takes the price range, in. */
  currency: Currency;
  /** The address held a price bound that is no price: it was left out. */
  priceInvalid: boolean;
};

/**
 * Sort, filters and page live in the query string, so lists can be shared and work without
 * JavaScript: the filters are one GET form of checkboxes (values of a group are alternatives, the
 * groups apply together), a price range and the sort; the server applies them to the whole list.
 * With JavaScript a checkbox or the sort applies at once; without it, "Apply" sends the form.
 * Changing the sort or a filter goes back to the first page. Each active filter is a chip that
 * removes it, beside "clear all"; a choice that would add nothing is shown disabled with its 0.
 *
 * On a phone the sort and the filters are a drawer (a popover, opened by the browser itself: no
 * script, Escape and a click outside close it), so the first products show without scrolling; on a
 * wide screen the same elements are laid out in place, the sort beside the heading and the filters
 * in a column.
 */
export function ShopList({
  heading,
  data,
  empty,
  comingSoon = [],
}: {
  heading: string;
  data: ListData;
  empty: ReactNode;
  /** Announced products of this list, shown above its first page. */
  comingSoon?: ProductCard[];
}) {
  const { t, locale } = useShop();
  const { view, paging } = data;
  const active = activeFilters(data, t, locale);
  return (
    <div className="shop-list">
      <h1 className="shop-list__heading">{heading}</h1>
      <button type="button" className="button shop-list__options-button" popoverTarget={LIST_OPTIONS_ID}>
        {t('filters-and-sort')}
        {active.length > 0 ? (
          <span className="shop-list__active-count" aria-hidden="true">
            {active.length}
          </span>
        ) : null}
      </button>
      <div id={LIST_OPTIONS_ID} className="list-options" popover="auto">
        <div className="list-options__head">
          <h2>{t('filters-and-sort')}</h2>
          <button
            type="button"
            className="icon-button"
            popoverTarget={LIST_OPTIONS_ID}
            popoverTargetAction="hide"
          >
            <CloseIcon label={t('close-filters')} />
          </button>
        </div>
        <ListFilters data={data} />
        <button
          type="button"
          className="button button--primary list-options__show"
          popoverTarget={LIST_OPTIONS_ID}
          popoverTargetAction="hide"
        >
          {t('show-products', { count: paging.total })}
        </button>
      </div>
      <section className="shop-list__products" aria-label={t('products-count', { count: paging.total })}>
        {view.page === 1 ? <ComingSoon products={comingSoon} id="list-coming-soon" /> : null}
        <ActiveFilters view={view} active={active} />
        <h2 className="shop-list__count">{t('products-count', { count: paging.total })}</h2>
        {data.products.length > 0 ? <ProductGrid products={data.products} eagerCount={4} /> : empty}
        <Pager view={view} paging={paging} />
      </section>
    </div>
  );
}

const LIST_OPTIONS_ID = 'list-options';

type Translate = ReturnType<typeof useShop>['t'];

/** An active filter as a chip shows it, with the view without it. */
interface ActiveFilter {
  key: string;
  label: string;
  without: Partial<PageView>;
}

/** The active filters in the order of the form, named as the side sections name them. */
function activeFilters(data: ListData, t: Translate, locale: Locale): ActiveFilter[] {
  const { view } = data;
  const nameOf = (items: Array<{ id: number | string; name: string }>, id: number | string) =>
    items.find((item) => item.id === id)?.name ?? String(id);
  const price = priceRangeText(view, data.currency, locale, {
    from: (amount) => t('price-range-from', { price: amount }),
    upTo: (amount) => t('price-range-to', { price: amount }),
  });
  return [
    ...(view.available
      ? [{ key: 'available', label: t('in-stock-only'), without: { available: false } }]
      : []),
    ...(price === null ? [] : [{ key: 'price', label: price, without: { priceMin: null, priceMax: null } }]),
    ...view.projectIds.map((id) => ({
      key: `project-${id}`,
      label: nameOf(data.projects, id),
      without: { projectIds: toggleValue(view.projectIds, id) },
    })),
    ...view.categoryIds.map((id) => ({
      key: `category-${id}`,
      label: nameOf(data.categories, id),
      without: { categoryIds: toggleValue(view.categoryIds, id) },
    })),
    ...view.sizes.map((size) => ({
      key: `size-${size}`,
      label: nameOf(
        data.sizes.map((section) => ({ id: section.key.toLowerCase(), name: section.name })),
        size.toLowerCase(),
      ),
      without: { sizes: toggleValue(view.sizes, size) },
    })),
  ];
}

/** The active filters as chips, each a link to the list without it, and "clear all". */
function ActiveFilters({ view, active }: { view: PageView; active: ActiveFilter[] }) {
  const { t } = useShop();
  if (!hasFilters(view)) return null;
  return (
    <div className="active-filters">
      <h2 className="visually-hidden" id="active-filters-heading">
        {t('active-filters')}
      </h2>
      <ul aria-labelledby="active-filters-heading">
        {active.map((filter) => (
          <li key={filter.key}>
            <Link
              to={listHref(view, { ...filter.without, page: 1 })}
              replace
              preventScrollReset
              className="chip"
            >
              {filter.label}
              <span className="visually-hidden">: {t('remove-filter')}</span>
              <CloseIcon size={16} />
            </Link>
          </li>
        ))}
      </ul>
      <Link
        to={listHref(view, withoutFilters(view))}
        replace
        preventScrollReset
        className="active-filters__clear"
      >
        {t('clear-filters')}
      </Link>
    </div>
  );
}

/** The form's fields as an address keeps them: blanks and the default sort left out. */
function queryOf(form: HTMLFormElement): URLSearchParams {
  const query = new URLSearchParams();
  for (const [name, value] of new FormData(form)) {
    if (typeof value !== 'string' || value.trim() === '' || (name === 'sort' && value === 'default'))
      continue;
    query.append(name, value.trim());
  }
  return query;
}

/**
 * The sort and the filters, one GET form. While a change loads, its fields show what was chosen
 * (the view being loaded), so a checkbox ticks at once and keeps its focus.
 */
function ListFilters({ data }: { data: ListData }) {
  const { t, locale, usdRate } = useShop();
  const submit = useSubmit();
  const navigation = useNavigation();
  const location = useLocation();
  const loading =
    navigation.location && navigation.location.pathname === location.pathname
      ? readListView(new URLSearchParams(navigation.location.search))?.view
      : undefined;
  const view = data.view;
  const shown = loading ?? view;
  // flushSync: the navigation's state (and so the choice just ticked, `loading`) is drawn at once
  // rather than in a transition, so a controlled checkbox never flicks back while the list loads.
  const apply = (form: HTMLFormElement | null) => {
    if (form)
      submit(queryOf(form), { method: 'get', preventScrollReset: true, replace: true, flushSync: true });
  };
  const onChoice = (event: { currentTarget: HTMLInputElement | HTMLSelectElement }) =>
    apply(event.currentTarget.form);
  const placeholder = (roubles: number | undefined) => {
    const price = roubles === undefined ? null : shownPrice(roubles, locale, usdRate);
    return price ? priceBoundText(price.amount) : undefined;
  };
  return (
    <Form
      method="get"
      className="list-filters"
      preventScrollReset
      replace
      onSubmit={(event) => {
        event.preventDefault();
        apply(event.currentTarget);
      }}
    >
      <div className="sort-select">
        <label htmlFor="sort">{t('sort')}</label>
        <select id="sort" name="sort" value={shown.sort} onChange={onChoice}>
          {PAGE_SORTS.map((option) => (
            <option key={option} value={option}>
              {t(`sort-${option}`)}
            </option>
          ))}
        </select>
        <noscript>
          <button type="submit" className="button">
            {t('apply-sort')}
          </button>
        </noscript>
      </div>
      <aside className="side-sections" aria-label={t('catalogue')}>
        <fieldset className="side-section filter-box">
          <legend className="filter-box__title">{t('availability')}</legend>
          <Choice
            name="available"
            value="1"
            label={t('in-stock-only')}
            count={data.counts.available}
            checked={shown.available}
            onChange={onChoice}
          />
        </fieldset>
        <fieldset className="side-section filter-box price-range">
          <legend className="filter-box__title">
            {t('price-range', { currency: data.currency === 'RUB' ? '₽' : '$' })}
          </legend>
          {/* Keyed by the bounds in force: a chip or "clear all" empties the fields. */}
          <div className="price-range__fields" key={`${view.priceMin}-${view.priceMax}`}>
            {(['min', 'max'] as const).map((bound) => (
              <label key={bound}>
                <span>{t(bound === 'min' ? 'price-range-min' : 'price-range-max')}</span>
                <input
                  type="number"
                  name={`price_${bound}`}
                  min={0}
                  step={data.currency === 'RUB' ? 1 : 0.01}
                  inputMode="decimal"
                  defaultValue={priceBoundText(bound === 'min' ? view.priceMin : view.priceMax)}
                  placeholder={placeholder(data.priceRange?.[bound])}
                  aria-invalid={data.priceInvalid || undefined}
                  aria-describedby={data.priceInvalid ? 'price-range-error' : undefined}
                />
              </label>
            ))}
            <button type="submit" className="button">
              {t('apply-price')}
            </button>
          </div>
          {data.priceInvalid ? (
            <p id="price-range-error" className="field-error" role="alert">
              {t('price-range-invalid')}
            </p>
          ) : null}
        </fieldset>
        <SideSection
          title={t('all-projects')}
          name="project"
          items={data.projects}
          counts={data.counts.projects}
          chosen={shown.projectIds}
          onChange={onChoice}
        />
        <SideSection
          title={t('all-categories')}
          name="category"
          items={data.categories}
          counts={data.counts.categories}
          chosen={shown.categoryIds}
          onChange={onChoice}
        />
        <SideSection
          title={t('all-sizes')}
          name="size"
          items={data.sizes.map((size) => ({ id: size.key, name: size.name }))}
          counts={data.counts.sizes}
          chosen={shown.sizes}
          onChange={onChoice}
        />
        <noscript>
          <button type="submit" className="button button--primary">
            {t('apply-filters')}
          </button>
        </noscript>
      </aside>
    </Form>
  );
}

/**
 * A checkbox of a filter with what choosing it would show. A choice that would show nothing is
 * disabled with its 0, unless it is chosen (it can always be taken away).
 */
function Choice({
  name,
  value,
  label,
  count,
  checked,
  onChange,
}: {
  name: string;
  value: string;
  label: string;
  count: number;
  checked: boolean;
  onChange: (event: { currentTarget: HTMLInputElement }) => void;
}) {
  const { t } = useShop();
  const disabled = count === 0 && !checked;
  return (
    <label className={`filter-option${disabled ? ' filter-option--disabled' : ''}`}>
      <input
        type="checkbox"
        name={name}
        value={value}
        checked={checked}
        disabled={disabled}
        onChange={onChange}
      />
      <span className="filter-option__name">{label}</span>
      <span className="side-section__count" aria-hidden="true">
        {count}
      </span>
      <span className="visually-hidden">, {t('products-count', { count })}</span>
    </label>
  );
}

/** A dropdown group of projects, categories or sizes: a checkbox each, with its count. */
function SideSection<Id extends number | string>({
  title,
  name,
  items,
  counts,
  chosen,
  onChange,
}: {
  title: string;
  name: string;
  items: Array<{ id: Id; name: string }>;
  counts: Record<string, number>;
  chosen: Id[];
  onChange: (event: { currentTarget: HTMLInputElement }) => void;
}) {
  if (items.length === 0) return null;
  const isChosen = (id: Id) => chosen.some((each) => String(each).toLowerCase() === String(id).toLowerCase());
  return (
    <details className="side-section" open>
      <summary>
        {title}
        <ChevronIcon size={18} />
      </summary>
      <fieldset className="side-section__choices">
        <legend className="visually-hidden">{title}</legend>
        <ul>
          {items.map((item) => (
            <li key={item.id}>
              <Choice
                name={name}
                value={String(item.id)}
                label={item.name}
                count={counts[String(item.id)] ?? 0}
                checked={isChosen(item.id)}
                onChange={onChange}
              />
            </li>
          ))}
        </ul>
      </fieldset>
    </details>
  );
}
