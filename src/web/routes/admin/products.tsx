import { Form, Link } from 'react-router';
import { loadAdmin } from '../../admin/api.ts';
import { useAdminShop } from '../../admin/text.ts';
import type { ProductPage } from '../../admin/types.ts';
import { AdminErrorBoundary, AdminLoading, AdminPage, Pager, useAdminFormat } from '../../admin/ui.tsx';
import type { Route } from './+types/products';

export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  const url = new URL(request.url);
  const search = url.searchParams.get('search') ?? '';
  const page = await loadAdmin<ProductPage>('/products', request, {
    search,
    page: url.searchParams.get('page'),
  });
  return { search, page };
}

export function HydrateFallback() {
  return <AdminLoading />;
}

export default function ProductsPage({ loaderData }: Route.ComponentProps) {
  const { t, locale } = useAdminShop();
  const format = useAdminFormat();
  const { search, page } = loaderData;

  return (
    <AdminPage
      title={t('admin-products')}
      actions={
        <Link to="/admin/products/new" className="button button--primary">
          {t('admin-new-product')}
        </Link>
      }
    >
      <Form method="get" className="admin-card admin-inline-search" role="search" key={search}>
        <label htmlFor="product-search">{t('admin-product-search')}</label>
        <input id="product-search" type="search" name="search" defaultValue={search} />
        <button type="submit" className="button">
          {t('search')}
        </button>
      </Form>
      <section className="admin-card">
        {page.list.length === 0 ? (
          <p>{t('admin-nothing-found')}</p>
        ) : (
          <div className="admin-table-scroll">
            <table className="admin-table">
              <thead>
                <tr>
                  <th scope="col">ID</th>
                  <th scope="col">{t('admin-name')}</th>
                  <th scope="col">{t('admin-project')}</th>
                  <th scope="col">{t('admin-price')}</th>
                  <th scope="col">{t('admin-stock')}</th>
                  <th scope="col">{t('admin-flags')}</th>
                </tr>
              </thead>
              <tbody>
                {page.list.map((product) => (
                  <tr key={product.id}>
                    <td>{product.id}</td>
                    <td>
                      <Link to={`/admin/products/${product.id}`}>
                        {locale === 'ru' ? product.name_ru : product.name_en}
                      </Link>
                      <br />
                      <span className="admin-muted">{product.link}</span>
                    </td>
                    <td>{locale === 'ru' ? product.project_ru : product.project_en}</td>
                    <td>
                      {format.money(product.sale ?? product.price)}
                      {product.sale !== null ? (
                        <s className="admin-muted"> {format.money(product.price)}</s>
                      ) : null}
                    </td>
                    <td className={product.quantity === 0 ? 'admin-danger' : undefined}>
                      {product.quantity}
                    </td>
                    <td>
                      <ul className="admin-tags">
                        {product.visible ? null : <li>{t('admin-hidden')}</li>}
                        {product.weekSale ? <li>{t('admin-week-sale')}</li> : null}
                        {product.envisioned ? <li>{t('envisioned')}</li> : null}
                      </ul>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <Pager currentPage={page.currentPage} lastPage={page.lastPage} total={page.total} />
      </section>
    </AdminPage>
  );
}

export function ErrorBoundary() {
  return <AdminErrorBoundary />;
}
