import type { AppLoadContext, MetaDescriptor } from 'react-router';
import { ShopList } from '../components/shop-list.tsx';
import { translator } from '../i18n/messages.ts';
import { orNotFound } from './load.ts';
import { seoMeta } from './seo.ts';
import { useShop } from './shop.ts';

/**
 * What the category and project pages share: a section's product list, its title and canonical
 * URL. The two route modules only say which section they are.
 */
export async function loadSection(context: AppLoadContext, section: 'category' | 'project', link: string) {
  const list = await orNotFound(context.services.catalog[section](context.locale, link));
  return { ...list.value, locale: context.locale, url: `${context.publicUrl}/${section}/${link}` };
}

type SectionData = Awaited<ReturnType<typeof loadSection>>;

export function sectionMeta({ data }: { data: SectionData | undefined }): MetaDescriptor[] {
  if (!data) return [];
  const t = translator(data.locale);
  return seoMeta({
    title: data.title,
    description: `${data.title}: ${t('site-description')}`,
    url: data.url,
    siteName: t('site-title'),
    locale: data.locale,
  });
}

export function SectionPage({ loaderData }: { loaderData: SectionData }) {
  const { t } = useShop();
  return <ShopList heading={loaderData.title} data={loaderData} empty={t('no-products')} />;
}
