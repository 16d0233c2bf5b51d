import { type FormEvent, type ReactNode, type RefObject, useEffect, useLayoutEffect, useRef } from 'react';
import { Link, useFetcher, useLocation } from 'react-router';
import { ENHANCED_FIELD, INTENT, useHydrated } from '../lib/enhanced-forms.ts';
import type { FormFailure } from '../lib/forms.ts';
import { useShop } from '../lib/shop.ts';
import { unsavedBasketUnits } from '../lib/unsaved-basket-units.ts';
import { openCartDrawer, preloadCartDrawer } from './cart-drawer-host.tsx';
import { HeartIcon } from './icons.tsx';

/**
 * The add-to-cart button and the wishlist heart, as used on the product, cart and wishlist pages.
 * Both are forms: with JavaScript a fetcher sends them (no navigation; the header's badges are
 * reloaded by the revalidation that follows), without it the page posts and is sent back.
 */

/** Marks a form as sent by a fetcher, once JavaScript runs (see `isEnhanced`). */
export function EnhancedField() {
  return useHydrated() ? <input type="hidden" name={ENHANCED_FIELD} value="1" /> : null;
}

/** The current page, for a plain form to come back to; `extra` query parameters are set on it. */
export function useReturnPath(extra: Record<string, string> = {}, drop: string[] = []): string {
  const { pathname, search } = useLocation();
  const query = new URLSearchParams(search);
  for (const name of drop) query.delete(name);
  for (const [name, value] of Object.entries(extra)) query.set(name, value);
  const text = query.toString();
  return text ? `${pathname}?${text}` : pathname;
}

/** The first text of a refused request: its own message, else the first field's. */
export function failureText(failure: FormFailure | undefined): string | undefined {
  if (!failure) return undefined;
  return failure.formError ?? Object.values(failure.errors).flat()[0];
}

const isFailure = (answer: unknown): answer is FormFailure =>
  typeof answer === 'object' && answer !== null && 'errors' in answer;

type AddAnswer = { added: number } | FormFailure;

/** The add-to-cart fetcher of a product: its buttons anywhere on a page share its state. */
export const addToCartKey = (productId: number) => `add-to-cart-${productId}`;

/** An add counted in the header's badge while on its way is no longer: it landed or was refused. */
function uncount(counted: RefObject<boolean>) {
  if (counted.current) unsavedBasketUnits.set(unsavedBasketUnits.units - 1);
  counted.current = false;
}

/**
 * With JavaScript, while an add is on its way the header's badge counts it already (taken back if
 * refused; the revalidated count takes over once it lands), and once added the cart drawer opens
 * with focus going back to the button that was pressed.
 */
function useAddedToCart(fetcher: { state: string; data: AddAnswer | undefined }) {
  const opener = useRef<HTMLElement | null>(null);
  // This form was sent (not another button of the same product's), and its answer not yet seen.
  const pending = useRef(false);
  const counted = useRef(false);
  const sending = fetcher.state !== 'idle';
  // Before the browser paints: the badge never shows the unit twice (here and in the new count).
  useLayoutEffect(() => {
    if (!pending.current) return;
    if (sending) {
      if (!counted.current) unsavedBasketUnits.set(unsavedBasketUnits.units + 1);
      counted.current = true;
      return;
    }
    pending.current = false;
    uncount(counted);
    if (fetcher.data && !isFailure(fetcher.data)) openCartDrawer(opener.current);
  }, [sending, fetcher.data]);
  useEffect(() => () => uncount(counted), []);
  /** Called as the form is sent: remembers the button pressed and fetches the drawer's code. */
  return (event: FormEvent<HTMLFormElement>) => {
    pending.current = true;
    opener.current = (event.nativeEvent as SubmitEvent).submitter ?? null;
    // A failed download is met again, and handled, when the drawer is drawn.
    preloadCartDrawer().catch(() => undefined);
  };
}

/**
 * "Add to cart": a short confirmation with a link to the cart once added (and, with JavaScript,
 * the cart drawer), or the refusal (out of stock, only envisioned, no size chosen) in the
 * visitor's language.
 */
export function AddToCart({
  productId,
  variantId,
  action,
  disabled,
  confirmed = false,
  failure,
  small = false,
  label,
  formId,
  onSubmit,
  choice,
}: {
  productId: number;
  /** The chosen variant of a product with options; none for a product without. */
  variantId?: number | undefined;
  /** The route whose action adds it (the product page's own, or /cart). */
  action: string;
  disabled: boolean;
  /** Added by a plain form post (the page was sent back with `?added=<id>`). */
  confirmed?: boolean;
  /** Refused by a plain form post (the action's data). */
  failure?: FormFailure | undefined;
  small?: boolean;
  /** The button's accessible name when its text alone would not say what it adds (a card's). */
  label?: string;
  /** The form's id, for a button elsewhere (the sticky bar's) to send it. */
  formId?: string;
  /** Called before sending; may cancel it (`event.preventDefault()`), e.g. to ask for a size first. */
  onSubmit?: (event: FormEvent<HTMLFormElement>) => void;
  /** Fields inside the form before the button: a `variant` chooser (the wishlist's size picker). */
  choice?: ReactNode;
}) {
  const { t } = useShop();
  const fetcher = useFetcher<AddAnswer>({ key: addToCartKey(productId) });
  const sent = useAddedToCart(fetcher);
  const returnPath = useReturnPath({ added: String(productId) }, ['reviewed']);
  const idle = fetcher.state === 'idle';
  const answer = fetcher.data;
  const refused = idle ? failureText(isFailure(answer) ? answer : answer ? undefined : failure) : undefined;
  const added = idle && (answer ? !isFailure(answer) : confirmed);
  return (
    <>
      <fetcher.Form
        method="post"
        action={action}
        id={formId}
        className="add-to-cart"
        onSubmit={(event) => {
          onSubmit?.(event);
          if (!event.defaultPrevented) sent(event);
        }}
      >
        <input type="hidden" name="intent" value={INTENT.addToCart} />
        <input type="hidden" name="product" value={productId} />
        {variantId === undefined ? null : <input type="hidden" name="variant" value={variantId} />}
        <input type="hidden" name="redirectTo" value={returnPath} />
        <EnhancedField />
        {choice}
        <button
          type="submit"
          className={small ? 'button button--compact' : 'button button--primary'}
          disabled={disabled || !idle}
          aria-busy={!idle}
          aria-label={label}
        >
          {t('add-to-cart')}
        </button>
      </fetcher.Form>
      <p className="add-to-cart__status" role="status">
        {added ? (
          <>
            {t('added-to-cart')} <Link to="/cart">{t('open-cart')}</Link>
          </>
        ) : null}
      </p>
      {refused ? (
        <p className="add-to-cart__error" role="alert">
          {refused}
        </p>
      ) : null}
    </>
  );
}

type WishlistAnswer = { inWishlist: boolean; product: number } | FormFailure;

/**
 * The wishlist heart. A signed-in user toggles it (aria-pressed says whether the product is in the
 * wishlist; the change shows at once and is undone if refused); a guest follows it to the wishlist
 * page, which explains that signing in is needed (spec section 6).
 */
export function WishlistHeart({
  productId,
  inWishlist,
  prominent = false,
}: {
  productId: number;
  inWishlist: boolean;
  /** A wide button with its text, for envisioned items, which can only be wishlisted. */
  prominent?: boolean;
}) {
  const { data, t } = useShop();
  const fetcher = useFetcher<WishlistAnswer>({ key: `wishlist-${productId}` });
  const returnPath = useReturnPath({}, ['added', 'reviewed']);
  const className = prominent
    ? 'button wishlist-heart wishlist-heart--prominent'
    : 'icon-button icon-button--outlined wishlist-heart';
  /** "Add to wishlist", and "In wishlist" once it is there. */
  const content = (pressed: boolean) => {
    const label = t(pressed ? 'in-wishlist' : 'add-to-wishlist');
    return prominent ? (
      <>
        <HeartIcon filled={pressed} />
        <span>{label}</span>
      </>
    ) : (
      <HeartIcon filled={pressed} label={label} />
    );
  };

  // A shared page before its own data arrives (ADR 0048) gets the form: sent, it adds for a
  // signed-in visitor, and tells a guest that signing in is needed.
  if (!data?.user && !data?.ownDataLater) {
    return (
      <Link to="/wishlist" className={className}>
        {content(false)}
      </Link>
    );
  }
  const sending = fetcher.formData?.get('intent');
  const pressed = sending ? sending === INTENT.wishlistAdd : inWishlist;
  const refused = fetcher.state === 'idle' && isFailure(fetcher.data) ? failureText(fetcher.data) : undefined;
  return (
    <fetcher.Form method="post" action="/wishlist" className="wishlist-heart__form">
      <input type="hidden" name="intent" value={pressed ? INTENT.wishlistRemove : INTENT.wishlistAdd} />
      <input type="hidden" name="product" value={productId} />
      <input type="hidden" name="redirectTo" value={returnPath} />
      <EnhancedField />
      <button
        type="submit"
        className={className}
        aria-pressed={pressed}
        title={t(pressed ? 'remove-from-wishlist' : 'add-to-wishlist')}
      >
        {content(pressed)}
      </button>
      {refused ? (
        <span className="wishlist-heart__error" role="alert">
          {refused}
        </span>
      ) : null}
    </fetcher.Form>
  );
}
