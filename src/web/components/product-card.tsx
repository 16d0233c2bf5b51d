import { Link } from 'react-router';
import type { ProductCard as Card } from '../../contract/catalog.ts';
import { imageSrcSet, imageUrl } from '../../contract/images.ts';
import { useShop } from '../lib/shop.ts';
import { OrderDate } from './order-date.tsx';
import { DiscountBadge, Price, PriceFrom } from './price.tsx';
import { AddToCart } from './shopper-buttons.tsx';
import { formatRating, Stars } from './stars.tsx';

const CARD_SIZES = '(max-width: 600px) 50vw, (max-width: 1100px) 33vw, 260px';

export function ProductCard({ product, eager }: { product: Card; eager?: boolean }) {
  const { t, locale } = useShop();
  const { rating } = product;
  return (
    <article className="product-card">
      <Link to={`/product/${product.link}`} prefetch="intent" className="product-card__link">
        <div className="product-card__image">
          {product.image ? (
            <img
              src={imageUrl('products', product.image, 640)}
              srcSet={imageSrcSet('products', product.image)}
              sizes={CARD_SIZES}
              alt=""
              width={640}
              height={640}
              loading={eager ? 'eager' : 'lazy'}
              decoding="async"
            />
          ) : null}
          <DiscountBadge price={product.price} sale={product.sale} />
          {product.envisioned ? <span className="tag tag--envisioned">{t('envisioned')}</span> : null}
        </div>
        <h3 className="product-card__name">{product.name}</h3>
      </Link>
      {/* Price first, right under a name kept to two lines: prices line up across a row. */}
      <div className="product-card__footer">
        {product.fromPrice !== null ? (
          <PriceFrom price={product.fromPrice} />
        ) : (
          <Price price={product.price} sale={product.sale} />
        )}
        {product.releaseAt !== null ? (
          <span className="stock stock--announced">
            {t('release-on-sale-at')} <OrderDate iso={product.releaseAt} />
          </span>
        ) : !product.envisioned && product.inStock === 0 ? (
          <span className="stock stock--out">{t('out-of-stock')}</span>
        ) : null}
      </div>
      {rating.count > 0 && rating.average !== null ? (
        <p className="product-card__rating">
          <Stars value={rating.average} size={14} />
          <span className="visually-hidden">
            {t('rating-of-5', { rating: formatRating(locale, rating.average) })}
          </span>
          <span aria-hidden="true">{formatRating(locale, rating.average)}</span>
          <span className="product-card__rating-count">({rating.count})</span>
        </p>
      ) : null}
      {product.sizes.length > 0 ? (
        <ul className="product-card__sizes" aria-label={t('sizes-in-stock')}>
          {product.sizes.map((size) => (
            <li key={size}>{size}</li>
          ))}
        </ul>
      ) : null}
      {/* Quick add for what needs no choice: a product with options is chosen on its page. */}
      {!product.hasOptions && !product.envisioned && product.inStock > 0 ? (
        <div className="product-card__add">
          <AddToCart
            productId={product.id}
            action="/cart"
            disabled={false}
            small
            label={t('add-to-cart-named', { name: product.name })}
          />
        </div>
      ) : null}
    </article>
  );
}

/**
 * Announced products, soonest first (ADR 0041): listed nowhere else before their release, shown
 * here so shoppers find a drop and ask to be reminded on its page.
 */
export function ComingSoon({ products, id }: { products: Card[]; id: string }) {
  const { t } = useShop();
  if (products.length === 0) return null;
  return (
    <section aria-labelledby={id} className="coming-soon">
      <h2 id={id}>{t('announced')}</h2>
      <ProductGrid products={products} />
    </section>
  );
}

export function ProductGrid({ products, eagerCount = 0 }: { products: Card[]; eagerCount?: number }) {
  return (
    <ul className="product-grid">
      {products.map((product, index) => (
        <li key={product.id}>
          <ProductCard product={product} eager={index < eagerCount} />
        </li>
      ))}
    </ul>
  );
}
