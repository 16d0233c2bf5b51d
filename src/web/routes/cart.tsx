import { useId, useMemo, useState } from 'react';
import { data, Link, useFetcher, useFetchers } from 'react-router';
import { unitPrice } from '../../contract/money.ts';
import type { NotRepeatedItem } from '../../contract/orders.ts';
import { type Basket, type BasketLine, basketLineFields } from '../../contract/shopping.ts';
import { DollarsWithheldNote } from '../components/dollars-withheld.tsx';
import { FormAlert } from '../components/form-field.tsx';
import { PrivatePageHead } from '../components/page-head.tsx';
import { ProductLine } from '../components/product-line.tsx';
import { PromoCodeForm } from '../components/promo-code.tsx';
import { EnhancedField, failureText, WishlistHeart } from '../components/shopper-buttons.tsx';
import type { MessageKey } from '../i18n/messages.ts';
import { pricedLine, useAmounts } from '../lib/amounts.ts';
import { clampCount, readCount, useBasketCounts } from '../lib/basket-counts.ts';
import { INTENT, useHydrated } from '../lib/enhanced-forms.ts';
import { type FormFailure, formFailure, postedForm } from '../lib/forms.ts';
import { PROMO_INTENT, promoCodeAction } from '../lib/promo-forms.ts';
import { useShop } from '../lib/shop.ts';
import { addToCartAction, removeFromCartAction, setCountAction } from '../lib/shopper-forms.ts';
import type { Route } from './+types/cart';

/**
 * The visitor's basket, which of its products a signed-in user has wishlisted, and, right after a
 * repeated order, the items it could not add in full.
 */
export async function loader({ context }: Route.LoaderArgs) {
  const [basket, user]: [Basket, unknown] = await Promise.all([
    context.shopper.basket.get(context.locale),
    context.account.currentUser(),
  ]);
  const wishlist = user ? (await context.shopper.wishlist.get(context.locale)).productList : null;
  const notRepeated = user ? await context.checkout.orders.takeNotRepeated() : [];
  return { basket, wishlist, notRepeated };
}

/** Count changes, removal (DELETE from a fetcher, or a plain form's `intent=remove`) and adding. */
export async function action({ context, request }: Route.ActionArgs) {
  const formData = await postedForm(request);
  const intent = formData.get('intent');
  if (request.method === 'DELETE' || intent === INTENT.remove)
    return removeFromCartAction(context, formData, '/cart');
  if (intent === INTENT.count) return setCountAction(context, formData, '/cart');
  if (intent === INTENT.addToCart) return addToCartAction(context, formData, '/cart');
  if (intent === PROMO_INTENT.enter || intent === PROMO_INTENT.remove)
    return promoCodeAction(context, formData, '/cart');
  throw data(null, { status: 400 });
}

const REMOVE_KEY = 'basket-remove-';

/** Lines whose removal is on its way (by line key): hidden at once, back if the server refuses. */
function useRemoving(): Set<string> {
  const fetchers = useFetchers();
  return new Set(
    fetchers
      .filter((fetcher) => fetcher.key.startsWith(REMOVE_KEY) && fetcher.formData)
      .map((fetcher) => fetcher.key.slice(REMOVE_KEY.length)),
  );
}

const isUnavailable = (item: BasketLine, count: number) => item.inStock === 0 || count > item.inStock;

export default function CartPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useShop();
  const { basket, wishlist } = loaderData;
  // Told once by the server; kept while the page stays open, whatever revalidates it.
  const [notRepeated] = useState(loaderData.notRepeated);
  const serverCounts = useMemo(
    () => Object.fromEntries(basket.productList.map((key) => [key, basket.products[key]?.count ?? 1])),
    [basket],
  );
  const counts = useBasketCounts(serverCounts);
  const removing = useRemoving();
  const lines = basket.productList.flatMap((lineKey) => {
    const key = String(lineKey);
    const item = basket.products[key];
    return item && !removing.has(key) ? [{ key, item, count: counts.countOf(key) }] : [];
  });
  const blocked = lines.some(({ item, count }) => isUnavailable(item, count));
  const amounts = useAmounts(
    lines.map(({ key, item, count }) => pricedLine(unitPrice(item), count, basket.promo?.lines[key])),
    0,
  );
  const units = lines.reduce((sum, { count }) => sum + count, 0);
  // A plain form that was refused comes back as the page's action data.
  const failure = formFailure(actionData);

  return (
    <div className="cart-page">
      <PrivatePageHead title={t('cart')} />
      <h1>{t('cart')}</h1>
      <FormAlert>{failureText(failure)}</FormAlert>
      <NotRepeatedNotice items={notRepeated} />
      <DollarsWithheldNote />
      {lines.length === 0 ? (
        <div className="empty cart-empty">
          <p>{t('cart-empty')}</p>
          <Link to="/" className="button">
            {t('browse-catalogue')}
          </Link>
        </div>
      ) : (
        <div className="cart">
          {blocked ? (
            <p className="cart__warning" role="alert">
              {t('cart-unavailable')}
            </p>
          ) : null}
          <ul className="product-lines">
            {lines.map(({ key, item, count }, index) => (
              <li key={key}>
                <CartLine
                  lineKey={key}
                  item={item}
                  count={count}
                  lineTotal={amounts.line(index)}
                  inWishlist={wishlist === null ? null : wishlist.includes(item.id)}
                  onCount={(next) => counts.change(key, next)}
                  onRemove={() => counts.forget(key)}
                />
              </li>
            ))}
          </ul>
          <section className="cart-summary" aria-label={t('cart-total')}>
            <p className="cart-summary__units">{t('cart-units', { count: units })}</p>
            <PromoCodeForm promo={basket.promo} discount={amounts.discount} action="/cart" />
            <p className="cart-summary__total">
              <span>{t('cart-total')}</span>
              <strong>{amounts.products}</strong>
            </p>
            {blocked ? (
              <>
                <button
                  type="button"
                  className="button button--primary"
                  disabled
                  aria-describedby="place-order-blocked"
                >
                  {t('place-order')}
                </button>
                <p id="place-order-blocked" className="cart-summary__blocked">
                  {t('place-order-blocked')}
                </p>
              </>
            ) : (
              <Link to="/order/shipping" className="button button--primary">
                {t('place-order')}
              </Link>
            )}
          </section>
        </div>
      )}
    </div>
  );
}

const NOT_REPEATED_TEXTS: Record<NotRepeatedItem['reason'], MessageKey> = {
  'sold-out': 'repeat-sold-out',
  hidden: 'repeat-hidden',
  envisioned: 'repeat-envisioned',
  limited: 'repeat-limited',
};

/** After a repeated order: the items that did not go back into the cart in full, and why. */
function NotRepeatedNotice({ items }: { items: readonly NotRepeatedItem[] }) {
  const { t } = useShop();
  if (items.length === 0) return null;
  return (
    <div className="cart__notice" role="status">
      <p>{t('repeat-not-added')}</p>
      <ul>
        {items.map((item) => (
          <li key={item.id}>
            {t(NOT_REPEATED_TEXTS[item.reason], {
              name: item.name,
              added: item.added,
              ordered: item.ordered,
            })}
          </li>
        ))}
      </ul>
    </div>
  );
}

const isFailure = (answer: unknown): answer is FormFailure =>
  typeof answer === 'object' && answer !== null && 'errors' in answer;

/** The hidden fields that name a basket line in its forms: the product, and its variant if it has options. */
function LineFields({ lineKey }: { lineKey: string }) {
  return Object.entries(basketLineFields(lineKey)).map(([name, value]) => (
    <input key={name} type="hidden" name={name} value={value} />
  ));
}

/**
 * One line of the cart, a product's variant: its options ("Size: L") and the variant's stock,
 * − / count / + (typed counts are integers from 1 up to that stock), the line total, the wishlist
 * heart and removal. Without JavaScript the count is a small form with an Update button, and − and
 * + are forms of their own.
 */
function CartLine({
  lineKey,
  item,
  count,
  lineTotal,
  inWishlist,
  onCount,
  onRemove,
}: {
  /** The line's key in the basket: the product id, or "product:variant". */
  lineKey: string;
  item: BasketLine;
  count: number;
  /** The line's amount, formatted: a share of the cart total (ADR 0024). */
  lineTotal: string;
  /** Null for a guest, whose heart leads to the wishlist page. */
  inWishlist: boolean | null;
  onCount: (count: number) => void;
  onRemove: () => void;
}) {
  const { t } = useShop();
  const hydrated = useHydrated();
  const remover = useFetcher<{ removed: number } | FormFailure>({ key: `${REMOVE_KEY}${lineKey}` });
  const [draft, setDraft] = useState<string | null>(null);
  const id = useId();
  const unavailable = isUnavailable(item, count);
  const orderable = item.inStock > 0;
  // Two sizes of one product are two lines: their controls are named with the size.
  const name = item.options ? `${item.name} (${item.options})` : item.name;
  const setCount = (next: number) => {
    if (next !== count) onCount(next);
  };
  const step = (delta: number) => (event: React.MouseEvent) => {
    if (!hydrated) return;
    event.preventDefault();
    setDraft(null);
    setCount(clampCount(count + delta, item.inStock));
  };
  const ignoreWithScript = hydrated ? (event: React.FormEvent) => event.preventDefault() : undefined;
  const removeRefused =
    remover.state === 'idle' && isFailure(remover.data) ? failureText(remover.data) : undefined;

  return (
    <ProductLine
      product={item}
      options={item.options}
      headingId={`${id}-name`}
      unavailable={unavailable}
      status={
        unavailable ? (
          <p className="stock stock--out">
            {item.inStock === 0 ? t('out-of-stock') : t('cart-over-stock', { count: item.inStock })}
          </p>
        ) : (
          <p className="stock stock--in">{t('in-stock', { count: item.inStock })}</p>
        )
      }
    >
      <div className="quantity">
        <form
          id={`${id}-count`}
          method="post"
          action="/cart"
          className="quantity__form"
          onSubmit={ignoreWithScript}
        >
          <input type="hidden" name="intent" value={INTENT.count} />
          <LineFields lineKey={lineKey} />
          <input type="hidden" name="redirectTo" value="/cart" />
          <button
            type="submit"
            form={`${id}-less`}
            className="quantity__step"
            disabled={!orderable || count <= 1}
            aria-label={t('quantity-decrease', { name })}
            onClick={step(-1)}
          >
            <span aria-hidden="true">−</span>
          </button>
          <label htmlFor={`${id}-input`} className="visually-hidden">
            {t('quantity-of', { name })}
          </label>
          <input
            id={`${id}-input`}
            className="quantity__input"
            name="count"
            type="number"
            inputMode="numeric"
            min={1}
            max={orderable ? item.inStock : undefined}
            step={1}
            disabled={!orderable}
            aria-invalid={unavailable || undefined}
            value={draft ?? String(count)}
            onChange={(event) => {
              const text = event.target.value;
              const typed = readCount(text);
              if (typed === null) {
                setDraft(text);
                return;
              }
              const next = clampCount(typed, item.inStock);
              setDraft(next === typed ? text : String(next));
              setCount(next);
            }}
            onBlur={() => {
              // An unreadable count falls back to 1 (spec section 5).
              if (draft !== null && readCount(draft) === null) setCount(1);
              setDraft(null);
            }}
          />
          <button
            type="submit"
            form={`${id}-more`}
            className="quantity__step"
            disabled={!orderable || count >= item.inStock}
            aria-label={t('quantity-increase', { name })}
            onClick={step(1)}
          >
            <span aria-hidden="true">+</span>
          </button>
          {hydrated ? null : (
            <button type="submit" className="button button--compact" disabled={!orderable}>
              {t('quantity-update')}
            </button>
          )}
        </form>
        {[
          ['less', count - 1],
          ['more', count + 1],
        ].map(([which, value]) => (
          <form
            key={which}
            id={`${id}-${which}`}
            method="post"
            action="/cart"
            hidden
            onSubmit={ignoreWithScript}
          >
            <input type="hidden" name="intent" value={INTENT.count} />
            <LineFields lineKey={lineKey} />
            <input type="hidden" name="count" value={value} />
            <input type="hidden" name="redirectTo" value="/cart" />
          </form>
        ))}
      </div>
      <p className="product-line__total">
        <span className="visually-hidden">{t('line-total')}: </span>
        {lineTotal}
      </p>
      <div className="product-line__actions">
        <WishlistHeart productId={item.id} inWishlist={inWishlist ?? false} />
        <remover.Form
          method={hydrated ? 'delete' : 'post'}
          action="/cart"
          onSubmit={onRemove}
          className="product-line__remove"
        >
          <input type="hidden" name="intent" value={INTENT.remove} />
          <LineFields lineKey={lineKey} />
          <input type="hidden" name="redirectTo" value="/cart" />
          <EnhancedField />
          <button
            type="submit"
            className="button button--compact"
            aria-label={t('remove-from-cart', { name })}
          >
            {t('remove')}
          </button>
        </remover.Form>
      </div>
      {removeRefused ? (
        <p className="product-line__error" role="alert">
          {removeRefused}
        </p>
      ) : null}
    </ProductLine>
  );
}
