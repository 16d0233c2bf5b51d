import { ShopList } from '../components/shop-list.tsx';
import { translator } from '../i18n/messages.ts';
import { orNotFound } from '../lib/load.ts';
import { revalidateOnNewPath } from '../lib/revalidate.ts';
import { seoMeta } from '../lib/seo.ts';
import { useShop } from '../lib/shop.ts';
import type { Route } from './+types/category';

export async function loader({ context, params }: Route.LoaderArgs) {
  const list = await orNotFound(context.services.catalog.category(context.locale, params.link));
  return { ...list.value, locale: context.locale, url: `${context.publicUrl}/category/${params.link}` };
}

export const shouldRevalidate = revalidateOnNewPath;

export const meta: Route.MetaFunction = ({ data }) => {
  if (!data) return [];
  const t = translator(data.locale);
  return seoMeta({
    title: data.title,
    description: `${data.title}: ${t('site-description')}`,
    url: data.url,
    siteName: t('site-title'),
    locale: data.locale,
  });
};

export default function CategoryPage({ loaderData }: Route.ComponentProps) {
  const { t } = useShop();
  return <ShopList heading={loaderData.title} data={loaderData} empty={t('no-products')} />;
}
