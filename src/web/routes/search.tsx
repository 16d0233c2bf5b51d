import { PublicPageHead } from '../components/page-head.tsx';
import { ShopList } from '../components/shop-list.tsx';
import { loadListPage, pageTitle } from '../lib/list-page.ts';
import { useShop } from '../lib/shop.ts';
import type { Route } from './+types/search';

export function loader({ context, params, url }: Route.LoaderArgs) {
  const text = params.search.slice(0, 200);
  return loadListPage(url, `/search/${encodeURIComponent(params.search)}`, (view) =>
    context.services.catalog.search(context.locale, text, view),
  );
}

export default function SearchPage({ loaderData }: Route.ComponentProps) {
  const { t } = useShop();
  const heading = t('search-results', { search: loaderData.title });
  return (
    <>
      <PublicPageHead
        title={pageTitle(heading, loaderData.paging.page, t)}
        description={t('site-description')}
        path={loaderData.url}
        noindex
      />
      <ShopList
        heading={heading}
        data={loaderData}
        empty={t('no-search-results', { search: loaderData.title })}
      />
    </>
  );
}
