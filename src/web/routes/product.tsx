import { data, Link, redirect } from 'react-router';
import type { ProductResponse } from '../../contract/catalog.ts';
import { imageUrl } from '../../contract/images.ts';
import { REVIEW_MAX_LENGTH, type ReviewPage, reviewBody } from '../../contract/shopping.ts';
import { BackInStock } from '../components/back-in-stock.tsx';
import { Gallery } from '../components/gallery.tsx';
import { JsonLd, PublicPageHead } from '../components/page-head.tsx';
import { DiscountBadge, Price } from '../components/price.tsx';
import { ProductGrid } from '../components/product-card.tsx';
import { RatingSummary, ReviewsThread, type ReviewThreadData } from '../components/reviews.tsx';
import { AddToCart, WishlistHeart } from '../components/shopper-buttons.tsx';
import { INTENT, isEnhanced } from '../lib/enhanced-forms.ts';
import { actionError, formFailure, invalidForm, parseForm, postedForm } from '../lib/forms.ts';
import { orNotFound } from '../lib/load.ts';
import { summarize } from '../lib/seo.ts';
import { useShop } from '../lib/shop.ts';
import { addToCartAction } from '../lib/shopper-forms.ts';
import { stockAlertAction } from '../lib/stock-alert-form.ts';
import type { Route } from './+types/product';

/** Pages of reviews shown at most (`?reviews=N` shows pages 1..N). */
const MAX_REVIEW_PAGES = 20;

/** The first `requested` pages of the product's reviews, newest first, with the average rating. */
async function loadReviews(
  context: Route.LoaderArgs['context'],
  product: Pick<ProductResponse['product'], 'id' | 'link' | 'rating'>,
  requested: number,
): Promise<ReviewThreadData> {
  // The catalogue's product counts its visible reviews, and every review written or moderated
  // empties the catalogue cache: a product without any needs no query.
  const first: ReviewPage =
    product.rating.count === 0
      ? { reviews: [], average: null, count: 0, page: 1, lastPage: 1 }
      : await context.shopper.reviews.list(product.id, 1);
  const page = Math.max(
    1,
    Math.min(Number.isInteger(requested) ? requested : 1, first.lastPage, MAX_REVIEW_PAGES),
  );
  const rest = await Promise.all(
    Array.from({ length: page - 1 }, (_, index) => context.shopper.reviews.list(product.id, index + 2)),
  );
  return {
    productId: product.id,
    productLink: product.link,
    average: first.average,
    count: first.count,
    pages: [first, ...rest].map((answer) => answer.reviews),
    page,
    lastPage: first.lastPage,
    maxLength: REVIEW_MAX_LENGTH,
  };
}

export async function loader({ context, params, url }: Route.LoaderArgs) {
  const { product, similar } = (
    await orNotFound(context.services.catalog.product(context.locale, params.link))
  ).value;
  const query = url.searchParams;
  const user = await context.account.currentUser();
  const [reviews, wishlist] = await Promise.all([
    loadReviews(context, product, Number(query.get('reviews') ?? 1)),
    user ? context.shopper.wishlist.get(context.locale) : null,
  ]);
  return {
    product,
    similar,
    reviews,
    signedIn: user !== null,
    inWishlist: wishlist?.productList.includes(product.id) ?? false,
    /** A plain form added it to the cart, or published a review, and came back here. */
    added: query.get('added') === String(product.id),
    reviewed: query.get('reviewed') === '1',
    publicUrl: context.publicUrl,
  };
}

/** Add to cart, or post a review (the `intent` field tells which). */
export async function action({ context, params, request }: Route.ActionArgs) {
  const formData = await postedForm(request);
  const page = `/product/${params.link}`;
  const intent = formData.get('intent');
  if (intent === INTENT.addToCart) return addToCartAction(context, formData, page);
  if (intent === INTENT.stockAlert) return stockAlertAction(context, formData, page);
  if (intent !== INTENT.review) throw data(null, { status: 400 });
  const parsed = parseForm(reviewBody, formData);
  if (!parsed.ok) return invalidForm(parsed.errors, context.locale, formData);
  try {
    await context.shopper.reviews.add(parsed.data);
  } catch (error) {
    return actionError(error, context.locale, formData);
  }
  if (!isEnhanced(formData)) throw redirect(`${page}?reviewed=1#reviews`);
  return { reviewed: true as const };
}

type Data = Route.ComponentProps['loaderData'];

function productJsonLd({ product, publicUrl, reviews }: Data) {
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
    ...(reviews.count > 0 && reviews.average !== null
      ? {
          aggregateRating: {
            '@type': 'AggregateRating',
            ratingValue: reviews.average,
            reviewCount: reviews.count,
            bestRating: 5,
            worstRating: 1,
          },
        }
      : {}),
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

export default function ProductPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useShop();
  const { product, similar, reviews } = loaderData;
  const orderable = !product.envisioned && product.inStock > 0;
  // Without JavaScript the refused form's answer comes back as the page's action data.
  const failure = formFailure(actionData);
  const failedIntent = failure?.values?.intent;
  return (
    <div className="product-page">
      <PublicPageHead
        title={product.name}
        description={summarize(product.desc) || product.name}
        path={`/product/${product.link}`}
        image={product.image ? imageUrl('products', product.image) : undefined}
        type="product"
      />
      <JsonLd data={productJsonLd(loaderData)} />
      <JsonLd data={breadcrumbJsonLd(loaderData)} />
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
          <RatingSummary average={reviews.average} count={reviews.count} />
          <p className={`stock ${orderable ? 'stock--in' : 'stock--out'}`}>
            {product.envisioned
              ? t('envisioned')
              : product.inStock > 0
                ? t('in-stock', { count: product.inStock })
                : t('out-of-stock')}
          </p>
          {product.envisioned ? <p className="notice">{t('envisioned-info')}</p> : null}
          {/* Back in stock (16c): 16b's picker passes the chosen variant here. */}
          {!product.envisioned && product.inStock === 0 ? (
            <BackInStock productId={product.id} signedIn={loaderData.signedIn} />
          ) : null}
          <div className={`product__actions ${product.envisioned ? 'product__actions--envisioned' : ''}`}>
            <AddToCart
              productId={product.id}
              action={`/product/${product.link}`}
              disabled={!orderable}
              confirmed={loaderData.added}
              failure={failedIntent === INTENT.addToCart ? failure : undefined}
            />
            <WishlistHeart
              productId={product.id}
              inWishlist={loaderData.inWishlist}
              prominent={product.envisioned}
            />
          </div>
          <section className="product__description" aria-label={t('description')}>
            {/* Sanitized when written (src/server/catalog/sanitize.ts). */}
            {/* biome-ignore lint/security/noDangerouslySetInnerHtml: admin HTML is sanitized on write */}
            <div dangerouslySetInnerHTML={{ __html: product.desc }} />
          </section>
        </div>
      </div>
      <ReviewsThread
        thread={reviews}
        signedIn={loaderData.signedIn}
        reviewed={loaderData.reviewed}
        failure={failedIntent === INTENT.review ? failure : undefined}
      />
      {similar.length > 0 ? (
        <section aria-labelledby="similar-heading" className="similar">
          <h2 id="similar-heading">{t('similar-products')}</h2>
          <ProductGrid products={similar} />
        </section>
      ) : null}
    </div>
  );
}
