import { useId } from 'react';
import { data, Link, useFetcher, useFetchers } from 'react-router';
import type { Wishlist } from '../../contract/shopping.ts';
import { FormAlert } from '../components/form-field.tsx';
import { PrivatePageHead } from '../components/page-head.tsx';
import { ProductLine } from '../components/product-line.tsx';
import { AddToCart, EnhancedField, failureText, useReturnPath } from '../components/shopper-buttons.tsx';
import { INTENT } from '../lib/enhanced-forms.ts';
import { type FormFailure, formFailure, postedForm } from '../lib/forms.ts';
import { signInPath } from '../lib/redirects.ts';
import { useShop } from '../lib/shop.ts';
import { addToCartAction, wishlistAction } from '../lib/shopper-forms.ts';
import type { Route } from './+types/wishlist';

/** The signed-in user's wishlist; a guest (the API's 401) gets the page with an explanation. */
export async function loader({ context, url }: Route.LoaderArgs) {
  let wishlist: Wishlist | null = null;
  try {
    wishlist = await context.shopper.wishlist.get(context.locale);
  } catch (error) {
    if ((error as { status?: unknown }).status !== 401) throw error;
  }
  const added = Number(url.searchParams.get('added'));
  return { wishlist, added };
}

/** Wishlist add/remove (the hearts of every page post here), and adding a wishlisted item to the cart. */
export async function action({ context, request }: Route.ActionArgs) {
  const formData = await postedForm(request);
  const intent = formData.get('intent');
  if (intent === INTENT.wishlistAdd || intent === INTENT.wishlistRemove)
    return wishlistAction(context, formData, '/wishlist');
  if (intent === INTENT.addToCart) return addToCartAction(context, formData, '/wishlist');
  throw data(null, { status: 400 });
}

const wishlistKey = (productId: number) => `wishlist-${productId}`;

/** Products whose removal is on its way: hidden at once, back if the server refuses. */
function useRemoving(): Set<number> {
  return new Set(
    useFetchers()
      .filter(
        (fetcher) =>
          fetcher.key.startsWith('wishlist-') && fetcher.formData?.get('intent') === INTENT.wishlistRemove,
      )
      .map((fetcher) => Number(fetcher.formData?.get('product'))),
  );
}

export default function WishlistPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useShop();
  const { wishlist, added } = loaderData;
  const removing = useRemoving();
  const failure = formFailure(actionData);
  const items = wishlist
    ? wishlist.productList.flatMap((id) => {
        const item = wishlist.products[id];
        return item && !removing.has(id) ? [item] : [];
      })
    : [];
  return (
    <div className="wishlist-page">
      <PrivatePageHead title={t('wishlist')} />
      <h1>{t('wishlist')}</h1>
      <FormAlert>{failureText(failure)}</FormAlert>
      {wishlist === null ? (
        <div className="empty wishlist-guest">
          <p>{t('wishlist-unavailable')}</p>
          <p className="empty__actions">
            <Link to={signInPath('/wishlist')} className="button button--primary">
              {t('sign-in')}
            </Link>
            <Link to="/registration" className="button">
              {t('register')}
            </Link>
          </p>
        </div>
      ) : items.length === 0 ? (
        <div className="empty">
          <p>{t('wishlist-empty')}</p>
          <Link to="/" className="button">
            {t('browse-catalogue')}
          </Link>
        </div>
      ) : (
        <ul className="product-lines">
          {items.map((item) => (
            <li key={item.id}>
              <WishlistLine item={item} confirmed={added === item.id} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

type WishlistItem = Wishlist['products'][string];

const isFailure = (answer: unknown): answer is FormFailure =>
  typeof answer === 'object' && answer !== null && 'errors' in answer;

function WishlistLine({ item, confirmed }: { item: WishlistItem; confirmed: boolean }) {
  const { t } = useShop();
  const id = useId();
  const remover = useFetcher<{ inWishlist: boolean } | FormFailure>({ key: wishlistKey(item.id) });
  const returnPath = useReturnPath({}, ['added']);
  const orderable = !item.envisioned && item.inStock > 0;
  const refused = remover.state === 'idle' && isFailure(remover.data) ? failureText(remover.data) : undefined;
  return (
    <ProductLine
      product={item}
      headingId={`${id}-name`}
      status={
        item.envisioned ? (
          <p className="stock stock--envisioned">{t('envisioned')}</p>
        ) : (
          <p className={`stock ${orderable ? 'stock--in' : 'stock--out'}`}>
            {orderable ? t('in-stock', { count: item.inStock }) : t('out-of-stock')}
          </p>
        )
      }
    >
      <div className="product-line__actions">
        {orderable ? (
          <AddToCart
            productId={item.id}
            action="/wishlist"
            disabled={false}
            confirmed={confirmed}
            small
            choice={
              item.choice ? (
                <VariantChoice choice={item.choice} productName={item.name} id={`${id}-variant`} />
              ) : null
            }
          />
        ) : null}
        <remover.Form method="post" action="/wishlist" className="product-line__remove">
          <input type="hidden" name="intent" value={INTENT.wishlistRemove} />
          <input type="hidden" name="product" value={item.id} />
          <input type="hidden" name="redirectTo" value={returnPath} />
          <EnhancedField />
          <button
            type="submit"
            className="button button--compact"
            aria-label={t('remove-from-wishlist-named', { name: item.name })}
          >
            {t('remove')}
          </button>
        </remover.Form>
      </div>
      {refused ? (
        <p className="product-line__error" role="alert">
          {refused}
        </p>
      ) : null}
    </ProductLine>
  );
}

/**
 * The size (or other option) of a wishlisted product with options, chosen right here: a plain
 * `variant` select inside the add-to-cart form, so it works without JavaScript too. Sold-out
 * variants are listed, disabled; nothing is chosen until the shopper chooses.
 */
function VariantChoice({
  choice,
  productName,
  id,
}: {
  choice: NonNullable<WishlistItem['choice']>;
  productName: string;
  id: string;
}) {
  const { t } = useShop();
  return (
    <span className="wishlist-variant">
      {/* Each line has its own "Size": the product's name tells them apart when read out. */}
      <label htmlFor={id}>
        {choice.name}
        <span className="visually-hidden">: {productName}</span>
      </label>
      <select id={id} name="variant" required defaultValue="">
        <option value="" disabled>
          {t('choose-options')}
        </option>
        {choice.variants.map((variant) => (
          <option key={variant.id} value={variant.id} disabled={variant.inStock === 0}>
            {variant.inStock === 0 ? `${variant.label} (${t('sold-out')})` : variant.label}
          </option>
        ))}
      </select>
    </span>
  );
}
