import { Link } from 'react-router';
import { Gallery } from '../components/gallery.tsx';
import { HeartIcon } from '../components/icons.tsx';
import { DiscountBadge, Price } from '../components/price.tsx';
import { ProductGrid } from '../components/product-card.tsx';
import { translator } from '../i18n/messages.ts';
import { imageUrl } from '../../contract/images.ts';
import { orNotFound } from '../lib/load.ts';
import { seoMeta, summarize } from '../lib/seo.ts';
import { useShop } from '../lib/shop.ts';
import type { Route } from './+types/product';

export async function loader({ context, params }: Route.LoaderArgs) {
  const { product, similar } = (
    await orNotFound(context.services.catalog.product(context.locale, params.link))
  ).value;
  return { product, similar, locale: context.locale, publicUrl: context.publicUrl };
}

export const meta: Route.MetaFunction = ({ data }) => {
  if (!data) return [];
  const { product, publicUrl, locale } = data;
  const t = translator(locale);
  const url = `${publicUrl}/product/${product.link}`;
  return [
    ...seoMeta({
      title: product.name,
      description: summarize(product.desc) || product.name,
      url,
      image: product.image ? `${publicUrl}${imageUrl('products', product.image)}` : undefined,
      type: 'product',
      siteName: t('site-title'),
      locale,
    }),
    { 'script:ld+json': productJsonLd(data) },
    { 'script:ld+json': breadcrumbJsonLd(data) },
  ];
};

type Data = Route.ComponentProps['loaderData'];

function productJsonLd({ product, publicUrl }: Data) {
  return {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: product.name,
    sku: String(product.id),
    description: summarize(product.desc, 500),
    image: product.images.map((file) => `${publicUrl}${imageUrl('products', file)}`),
    brand: { '@type': 'Brand', name: product.project.name },
    offers: {
      '@type': 'Offer',
      url: `${publicUrl}/product/${product.link}`,
      priceCurrency: 'RUB',
      price: (product.sale ?? product.price).toFixed(2),
      availability:
        product.inStock > 0
          ? 'https://schema.org/InStock'
          : product.envisioned
            ? 'https://schema.org/PreOrder'
            : 'https://schema.org/OutOfStock',
    },
  };
}

function breadcrumbJsonLd({ product, publicUrl }: Data) {
  const trail = [
    { name: product.project.name, url: `${publicUrl}/project/${product.project.link}` },
    ...product.categoryList.map((category) => ({
      name: category.name,
      url: `${publicUrl}/category/${category.link}`,
    })),
    { name: product.name, url: `${publicUrl}/product/${product.link}` },
  ];
  return {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: trail.map((item, index) => ({
      '@type': 'ListItem',
      position: index + 1,
      name: item.name,
      item: item.url,
    })),
  };
}

export default function ProductPage({ loaderData }: Route.ComponentProps) {
  const { t } = useShop();
  const { product, similar } = loaderData;
  const orderable = !product.envisioned && product.inStock > 0;
  return (
    <div className="product-page">
      <nav aria-label={t('breadcrumbs')} className="breadcrumbs">
        <ol>
          <li>
            <Link to={`/project/${product.project.link}`}>{product.project.name}</Link>
          </li>
          {product.categoryList.map((category) => (
            <li key={category.id}>
              <Link to={`/category/${category.link}`}>{category.name}</Link>
            </li>
          ))}
        </ol>
      </nav>
      <div className="product">
        <Gallery key={product.id} images={product.images} name={product.name} />
        <div className="product__info">
          <h1>{product.name}</h1>
          <div className="product__price">
            <Price price={product.price} sale={product.sale} large />
            <DiscountBadge price={product.price} sale={product.sale} />
          </div>
          <p className={`stock ${orderable ? 'stock--in' : 'stock--out'}`}>
            {product.envisioned
              ? t('envisioned')
              : product.inStock > 0
                ? t('in-stock', { count: product.inStock })
                : t('out-of-stock')}
          </p>
          {product.envisioned ? <p className="notice">{t('envisioned-info')}</p> : null}
          <div className="product__actions">
            <form method="post" action="/cart">
              <input type="hidden" name="product" value={product.id} />
              <button type="submit" className="button button--primary" disabled={!orderable}>
                {t('add-to-cart')}
              </button>
            </form>
            <Link to="/wishlist" className="icon-button icon-button--outlined">
              <HeartIcon label={t('add-to-wishlist')} />
            </Link>
          </div>
          <section className="product__description" aria-label={t('description')}>
            {/* Sanitized when written (src/server/catalog/sanitize.ts). */}
            {/* biome-ignore lint/security/noDangerouslySetInnerHtml: admin HTML is sanitized on write */}
            <div dangerouslySetInnerHTML={{ __html: product.desc }} />
          </section>
        </div>
      </div>
      {similar.length > 0 ? (
        <section aria-labelledby="similar-heading" className="similar">
          <h2 id="similar-heading">{t('similar-products')}</h2>
          <ProductGrid products={similar} />
        </section>
      ) : null}
    </div>
  );
}
