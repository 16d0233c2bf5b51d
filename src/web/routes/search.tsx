import { ShopList } from '../components/shop-list.tsx';
import { translator } from '../i18n/messages.ts';
import { revalidateOnNewPath } from '../lib/revalidate.ts';
import { seoMeta } from '../lib/seo.ts';
import { useShop } from '../lib/shop.ts';
import type { Route } from './+types/search';

export async function loader({ context, params }: Route.LoaderArgs) {
  const list = await context.services.catalog.search(context.locale, params.search.slice(0, 200));
  return {
    ...list.value,
    locale: context.locale,
    url: `${context.publicUrl}/search/${encodeURIComponent(params.search)}`,
  };
}

export const shouldRevalidate = revalidateOnNewPath;

export const meta: Route.MetaFunction = ({ data }) => {
  if (!data) return [];
  const t = translator(data.locale);
  return [
    ...seoMeta({
      title: t('search-results', { search: data.title }),
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
