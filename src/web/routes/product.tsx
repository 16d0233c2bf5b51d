import { type FormEvent, useState } from 'react';
import { data, Link, redirect, type ShouldRevalidateFunctionArgs, useSearchParams } from 'react-router';
import type { ProductResponse } from '../../contract/catalog.ts';
import { imageUrl } from '../../contract/images.ts';
import { type Locale, localizedPath } from '../../contract/locale.ts';
import { formatPrice, minorToDecimal, shownPrice, unitPrice } from '../../contract/money.ts';
import { REVIEW_MAX_LENGTH, type ReviewPage, reviewBody } from '../../contract/shopping.ts';
import { BackInStock } from '../components/back-in-stock.tsx';
import { Gallery } from '../components/gallery.tsx';
import { OptionPicker, optionFieldId } from '../components/option-picker.tsx';
import { JsonLd, PublicPageHead } from '../components/page-head.tsx';
import { DiscountBadge, Price, PriceFrom } from '../components/price.tsx';
import { ProductGrid } from '../components/product-card.tsx';
import { RecentlyViewed } from '../components/recently-viewed.tsx';
import { ReleaseCountdown, ReleaseReminder } from '../components/release-countdown.tsx';
import { RatingSummary, ReviewsThread, type ReviewThreadData } from '../components/reviews.tsx';
import { AddToCart, WishlistHeart } from '../components/shopper-buttons.tsx';
import { StickyAddBar } from '../components/sticky-add-bar.tsx';
import { INTENT, isEnhanced } from '../lib/enhanced-forms.ts';
import { actionError, formFailure, invalidForm, parseForm, postedForm } from '../lib/forms.ts';
import { orNotFound } from '../lib/load.ts';
import { releaseReminderAction } from '../lib/release-reminder-form.ts';
import { summarize } from '../lib/seo.ts';
import { useShop } from '../lib/shop.ts';
import { addToCartAction } from '../lib/shopper-forms.ts';
import { stockAlertAction } from '../lib/stock-alert-form.ts';
import {
  type Choice,
  chosenVariant,
  isChoiceParam,
  matchingVariants,
  readChoice,
  variantQuery,
  withChoice,
} from '../lib/variant-choice.ts';
import type { Route } from './+types/product';

/** The page's add-to-cart form, which the sticky bar on phones sends too. */
const ADD_FORM_ID = 'product-add-to-cart';

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
  // A shared page leaves out whose page it is: that comes once it is hydrated (ADR 0048).
  const user = context.ownDataLater ? null : await context.account.currentUser();
  // Announced only, until its release time (ADR 0041); the release clock empties the caches then.
  const announced = product.releaseAt !== null && Date.parse(product.releaseAt) > Date.now();
  const [reviews, inWishlist, reminded] = await Promise.all([
    loadReviews(context, product, Number(query.get('reviews') ?? 1)),
    user ? context.shopper.wishlist.has(product.id) : false,
    user && announced ? context.shopper.releaseReminder.waiting(product.id) : false,
  ]);
  return {
    product,
    similar,
    reviews,
    announced,
    reminded,
    signedIn: user !== null,
    /**
     * Forms for signed-in shoppers are shown on a shared page too (ADR 0048): without JavaScript a
     * signed-in shopper can still send them; a guest who does is told to sign in.
     */
    maySignIn: user !== null || context.ownDataLater,
    inWishlist,
    /** A plain form added it to the cart, or published a review, and came back here. */
    added: query.get('added') === String(product.id),
    reviewed: query.get('reviewed') === '1',
    publicUrl: context.publicUrl,
  };
}

/**
 * Choosing an option only changes the address's query (`?size=L`): the page draws the choice from
 * the address with the data it has, so that needs no new data from the server. The same address
 * again is a revalidation (the release countdown reaching zero): that loads anew.
 */
export function shouldRevalidate({
  currentUrl,
  nextUrl,
  formMethod,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  if (formMethod || currentUrl.pathname !== nextUrl.pathname || currentUrl.href === nextUrl.href)
    return defaultShouldRevalidate;
  const withoutChoice = (url: URL) =>
    [...new URLSearchParams(url.search)].filter(([name]) => !isChoiceParam(name)).join('&');
  return withoutChoice(currentUrl) === withoutChoice(nextUrl) ? false : defaultShouldRevalidate;
}

/** Add to cart, or post a review (the `intent` field tells which). */
export async function action({ context, params, request }: Route.ActionArgs) {
  const formData = await postedForm(request);
  const page = `/product/${params.link}`;
  const intent = formData.get('intent');
  if (intent === INTENT.addToCart) return addToCartAction(context, formData, page);
  if (intent === INTENT.stockAlert) return stockAlertAction(context, formData, page);
  if (intent === INTENT.releaseReminder) return releaseReminderAction(context, formData, page);
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

/**
 * The product for search engines, as the page shows it: a `Product` with its offer or, with
 * options, a `ProductGroup` whose `hasVariant` lists each variant as a `Product` with its SKU,
 * option values and own offer. Prices are in the page's currency (no offer when the page cannot
 * show one); in stock only when it can be ordered (an envisioned item never can, so it is no
 * pre-order); addresses are the page's own, in its language.
 */
function productJsonLd({ product, publicUrl, reviews }: Data, shown: { locale: Locale; usdRate: number }) {
  const address = (path: string) => `${publicUrl}${localizedPath(path, shown.locale)}`;
  const url = address(`/product/${product.link}`);
  const offers = (price: number, sale: number | null, inStock: number, at: string) => {
    const amount = shownPrice(unitPrice({ price, sale }), shown.locale, shown.usdRate);
    return amount
      ? {
          offers: {
            '@type': 'Offer',
            url: at,
            priceCurrency: amount.currency,
            price: minorToDecimal(amount.amount),
            availability:
              !product.envisioned && inStock > 0
                ? 'https://schema.org/InStock'
                : 'https://schema.org/OutOfStock',
          },
        }
      : {};
  };
  const common = {
    '@context': 'https://schema.org',
    name: product.name,
    description: summarize(product.desc, 500),
    image: product.images.map((file) => `${publicUrl}${imageUrl('products', file)}`),
    brand: { '@type': 'Brand', name: product.project.name },
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
  if (product.options.length === 0) {
    return {
      ...common,
      '@type': 'Product',
      sku: String(product.id),
      ...offers(product.price, product.sale, product.inStock, url),
    };
  }
  const property = { size: 'size', colour: 'color', other: undefined } as const;
  return {
    ...common,
    '@type': 'ProductGroup',
    productGroupID: String(product.id),
    url,
    variesBy: product.options.flatMap((option) =>
      property[option.kind] ? [`https://schema.org/${property[option.kind]}`] : [],
    ),
    hasVariant: product.variants.map((variant) => {
      const values = variant.values.map((valueId, index) => {
        const option = product.options[index];
        return { option, value: option?.values.find((candidate) => candidate.id === valueId)?.value ?? '' };
      });
      const picture = product.pictures.find(
        (candidate) => candidate.optionValue !== null && variant.values.includes(candidate.optionValue),
      );
      return {
        '@type': 'Product',
        sku: variant.sku,
        name: `${product.name} (${values.map(({ value }) => value).join(', ')})`,
        ...Object.fromEntries(
          values.flatMap(({ option, value }) => {
            const name = option ? property[option.kind] : undefined;
            return name ? [[name, value]] : [];
          }),
        ),
        ...(picture ? { image: `${publicUrl}${imageUrl('products', picture.file)}` } : {}),
        ...offers(
          variant.price,
          variant.sale,
          variant.inStock,
          address(`/product/${product.link}${variantQuery(variant.id)}`),
        ),
      };
    }),
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

/** The pictures to show for a colour: its own and those of no colour; all when none is chosen. */
function picturesFor(product: Data['product'], choice: Choice): string[] {
  const colours = new Set(
    product.options
      .filter((option) => option.kind === 'colour')
      .flatMap((option) => option.values.map((value) => value.id)),
  );
  const chosen = [...choice.values()].find((valueId) => colours.has(valueId));
  if (chosen === undefined || !product.pictures.some((picture) => picture.optionValue === chosen))
    return product.images;
  return product.pictures
    .filter((picture) => picture.optionValue === chosen || picture.optionValue === null)
    .sort((a, b) => Number(b.optionValue === chosen) - Number(a.optionValue === chosen))
    .map((picture) => picture.file);
}

/** The chosen variant's price (with its discount on the page itself), or "from" while several are open. */
function ProductPrice({
  product,
  variant,
  main = false,
}: {
  product: Data['product'];
  variant: ReturnType<typeof chosenVariant>;
  main?: boolean;
}) {
  if (!variant && product.fromPrice !== null) return <PriceFrom price={product.fromPrice} large={main} />;
  const { price, sale } = variant ?? product;
  return (
    <>
      <Price price={price} sale={sale} large={main} />
      {main ? <DiscountBadge price={price} sale={sale} /> : null}
    </>
  );
}

export default function ProductPage({ loaderData, actionData }: Route.ComponentProps) {
  const { locale, t, usdRate } = useShop();
  const { product, similar, reviews, announced } = loaderData;
  const [searchParams, setSearchParams] = useSearchParams();
  const choice = readChoice(product, searchParams);
  const variant = chosenVariant(product, choice);
  // Asked to choose when add to cart was pressed with an option left unchosen.
  const [missing, setMissing] = useState<string | null>(null);
  const price = variant ?? product;
  // Units of the chosen variant, or of those the choice so far leaves open.
  const inStock = variant
    ? variant.inStock
    : matchingVariants(product, choice).reduce((units, candidate) => units + candidate.inStock, 0);
  const orderable = !announced && !product.envisioned && inStock > 0;
  const limit = variant?.perCustomerLimit ?? product.perCustomerLimit;
  const unchosen = product.options.find((option) => !choice.has(option.id));
  // Enabled with an option left to choose: pressing it asks for the choice.
  const addable = !announced && (orderable || (unchosen !== undefined && !product.envisioned));
  // Without JavaScript the refused form's answer comes back as the page's action data.
  const failure = formFailure(actionData);
  const failedIntent = failure?.values?.intent;
  const images = picturesFor(product, choice);
  const stockText = announced
    ? t('announced')
    : product.envisioned
      ? t('envisioned')
      : inStock > 0
        ? t('in-stock', { count: inStock })
        : variant && product.options.length > 0
          ? t('variant-sold-out')
          : t('out-of-stock');

  const choose = (optionId: number, valueId: number) => {
    setMissing(null);
    setSearchParams(withChoice(product, searchParams, new Map([...choice, [optionId, valueId]])), {
      replace: true,
      preventScrollReset: true,
    });
  };
  const askForChoice = (event: FormEvent<HTMLFormElement>) => {
    if (!unchosen) return;
    event.preventDefault();
    setMissing(t('choose-option', { option: unchosen.name.toLocaleLowerCase() }));
    // The whole group in view (its name too, when the sticky bar sent the form from far below).
    const field = document.getElementById(optionFieldId(unchosen.id));
    field?.closest('fieldset')?.scrollIntoView({ block: 'nearest' });
    field?.focus({ preventScroll: true });
  };
  return (
    <div className="product-page">
      <PublicPageHead
        title={product.name}
        description={summarize(product.desc) || product.name}
        path={`/product/${product.link}`}
        image={product.image ? imageUrl('products', product.image) : undefined}
        type="product"
      />
      <JsonLd data={productJsonLd(loaderData, { locale, usdRate })} />
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
        <Gallery key={`${product.id}:${images.join(',')}`} images={images} name={product.name} />
        <div className="product__info">
          <h1>{product.name}</h1>
          <div className="product__price">
            <ProductPrice product={product} variant={variant} main />
          </div>
          <RatingSummary average={reviews.average} count={reviews.count} />
          {product.options.length > 0 ? (
            <OptionPicker product={product} choice={choice} onChoose={choose} />
          ) : null}
          <p className={`stock ${orderable ? 'stock--in' : announced ? 'stock--announced' : 'stock--out'}`}>
            {stockText}
          </p>
          {/* Screen readers hear what a choice changed: the price and the stock of the variant. */}
          <p className="visually-hidden" aria-live="polite">
            {variant && product.options.length > 0
              ? t('variant-announcement', {
                  price: formatPrice(unitPrice(price), locale, usdRate) ?? t('price-unavailable'),
                  stock: stockText,
                })
              : ''}
          </p>
          {limit !== null ? (
            <p className="product__limit">{t('per-customer-limit', { count: limit })}</p>
          ) : null}
          {product.envisioned ? <p className="notice">{t('envisioned-info')}</p> : null}
          {announced && product.releaseAt !== null ? (
            <>
              <ReleaseCountdown releaseAt={product.releaseAt} />
              <ReleaseReminder
                productId={product.id}
                signedIn={loaderData.maySignIn}
                waiting={loaderData.reminded}
              />
            </>
          ) : null}
          {missing ? (
            <p className="option-picker__missing" role="alert">
              {missing}
            </p>
          ) : null}
          {/* A sold-out choice (or product without options) can be asked for when it is back. */}
          {!announced && !product.envisioned && inStock === 0 && (variant || product.options.length === 0) ? (
            <BackInStock
              productId={product.id}
              variantId={product.options.length > 0 ? variant?.id : undefined}
              signedIn={loaderData.signedIn}
            />
          ) : null}
          <div className={`product__actions ${product.envisioned ? 'product__actions--envisioned' : ''}`}>
            {announced ? null : (
              <AddToCart
                productId={product.id}
                variantId={product.options.length > 0 ? variant?.id : undefined}
                action={`/product/${product.link}`}
                formId={ADD_FORM_ID}
                disabled={!addable}
                confirmed={loaderData.added}
                failure={failedIntent === INTENT.addToCart ? failure : undefined}
                onSubmit={askForChoice}
              />
            )}
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
        signedIn={loaderData.maySignIn}
        reviewed={loaderData.reviewed}
        failure={failedIntent === INTENT.review ? failure : undefined}
      />
      {similar.length > 0 ? (
        <section aria-labelledby="similar-heading" className="similar">
          <h2 id="similar-heading">{t('similar-products')}</h2>
          <ProductGrid products={similar} />
        </section>
      ) : null}
      <RecentlyViewed productId={product.id} />
      {addable ? (
        <StickyAddBar
          form={ADD_FORM_ID}
          productId={product.id}
          name={product.name}
          price={<ProductPrice product={product} variant={variant} />}
        />
      ) : null}
    </div>
  );
}
