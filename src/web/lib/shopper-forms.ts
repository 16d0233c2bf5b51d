import { type AppLoadContext, redirect } from 'react-router';
import { basketLineBody, countBody, productBody } from '../../contract/shopping.ts';
import { INTENT, isEnhanced } from './enhanced-forms.ts';
import { actionError, invalidForm, parseForm } from './forms.ts';
import { safeRedirect } from './redirects.ts';

/**
 * The server side of the basket and wishlist buttons, shared by the product, cart and wishlist
 * routes' actions. A fetcher (JavaScript) gets data back; a plain form post is redirected to the
 * page it came from (its `redirectTo` field), so reloading never sends it twice.
 */

/**
 * Where a plain form returns to: its `redirectTo` field when it is a local path, else `fallback`.
 * Read before the change is made, so a target refused with 400 changes nothing.
 */
export function backTo(formData: FormData, fallback: string): string {
  return safeRedirect(formData.get('redirectTo'), fallback);
}

/**
 * One more unit of a product's variant (the `variant` field; none for a product without options)
 * into the visitor's basket, never beyond its stock.
 */
export async function addToCartAction(context: AppLoadContext, formData: FormData, fallback: string) {
  const returnTo = backTo(formData, fallback);
  const parsed = parseForm(basketLineBody, formData);
  if (!parsed.ok) return invalidForm(parsed.errors, context.locale, formData);
  try {
    await context.shopper.basket.add(parsed.data.product, parsed.data.variant);
  } catch (error) {
    return actionError(error, context.locale, formData);
  }
  if (!isEnhanced(formData)) throw redirect(returnTo);
  return { added: parsed.data.product };
}

/** A new count (integer, at least 1, clamped to stock by the server: `force` says it was). */
export async function setCountAction(context: AppLoadContext, formData: FormData, fallback: string) {
  const returnTo = backTo(formData, fallback);
  const parsed = parseForm(countBody, formData);
  if (!parsed.ok) return invalidForm(parsed.errors, context.locale, formData);
  let answer: Awaited<ReturnType<AppLoadContext['shopper']['basket']['setCount']>>;
  try {
    answer = await context.shopper.basket.setCount(
      parsed.data.product,
      parsed.data.count,
      parsed.data.variant,
    );
  } catch (error) {
    return actionError(error, context.locale, formData);
  }
  if (!isEnhanced(formData)) throw redirect(returnTo);
  return answer;
}

/** Removes a basket line: the product, and its `variant` for a product with options. */
export async function removeFromCartAction(context: AppLoadContext, formData: FormData, fallback: string) {
  const returnTo = backTo(formData, fallback);
  const parsed = parseForm(basketLineBody, formData);
  if (!parsed.ok) return invalidForm(parsed.errors, context.locale, formData);
  let answer: Awaited<ReturnType<AppLoadContext['shopper']['basket']['remove']>>;
  try {
    answer = await context.shopper.basket.remove(parsed.data.product, parsed.data.variant);
  } catch (error) {
    return actionError(error, context.locale, formData);
  }
  if (!isEnhanced(formData)) throw redirect(returnTo);
  return { removed: answer.product };
}

/** Adds to or removes from a signed-in user's wishlist; a guest is sent to the wishlist page. */
export async function wishlistAction(context: AppLoadContext, formData: FormData, fallback: string) {
  const returnTo = backTo(formData, fallback);
  if (!(await context.account.currentUser()) && !isEnhanced(formData)) throw redirect('/wishlist');
  const parsed = parseForm(productBody, formData);
  if (!parsed.ok) return invalidForm(parsed.errors, context.locale, formData);
  const adding = formData.get('intent') === INTENT.wishlistAdd;
  try {
    if (adding) await context.shopper.wishlist.add(parsed.data.product, context.locale);
    else await context.shopper.wishlist.remove(parsed.data.product);
  } catch (error) {
    return actionError(error, context.locale, formData);
  }
  if (!isEnhanced(formData)) throw redirect(returnTo);
  return { inWishlist: adding, product: parsed.data.product };
}
