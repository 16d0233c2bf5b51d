import type { FastifyRequest } from 'fastify';
import type { Locale } from '../../contract/locale.ts';
import type { Basket } from '../../contract/shopping.ts';
import {
  addToBasket,
  type BasketOwner,
  enterBasketPromo,
  getBasket,
  getBasketParcel,
  getBasketWeight,
  headerCounts,
  removeBasketPromo,
  removeFromBasket,
  setBasketCount,
} from '../cart/service.ts';
import {
  askForReleaseReminder,
  forgetReleaseReminder,
  hasReleaseReminder,
} from '../catalog/release-reminders.ts';
import { askForStockAlert } from '../catalog/stock-alerts.ts';
import { NotFound, Unauthorized } from '../errors.ts';
import { addReview, listReviews } from '../reviews/service.ts';
import { hashSecret } from '../security/tokens.ts';
import { addToWishlist, getWishlist, isInWishlist, removeFromWishlist } from '../wishlist/service.ts';
import type { Services } from './services.ts';

declare module 'fastify' {
  interface Session {
    /** Set when a guest starts a basket, so the session is kept. */
    guest?: boolean;
  }
}

/** The key a guest's basket is stored under: a hash of the session id, like the sessions table's. */
export const guestBasketKey = (request: FastifyRequest) => hashSecret(request.session.sessionId);

/**
 * Basket, wishlist and reviews bound to one request's session; used by the `/api` routes and the
 * React Router loaders and actions alike.
 */
const signInRequired = () => new Unauthorized('sign-in-required', { product: ['sign-in-required'] });
const wishlistUnavailable = () =>
  new Unauthorized('wishlist-unavailable', { product: ['wishlist-unavailable'] });
/** A review's refusal names no field: the whole form needs an account. */
const reviewSignInRequired = () => new Unauthorized('sign-in-required');

export function shopperActions(services: Services, request: FastifyRequest) {
  const { db } = services;

  /** The basket's owner; a guest's session is persisted the first time the guest writes. */
  async function owner(forWriting: boolean): Promise<BasketOwner | null> {
    const userId = request.session.userId;
    if (userId !== undefined) return { userId };
    if (!request.session.guest) {
      if (!forWriting) return null;
      request.session.guest = true;
      await request.session.save();
    }
    return { sessionKey: guestBasketKey(request) };
  }

  /** The signed-in shopper's id; a guest is refused (401) with `refusal`, sign-in-required by default. */
  function signedInUser(refusal = signInRequired): number {
    const userId = request.session.userId;
    if (userId === undefined) throw refusal();
    return userId;
  }

  const emptyBasket: Basket = { productList: [], products: {}, unavailable: [], total: 0, count: 0 };

  return {
    basket: {
      async get(locale: Locale) {
        const basketOwner = await owner(false);
        return basketOwner ? getBasket(db, basketOwner, locale) : emptyBasket;
      },
      /** Adds one unit of the product's variant (its only one when none is named). */
      async add(productId: number, variant?: number) {
        await addToBasket(db, (await owner(true)) as BasketOwner, productId, variant);
      },
      async setCount(productId: number, count: number, variant?: number) {
        const basketOwner = await owner(false);
        if (!basketOwner) throw new NotFound('product-unavailable', { product: ['product-unavailable'] });
        return {
          product: productId,
          ...(variant === undefined ? {} : { variant }),
          ...(await setBasketCount(db, basketOwner, productId, count, variant)),
        };
      },
      async remove(productId: number, variant?: number) {
        const basketOwner = await owner(false);
        if (basketOwner) await removeFromBasket(db, basketOwner, productId, variant);
        return { product: productId, ...(variant === undefined ? {} : { variant }) };
      },
      /** Enters a promo code (refused with its reason when it does not apply to the basket now). */
      async enterPromo(code: string) {
        await enterBasketPromo(db, (await owner(true)) as BasketOwner, code);
      },
      async removePromo() {
        const basketOwner = await owner(false);
        if (basketOwner) await removeBasketPromo(db, basketOwner);
      },
      /** Grams of the parcel, for delivery cost. */
      async weight() {
        const basketOwner = await owner(false);
        return basketOwner ? getBasketWeight(db, basketOwner) : 0;
      },
      /** The parcel (units, goods total, grams, box) a delivery quote is asked for (ADR 0057). */
      async parcel() {
        const basketOwner = await owner(false);
        const defaultBox = services.config.delivery.parcel.defaultBox;
        return basketOwner
          ? getBasketParcel(db, basketOwner, defaultBox)
          : { count: 0, totalKopecks: 0, grams: 0, box: defaultBox };
      },
    },
    wishlist: {
      async get(locale: Locale) {
        return getWishlist(db, signedInUser(wishlistUnavailable), locale);
      },
      /** Whether the signed-in shopper's wishlist holds this product (false for a guest). */
      has: (productId: number) =>
        request.session.userId === undefined ? false : isInWishlist(db, request.session.userId, productId),
      /** Adds the product and answers the whole wishlist. */
      async add(productId: number, locale: Locale) {
        await addToWishlist(db, signedInUser(wishlistUnavailable), productId);
        return getWishlist(db, signedInUser(wishlistUnavailable), locale);
      },
      async remove(productId: number) {
        await removeFromWishlist(db, signedInUser(wishlistUnavailable), productId);
        return { product: productId };
      },
    },
    /** "Notify me when back" for a sold-out variant (signed-in shoppers). */
    stockAlert: {
      async ask(productId: number, variantId: number | undefined, locale: Locale) {
        return askForStockAlert(db, signedInUser(), { productId, variantId, locale });
      },
    },
    /** "Remind me" of an announced product (signed-in shoppers). */
    releaseReminder: {
      async ask(productId: number, locale: Locale) {
        await askForReleaseReminder(db, signedInUser(), { productId, locale }, new Date());
      },
      async forget(productId: number) {
        await forgetReleaseReminder(db, signedInUser(), productId);
      },
      /** Whether the visitor waits for a reminder of the product; never for a guest. */
      async waiting(productId: number) {
        const userId = request.session.userId;
        return userId !== undefined && hasReleaseReminder(db, userId, productId);
      },
    },
    reviews: {
      list: (productId: number, page: number) => listReviews(db, productId, page),
      async add(input: { product: number; rating: number; body: string }) {
        await addReview(db, signedInUser(reviewSignInRequired), input);
        await services.catalog.productsChanged([input.product]);
      },
    },
    /** The header's badges: units in the basket and products in the wishlist (one query). */
    async counts() {
      const basketOwner = await owner(false);
      return basketOwner ? headerCounts(db, basketOwner) : { basket: 0, wishlist: 0 };
    },
  };
}

export type ShopperActions = ReturnType<typeof shopperActions>;
