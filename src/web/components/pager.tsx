import { Link } from 'react-router';
import type { Paging } from '../../contract/catalog.ts';
import { listHref, type PageView, pageNumbers } from '../lib/list-view.ts';
import { useShop } from '../lib/shop.ts';

/** Previous, numbered and next page links of a shop list; plain links, so they work without JavaScript. */
export function Pager({ view, paging }: { view: PageView; paging: Paging }) {
  const { t } = useShop();
  if (paging.pages <= 1) return null;
  const href = (page: number) => listHref(view, { page });
  return (
    <nav className="pager" aria-label={t('pages')}>
      <ul>
        {paging.page > 1 ? (
          <li>
            <Link to={href(paging.page - 1)} rel="prev" className="pager__step">
              {t('previous-page')}
            </Link>
          </li>
        ) : null}
        {pageNumbers(paging.page, paging.pages).map((page, index) =>
          page === 'gap' ? (
            // biome-ignore lint/suspicious/noArrayIndexKey: a gap has no identity but its place
            <li key={`gap-${index}`} className="pager__gap" aria-hidden="true">
              …
            </li>
          ) : (
            <li key={page}>
              <Link
                to={href(page)}
                className="pager__page"
                aria-label={t('page-number', { page })}
                aria-current={page === paging.page ? 'page' : undefined}
              >
                {page}
              </Link>
            </li>
          ),
        )}
        {paging.page < paging.pages ? (
          <li>
            <Link to={href(paging.page + 1)} rel="next" className="pager__step">
              {t('next-page')}
            </Link>
          </li>
        ) : null}
      </ul>
    </nav>
  );
}
