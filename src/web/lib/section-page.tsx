import type { AppLoadContext } from 'react-router';
import { PublicPageHead } from '../components/page-head.tsx';
import { ShopList } from '../components/shop-list.tsx';
import { loadListPage, pageTitle, shownMoney } from './list-page.ts';
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
  const [list, comingSoon] = await Promise.all([
    loadListPage(url, `/${section}/${link}`, shownMoney(context), (view) =>
      context.services.catalog[section](context.locale, link, view),
    ),
    context.services.catalog.upcoming(context.locale, { kind: section, link }),
  ]);
  return { ...list, comingSoon: comingSoon.value };
}

type SectionData = Awaited<ReturnType<typeof loadSection>>;

export function SectionPage({ loaderData }: { loaderData: SectionData }) {
  const { t } = useShop();
  return (
    <>
      <PublicPageHead
        title={pageTitle(loaderData.title, loaderData.paging.page, t)}
        description={`${loaderData.title}: ${t('site-description')}`}
        path={loaderData.url}
        previous={loaderData.previous}
        next={loaderData.next}
      />
      <ShopList
        heading={loaderData.title}
        data={loaderData}
        empty={<p className="empty">{t('no-products')}</p>}
        comingSoon={loaderData.comingSoon}
      />
    </>
  );
}
