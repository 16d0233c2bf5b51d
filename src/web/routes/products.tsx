import { PublicPageHead } from '../components/page-head.tsx';
import { ShopList } from '../components/shop-list.tsx';
import { loadListPage, pageTitle, shownMoney } from '../lib/list-page.ts';
import { useShop } from '../lib/shop.ts';
import type { Route } from './+types/products';

/** Every visible product, with the sort, filters and pages of the other shop lists. */
export const loader = ({ context, url }: Route.LoaderArgs) =>
  loadListPage(url, '/products', shownMoney(context), (view) =>
    context.services.catalog.all(context.locale, view),
  );

export default function AllProductsPage({ loaderData }: Route.ComponentProps) {
  const { t } = useShop();
  const heading = t('all-products');
  return (
    <>
      <PublicPageHead
        title={pageTitle(heading, loaderData.paging.page, t)}
        description={`${heading}: ${t('site-description')}`}
        path={loaderData.url}
        previous={loaderData.previous}
        next={loaderData.next}
      />
      <ShopList heading={heading} data={loaderData} empty={<p className="empty">{t('no-products')}</p>} />
    </>
  );
}
