import type { FastifyRequest } from 'fastify';
import { cityWithoutKind, type DeliveryMethod, type DeliveryQuery } from '../../contract/delivery.ts';
import type { Locale } from '../../contract/locale.ts';
import { type Currency, kopecksToRoubles } from '../../contract/money.ts';
import {
  type OrderInput,
  orderBody,
  PAYMENT_METHODS,
  type PaymentMethod,
  type Recipient,
  recipientSchema,
} from '../../contract/orders.ts';
import { cancelledByShopper } from '../checkout/cancel.ts';
import {
  type CheckoutDraft,
  checkoutDraft,
  notRepeatedStore,
  orderErrorStore,
  placedOrderStore,
} from '../checkout/draft.ts';
import {
  cancelPageState,
  currentOrder,
  type PageStatus,
  paymentFormOf,
  paymentStatus,
  type UnpaidOrder,
  unpaidOrder,
} from '../checkout/payments.ts';
import { startPaypalCheckout } from '../checkout/paypal.ts';
import { rememberedRecipient } from '../checkout/recipient.ts';
import type { Config } from '../config.ts';
import { Unavailable } from '../errors.ts';
import { deliveryCostRequired, requireOfferedPayment, requirePickupPoint } from '../orders/checkout-rules.ts';
import { chargeCurrency, findUnpaidOrder, getOrder, listOrders, repeatOrder } from '../orders/service.ts';
import {
  type BoxberryPoint,
  BoxberryRefusal,
  type BoxberrySettings,
  boxberryPoints,
  isRussianZip,
} from '../providers/boxberry.ts';
import { quoteForRequest } from './delivery-quote.ts';
import { freshDraft, quoteFingerprint } from './fresh-quote.ts';
import type { Services } from './services.ts';
import { accountActions } from './session-actions.ts';
import { shopperActions } from './shopper-actions.ts';

/**
 * The checkout and order history bound to one request, for the React Router loaders and actions
 * (`context.checkout`) and the `/api/order` route alike: the shipping step's draft, placing the
 * order, the result and cancel pages' checks, the built-in pickup-point picker and the history.
 */

export type PaymentProvider = 'robokassa' | 'paypal';

/** A Boxberry pickup point as the built-in picker lists it. */
export type PickupPoint = Pick<
  BoxberryPoint,
  'code' | 'name' | 'address' | 'phone' | 'workSchedule' | 'period'
>;

/** The built-in picker lists at most this many points of a city. */
export const PICKUP_POINTS_LIMIT = 100;

/** The order and provider form a checkout key already placed, while the order awaits payment. */
async function placedWithKey(services: Services, userId: number, checkoutKey: string | undefined) {
  const order = checkoutKey ? await findUnpaidOrder(services.db, userId, checkoutKey) : undefined;
  return order
    ? { order: currentOrder(order), payment: await paymentFormOf(services.db, services.config, order) }
    : undefined;
}

/**
 * Places an order from the signed-in user's basket: the delivery cost is quoted again on the
 * server (never taken from the browser), then the order is created with its stock taken, and the
 * provider form to post is returned. The same checkout key again (a double click, a retry) answers
 * the order it placed.
 */
export async function placeOrder(
  services: Services,
  request: FastifyRequest,
  userId: number,
  body: OrderInput,
) {
  const repeated = await placedWithKey(services, userId, body.checkoutKey);
  if (repeated) return repeated;
  requireOfferedPayment(body.paymentMethod, services.config.offered);
  let quote: Awaited<ReturnType<typeof quoteForRequest>>;
  try {
    quote = await quoteForRequest(services, request, {
      method: body.deliveryMethod,
      country: body.country,
      zip: body.zip,
      pickupPointCode: body.pickupPointCode,
      locale: body.locale,
    });
  } catch (error) {
    // A submit of the same checkout may have placed the order, emptying the basket, meanwhile.
    const placed = await placedWithKey(services, userId, body.checkoutKey);
    if (placed) return placed;
    throw error;
  }
  const order = await services.writes.createOrder(userId, body, {
    offered: services.config.offered,
    deliveryCost: quote.cost,
    usdRate: services.usdRate(),
    expiresMinutes: services.config.orderExpiryMinutes,
    shop: services.mailShop,
  });
  return {
    order: currentOrder(order),
    payment: await paymentFormOf(services.db, services.config, order, order.lines),
  };
}

/**
 * Pickup points of a city (by its Russian or English name), or of the city of the point nearest a Russian postcode when the
 * name finds none. A refusal (unknown city or postcode) is an empty list; a carrier that cannot be
 * asked is `delivery-provider-down`.
 */
export async function pickupPoints(
  settings: BoxberrySettings,
  where: { city?: string; zip?: string },
  fetchImpl: typeof fetch = fetch,
): Promise<PickupPoint[]> {
  const city = cityWithoutKind(where.city ?? '');
  const zip = (where.zip ?? '').replace(/\s+/g, '');
  try {
    let points = city === '' ? [] : await boxberryPoints(settings, { cityName: city }, fetchImpl);
    if (points.length === 0 && isRussianZip(zip)) points = await boxberryPoints(settings, { zip }, fetchImpl);
    return points.slice(0, PICKUP_POINTS_LIMIT).map((point) => ({
      code: point.code,
      name: point.name,
      address: point.address,
      phone: point.phone,
      workSchedule: point.workSchedule,
      period: point.period,
    }));
  } catch (error) {
    if (error instanceof BoxberryRefusal) return [];
    const down = new Unavailable('delivery-provider-down', { delivery: ['delivery-provider-down'] });
    Object.defineProperty(down, 'cause', { value: error, enumerable: false });
    throw down;
  }
}

/**
 * The public key the real Boxberry widget is opened with: `BOXBERRY_WIDGET_KEY`, never the API token
 * (which can create and cancel parcels). Test mode, or no widget key, uses the built-in picker.
 */
export function boxberryWidgetKey(config: Pick<Config, 'testMode' | 'delivery'>): string | null {
  const key = config.delivery.boxberryWidgetKey;
  return config.testMode || key === undefined ? null : key;
}

export function checkoutActions(services: Services, request: FastifyRequest) {
  const { db, config } = services;
  const account = accountActions(services, request);
  const draft = checkoutDraft(request);
  const errors = orderErrorStore(request);
  const placedOrder = placedOrderStore(request);
  const userId = async () => (await account.requireUser()).id;

  return {
    /** The payment and delivery methods the shop offers, in the order the steps list them. */
    offered: config.offered,
    /** The shipping step's choice, kept for the payment step. */
    draft,
    /** The error of a refused order, shown once by the error page. */
    errors,
    /** The recipient and method the delivery step starts with, without a draft: profile, then last order. */
    async rememberedRecipient() {
      const user = await account.requireUser();
      return rememberedRecipient(db, user.id, user);
    },
    /** The draft with its delivery quoted again if the basket or address changed since (ADR 0059). */
    freshDraft: (locale: Locale) => freshDraft(services, request, draft, locale),

    /** The delivery cost of this visitor's basket (roubles), as `GET /api/delivery` answers it. */
    async quote(
      query: Pick<DeliveryQuery, 'method' | 'country' | 'zip' | 'pickupPointCode'>,
      locale: Locale,
    ) {
      const quote = await quoteForRequest(services, request, { ...query, locale });
      return { method: quote.method, cost: kopecksToRoubles(quote.cost), days: quote.days };
    },

    /** Quotes the delivery for the recipient's address and keeps the choice for the payment step. */
    async saveShipping(
      deliveryMethod: DeliveryMethod,
      recipient: Recipient,
      locale: Locale,
    ): Promise<CheckoutDraft> {
      const checked = recipientSchema.parse(recipient);
      requirePickupPoint(deliveryMethod, checked);
      const quote = await quoteForRequest(services, request, {
        method: deliveryMethod,
        country: checked.country,
        zip: checked.zip,
        pickupPointCode: checked.pickupPointCode,
        locale,
      });
      const basket = await shopperActions(services, request).basket.get(locale);
      const saved: CheckoutDraft = {
        deliveryMethod,
        recipient: checked,
        cost: quote.cost,
        days: quote.days,
        quotedFor: quoteFingerprint(basket, deliveryMethod, checked),
      };
      await draft.set(saved);
      return saved;
    },

    /**
     * Places the order from the basket and the shipping step's draft, forgets the draft and
     * remembers the order for `paymentPage`. The form's checkout key makes a repeated submit answer
     * the order it placed, even once the draft is gone. Without a draft, or when the cost quoted
     * again is not above 0, the shopper must go back to the shipping step (delivery-cost-required).
     */
    async placeOrder(input: {
      paymentMethod: PaymentMethod;
      comment?: string | undefined;
      locale: Locale;
      checkoutKey?: string | undefined;
      shownTotal?: number | undefined;
    }) {
      const user = await userId();
      const saved = draft.get();
      // Without the draft, this can only be the same form again after its order was placed.
      const placed = saved
        ? await placeOrder(
            services,
            request,
            user,
            orderBody.parse({
              ...saved.recipient,
              deliveryMethod: saved.deliveryMethod,
              paymentMethod: input.paymentMethod,
              comment: input.comment,
              locale: input.locale,
              checkoutKey: input.checkoutKey,
              shownTotal: input.shownTotal,
            }),
          )
        : await placedWithKey(services, user, input.checkoutKey);
      if (!placed) throw deliveryCostRequired();
      request.session.checkoutDraft = undefined;
      await placedOrder.set(placed.order.id);
      return placed;
    },

    /**
     * The payment page of one of the user's orders: null once it no longer awaits payment.
     * `justPlaced` is true on the first showing after this session placed it (then the page posts
     * the provider form by itself), false on any later visit such as the way back from the provider.
     */
    async paymentPage(
      orderId: number,
      locale: Locale,
    ): Promise<(UnpaidOrder & { justPlaced: boolean }) | null> {
      const unpaid = await unpaidOrder(db, config, await userId(), orderId, locale);
      return unpaid && { ...unpaid, justPlaced: await placedOrder.take(orderId) };
    },

    /** The currency each payment method charges in (`chargeCurrency`). */
    chargeCurrencies: () =>
      Object.fromEntries(PAYMENT_METHODS.map((method) => [method, chargeCurrency(method)])) as Record<
        PaymentMethod,
        Currency
      >,

    /** "Pay now" with PayPal: PayPal's order created for the user's unpaid order; where to approve it. */
    startPaypal: async (orderId: number) => startPaypalCheckout(db, config, await userId(), orderId),

    /** The result page's check of the provider's return parameters (PayPal's order captured then). */
    paymentStatus: (provider: PaymentProvider, params: Record<string, string>) =>
      paymentStatus(db, config, provider, params, request.session.userId, services.mailShop),

    /**
     * What the cancel page shows on arrival (a GET, which never cancels): the unpaid order with
     * its confirmation button (status 0), and for Robokassa whether it declined the payment;
     * success when the shopper already cancelled it; otherwise failure.
     */
    cancelPage: async (provider: PaymentProvider, params: Record<string, string>, locale: Locale) =>
      cancelPageState(db, config, provider, params, await userId(), locale),

    /**
     * The cancel page's confirmation: cancels the signed-in user's unpaid order and puts its items
     * back in the cart. Confirming again after a successful cancel answers success again.
     */
    async cancelPayment(
      provider: PaymentProvider,
      params: Record<string, string>,
    ): Promise<{ status: PageStatus; order: number | null }> {
      const user = await userId();
      const result = await services.writes.cancelPayment(provider, params, user, services.mailShop);
      if (result.status === -1 && result.order !== null && (await cancelledByShopper(db, result.order, user)))
        return { status: 1, order: result.order };
      return result;
    },

    /** Pickup points for the built-in picker (test mode, or no real Boxberry token). */
    pickupPoints: (where: { city?: string; zip?: string }) => pickupPoints(config.delivery.boxberry, where),

    /** Settings of the real Boxberry widget, or null when the built-in picker is used. */
    boxberryWidget() {
      const token = boxberryWidgetKey(config);
      return token === null ? null : { token, targetStart: config.delivery.boxberry.targetStart };
    },

    orders: {
      list: async () => listOrders(db, await userId()),
      /** One of the user's orders; anyone else's is NotFound. */
      get: async (orderId: number, locale: Locale) => getOrder(db, await userId(), orderId, locale),
      /**
       * Puts the order's items back in the cart, within stock; what it could not add in full is
       * kept for the cart page (`takeNotRepeated`) and answered.
       */
      async repeat(orderId: number, locale: Locale) {
        const repeated = await repeatOrder(db, await userId(), orderId, locale);
        await notRepeatedStore(request).set(repeated.notAdded);
        return repeated;
      },
      /** What the last repeated order did not add in full; answers it once. */
      takeNotRepeated: () => notRepeatedStore(request).take(),
    },
  };
}

export type CheckoutActions = ReturnType<typeof checkoutActions>;
