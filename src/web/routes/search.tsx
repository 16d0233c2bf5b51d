import { ShopList } from '../components/shop-list.tsx';
import { translator } from '../i18n/messages.ts';
import { loadListPage, pageTitle } from '../lib/list-page.ts';
import { seoMeta } from '../lib/seo.ts';
import { useShop } from '../lib/shop.ts';
import type { Route } from './+types/search';

export async function loader({ context, params, url }: Route.LoaderArgs) {
  const text = params.search.slice(0, 200);
  const list = await loadListPage(
    url,
    `${context.publicUrl}/search/${encodeURIComponent(params.search)}`,
    (view) => context.services.catalog.search(context.locale, text, view),
  );
  return { ...list, locale: context.locale };
}

export const meta: Route.MetaFunction = ({ data }) => {
  if (!data) return [];
  const t = translator(data.locale);
  return [
    ...seoMeta({
      title: pageTitle(t('search-results', { search: data.title }), data.paging.page, t),
      description: t('site-description'),
      url: data.url,
      siteName: t('site-title'),
      locale: data.locale,
    }),
    { name: 'robots', content: 'noindex, follow' },
  ];
};

export default function SearchPage({ loaderData }: Route.ComponentProps) {
  const { t } = useShop();
  return (
    <ShopList
      heading={t('search-results', { search: loaderData.title })}
      data={loaderData}
      empty={t('no-search-results', { search: loaderData.title })}
    />
  );
}
