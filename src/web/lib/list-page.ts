import { data, redirect } from 'react-router';
import type { ProductListResponse } from '../../contract/catalog.ts';
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
 */
export async function loadListPage(
  requested: URL,
  address: string,
  load: (view: PageView) => Promise<{ value: ListAnswer }>,
) {
  const view = readListView(requested.searchParams);
  if (!view) throw data(null, { status: 404 });
  const list = (await orNotFound(load(view))).value;
  if (!list.paging) throw new Error('a shop page asked for a page and got the whole list');
  const { paging } = list;
  if (view.page > paging.pages) throw redirect(`${requested.pathname}${query(view, { page: paging.pages })}`);
  const at = (page: number) => `${address}${query(PLAIN_VIEW, { page })}`;
  const plain = isPlainView(view);
  return {
    ...list,
    paging,
    view,
    url: at(view.page),
    previous: plain && view.page > 1 ? at(view.page - 1) : undefined,
    next: plain && view.page < paging.pages ? at(view.page + 1) : undefined,
  };
}

/** A list page's title: page 2 onwards says which page it is. */
export const pageTitle = (title: string, page: number, t: Translate) =>
  page > 1 ? `${title} · ${t('page-number', { page })}` : title;
