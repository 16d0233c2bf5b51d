import { Link, redirect } from 'react-router';
import { PublicPageHead } from '../components/page-head.tsx';
import { ProductGrid } from '../components/product-card.tsx';
import { ShopList } from '../components/shop-list.tsx';
import { loadListPage, pageTitle, shownMoney } from '../lib/list-page.ts';
import { useShop } from '../lib/shop.ts';
import type { Route } from './+types/search';

export async function loader({ context, params, url }: Route.LoaderArgs) {
  // A blank search (`/search/%20`) is no search: the whole catalogue, not "nothing found for «»".
  if (params.search.trim() === '') throw redirect('/products');
  const text = params.search.slice(0, 200);
  const [list, comingSoon] = await Promise.all([
    loadListPage(url, `/search/${encodeURIComponent(params.search)}`, shownMoney(context), (view) =>
      context.services.catalog.search(context.locale, text, view),
    ),
    context.services.catalog.upcoming(context.locale, { kind: 'search', text }),
  ]);
  // Nothing found: the closest names and popular products instead of an empty page.
  const help =
    list.paging.total === 0 ? (await context.services.catalog.searchHelp(context.locale, text)).value : null;
  return { ...list, help, comingSoon: comingSoon.value };
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
        empty={
          loaderData.comingSoon.length > 0 ? null : (
            <NothingFound search={loaderData.title} help={loaderData.help} />
          )
        }
        comingSoon={loaderData.comingSoon}
      />
    </>
  );
}

function NothingFound({
  search,
  help,
}: {
  search: string;
  help: Route.ComponentProps['loaderData']['help'];
}) {
  const { t } = useShop();
  return (
    <div className="nothing-found">
      <p className="empty">{t('no-search-results', { search })}</p>
      {help && help.didYouMean.length > 0 ? (
        <p className="did-you-mean">
          {t('did-you-mean')}{' '}
          {help.didYouMean.map((product, index) => (
            <span key={product.link}>
              {index > 0 ? ', ' : null}
              <Link to={`/product/${product.link}`}>{product.name}</Link>
            </span>
          ))}
        </p>
      ) : null}
      {help && help.popular.length > 0 ? (
        <section aria-labelledby="popular-heading">
          <h2 id="popular-heading">{t('popular-products')}</h2>
          <ProductGrid products={help.popular} />
        </section>
      ) : null}
    </div>
  );
}
