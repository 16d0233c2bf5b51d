import type { AppLoadContext, MetaDescriptor } from 'react-router';
import { ShopList } from '../components/shop-list.tsx';
import { translator } from '../i18n/messages.ts';
import { loadListPage, pageTitle, pagingLinks } from './list-page.ts';
import { seoMeta } from './seo.ts';
import { useShop } from './shop.ts';

/**
 * What the category and project pages share: a page of the section's product list, its title and
 * canonical URL. The two route modules only say which section they are.
 */
export async function loadSection(
  context: AppLoadContext,
  url: URL,
  section: 'category' | 'project',
  link: string,
) {
  const list = await loadListPage(url, `${context.publicUrl}/${section}/${link}`, (view) =>
    context.services.catalog[section](context.locale, link, view),
  );
  return { ...list, locale: context.locale };
}

type SectionData = Awaited<ReturnType<typeof loadSection>>;

export function sectionMeta({ data }: { data: SectionData | undefined }): MetaDescriptor[] {
  if (!data) return [];
  const t = translator(data.locale);
  return [
    ...seoMeta({
      title: pageTitle(data.title, data.paging.page, t),
      description: `${data.title}: ${t('site-description')}`,
      url: data.url,
      siteName: t('site-title'),
      locale: data.locale,
    }),
    ...pagingLinks(data),
  ];
}

export function SectionPage({ loaderData }: { loaderData: SectionData }) {
  const { t } = useShop();
  return <ShopList heading={loaderData.title} data={loaderData} empty={t('no-products')} />;
}
