import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { imageUrl } from '../../contract/images.ts';
import { Price } from './price.tsx';

/**
 * One product in the cart or the wishlist: thumbnail, name (a link to the product), the variant's
 * options ("Size: L") for a cart line, price and sale, a status line, then the row's own controls.
 */
export function ProductLine({
  product,
  options = null,
  headingId,
  status,
  children,
  unavailable = false,
}: {
  product: {
    id: number;
    link: string;
    name: string;
    image: string | null;
    price: number;
    sale: number | null;
  };
  /** The variant's option values in the locale, or null for a product without options. */
  options?: string | null;
  headingId: string;
  status?: ReactNode;
  children: ReactNode;
  unavailable?: boolean;
}) {
  const href = `/product/${product.link}`;
  return (
    <article
      className={`product-line ${unavailable ? 'product-line--unavailable' : ''}`}
      aria-labelledby={headingId}
    >
      {/* The name below is the link; the picture repeats it for the pointer only. */}
      <Link to={href} className="product-line__image" tabIndex={-1} aria-hidden="true">
        {product.image ? (
          <img
            src={imageUrl('products', product.image, 160)}
            alt=""
            width={160}
            height={160}
            loading="lazy"
            decoding="async"
          />
        ) : null}
      </Link>
      <div className="product-line__info">
        <h2 className="product-line__name" id={headingId}>
          <Link to={href} prefetch="intent">
            {product.name}
          </Link>
        </h2>
        {options ? <p className="product-line__options">{options}</p> : null}
        <Price price={product.price} sale={product.sale} />
        {status}
      </div>
      <div className="product-line__controls">{children}</div>
    </article>
  );
}
