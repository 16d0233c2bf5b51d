import { type AppLoadContext, data, redirect } from 'react-router';
import type { ProductListResponse } from '../../contract/catalog.ts';
import type { Locale } from '../../contract/locale.ts';
import { currencyFor, shownRangeInKopecks } from '../../contract/money.ts';
import type { ListView } from '../../contract/shop.ts';
import type { Translate } from '../i18n/messages.ts';
import { isPlainView, listHref, type PageView, PLAIN_VIEW, readListView } from './list-view.ts';
import { orNotFound } from './load.ts';

type ListAnswer = Omit<ProductListResponse, 'success'>;

/** The query string of a view for an address (none at all rather than a bare `?`). */
const query = (view: PageView, change: Partial<PageView> = {}) => {
  const href = listHref(view, change);
  return href === '?' ? '' : href;
};

/**
 * One page of a shop list at the `requested` URL (category, project or search page). A `page`
 * that names no page answers 404; a page past the last one redirects to the last one (the list may
 * have shrunk since the link was made). Sort and filters apply to the whole list before paging.
 *
 * `url` is the canonical address, `address` with the page: the plain list's page (sorted and
 * filtered views point to it), with `previous` and `next` pages for search engines on the plain
 * view only.
 *
 * The price range is typed in the currency the page shows (`money`): dollars are turned into the
 * kopecks whose dollar price is within it, by the money module. An address in an old form (the
 * spec's `sort=available`) or with its bounds the wrong way round redirects (301) to the view's own.
 */
export async function loadListPage(
  requested: URL,
  address: string,
  money: { locale: Locale; usdRate: number },
  load: (view: ListView) => Promise<{ value: ListAnswer }>,
) {
  const read = readListView(requested.searchParams);
  if (!read) throw data(null, { status: 404 });
  const { view, priceInvalid } = read;
  if (read.outdated) throw redirect(`${requested.pathname}${query(view)}`, 301);
  const currency = currencyFor(money.locale);
  // Without a dollar rate no price is shown, so a range in dollars cannot be kept either.
  const price = shownRangeInKopecks({ min: view.priceMin, max: view.priceMax }, currency, money.usdRate) ?? {
    min: null,
    max: null,
  };
  const { priceMin: _min, priceMax: _max, ...filters } = view;
  const list = (await orNotFound(load({ ...filters, price }))).value;
  if (!list.paging) throw new Error('a shop page asked for a page and got the whole list');
  const { paging } = list;
  if (view.page > paging.pages) throw redirect(`${requested.pathname}${query(view, { page: paging.pages })}`);
  const at = (page: number) => `${address}${query(PLAIN_VIEW, { page })}`;
  const plain = isPlainView(view);
  return {
    ...list,
    paging,
    view,
    currency,
    priceInvalid,
    url: at(view.page),
    previous: plain && view.page > 1 ? at(view.page - 1) : undefined,
    next: plain && view.page < paging.pages ? at(view.page + 1) : undefined,
  };
}

/** The language and dollar rate a page shows prices in, for its price range. */
export const shownMoney = (context: AppLoadContext) => ({
  locale: context.locale,
  usdRate: context.services.usdRate(),
});

/** A list page's title: page 2 onwards says which page it is. */
export const pageTitle = (title: string, page: number, t: Translate) =>
  page > 1 ? `${title} · ${t('page-number', { page })}` : title;
