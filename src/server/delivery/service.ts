import countries from 'i18n-iso-countries';
import { LRUCache } from 'lru-cache';
import { type DeliveryMethod, isDeliveryAvailable, isDeliveryMethod } from '../../contract/delivery.ts';
import type { Kopecks } from '../../contract/money.ts';
import { kopecksToRoubles } from '../../contract/money.ts';
import { Invalid, Unavailable } from '../errors.ts';
import {
  BoxberryRefusal,
  type BoxberryRefusalReason,
  type BoxberrySettings,
  boxberryCost,
} from '../providers/boxberry.ts';
import type { Box } from '../providers/parcel.ts';
import {
  RUSSIA_NUMERIC,
  RussianPostRefusal,
  type RussianPostRefusalReason,
  type RussianPostSettings,
  russianPostTariff,
} from '../providers/russian-post.ts';

/**
 * Delivery cost of a parcel by one of the spec's three methods: Russian Post anywhere, Boxberry
 * (pickup point or courier) in Russia. Refusals are `Invalid` with the field to blame; a carrier
 * that cannot be reached is `Unavailable` (`delivery-provider-down`), the original error as `cause`.
 */

export interface DeliverySettings {
  russianPost: RussianPostSettings;
  boxberry: BoxberrySettings;
}

export interface DeliveryQuoteInput {
  method: DeliveryMethod | string;
  /** ISO 3166-1 alpha-2, any case. */
  country: string;
  zip: string;
  /** The parcel: Σ product weight × count (`getBasketWeight`). 0 means an empty basket. */
  weightGrams: number;
  /** Value of the goods, for Boxberry's insurance and Russian Post's declared value. */
  orderSumKopecks: Kopecks;
  /** The parcel's box (cm), when known: bulky parcels cost more (ADR 0057). */
  box?: Box;
  /** The Boxberry pickup point chosen (method `boxberry`): priced to it rather than the nearest one. */
  pickupPointCode?: string | undefined;
}

export interface DeliveryQuote {
  method: DeliveryMethod;
  cost: Kopecks;
  days: { min: number; max: number } | null;
}

type FetchImpl = typeof fetch;

/** Carriers bill at least this much; a basket of light items (or of items without a weight) weighs it. */
export const MINIMUM_BILLABLE_GRAMS = 100;
/** Weights are rounded up to this step, so nearby baskets share a cached quote. */
export const WEIGHT_STEP_GRAMS = 100;
export const QUOTE_TTL_MS = 10 * 60_000;

/** The weight we quote for: at least 100 g, rounded up to the next 100 g. */
export const billableWeight = (grams: number) =>
  Math.ceil(Math.max(grams, MINIMUM_BILLABLE_GRAMS) / WEIGHT_STEP_GRAMS) * WEIGHT_STEP_GRAMS;

interface Parcel {
  method: DeliveryMethod;
  country: string;
  zip: string;
  weightGrams: number;
  orderSumKopecks: Kopecks;
  box?: Box;
  pickupPointCode?: string;
}

/** Checks the input and brings it to the form we quote and cache by. */
function parcelOf(input: DeliveryQuoteInput): Parcel {
  if (!isDeliveryMethod(input.method)) {
    throw new Invalid('delivery-method-unknown', { method: ['delivery-method-unknown'] });
  }
  const country = input.country.trim().toUpperCase();
  if (!/^[A-Z]{2}$/.test(country) || !countries.isValid(country)) {
    throw new Invalid('country-invalid', { country: ['country-invalid'] });
  }
  if (!Number.isFinite(input.weightGrams) || input.weightGrams <= 0) {
    throw new Invalid('basket-empty', { basket: ['basket-empty'] });
  }
  if (!isDeliveryAvailable(input.method, country)) {
    throw new Invalid('delivery-not-available', { method: ['delivery-not-available'] });
  }
  // Russian postcodes are six digits; people type them with spaces now and then.
  const zip = country === 'RU' ? input.zip.replace(/\s+/g, '') : input.zip.trim();
  if (zip === '') throw new Invalid('zip-required', { zip: ['zip-required'] });
  return {
    method: input.method,
    country,
    zip,
    weightGrams: billableWeight(input.weightGrams),
    orderSumKopecks: Math.max(0, Math.round(input.orderSumKopecks)),
    ...(input.box ? { box: input.box } : {}),
    // Only a pickup parcel goes to a point; other methods ignore one sent along.
    ...(input.method === 'boxberry' && input.pickupPointCode
      ? { pickupPointCode: input.pickupPointCode }
      : {}),
  };
}

const refusal = (key: string, field: 'zip' | 'method') => new Invalid(key, { [field]: [key] });

const REFUSALS: Record<RussianPostRefusalReason | BoxberryRefusalReason, () => Invalid> = {
  'zip-invalid': () => refusal('zip-invalid', 'zip'),
  'zip-unknown': () => refusal('zip-unknown', 'zip'),
  'no-courier': () => refusal('delivery-not-available', 'zip'),
  'no-pickup-point': () => refusal('delivery-not-available', 'zip'),
  refused: () => refusal('delivery-not-available', 'method'),
};

function providerDown(cause: unknown): Unavailable {
  const error = new Unavailable('delivery-provider-down', { delivery: ['delivery-provider-down'] });
  Object.defineProperty(error, 'cause', { value: cause, enumerable: false });
  return error;
}

async function quoteParcel(settings: DeliverySettings, parcel: Parcel, fetchImpl: FetchImpl) {
  try {
    if (parcel.method === 'russian_post') {
      const domestic = parcel.country === 'RU';
      const numeric = domestic ? RUSSIA_NUMERIC : Number(countries.alpha2ToNumeric(parcel.country));
      if (!Number.isInteger(numeric)) throw new Invalid('country-invalid', { country: ['country-invalid'] });
      const result = await russianPostTariff(
        settings.russianPost,
        {
          countryNumeric: numeric,
          toZip: domestic ? parcel.zip : undefined,
          weightGrams: parcel.weightGrams,
          declaredValueKopecks: parcel.orderSumKopecks,
          ...(parcel.box ? { box: parcel.box } : {}),
        },
        fetchImpl,
      );
      return { method: parcel.method, cost: result.cost, days: result.days };
    }
    const result = await boxberryCost(
      settings.boxberry,
      {
        kind: parcel.method === 'boxberry.courier' ? 'courier' : 'pickup',
        zip: parcel.zip,
        weightGrams: parcel.weightGrams,
        orderSumKopecks: parcel.orderSumKopecks,
        ...(parcel.box ? { box: parcel.box } : {}),
        ...(parcel.pickupPointCode ? { pickupPointCode: parcel.pickupPointCode } : {}),
      },
      fetchImpl,
    );
    return { method: parcel.method, cost: result.cost, days: result.days };
  } catch (error) {
    if (error instanceof Invalid) throw error;
    if (error instanceof RussianPostRefusal || error instanceof BoxberryRefusal)
      throw REFUSALS[error.reason]();
    throw providerDown(error);
  }
}

/** One quote straight from the carrier (no cache). */
export async function quoteDelivery(
  settings: DeliverySettings,
  input: DeliveryQuoteInput,
  fetchImpl: FetchImpl = fetch,
): Promise<DeliveryQuote> {
  return quoteParcel(settings, parcelOf(input), fetchImpl);
}

/**
 * Quotes through an in-memory cache: the same method, country, postcode, pickup point, 100 g weight
 * step and box (and, for Boxberry, whose price includes insurance, the same order sum) are answered from memory for
 * 10 minutes; concurrent identical requests share one call to the carrier. Refusals and failures
 * are not kept.
 */
export function createDeliveryQuotes(
  settings: DeliverySettings,
  options: { fetchImpl?: FetchImpl; ttlMs?: number; now?: () => number; maxEntries?: number } = {},
) {
  const fetchImpl = options.fetchImpl ?? ((...args: Parameters<FetchImpl>) => fetch(...args));
  const cache = new LRUCache<string, DeliveryQuote>({
    max: options.maxEntries ?? 10_000,
    ttl: options.ttlMs ?? QUOTE_TTL_MS,
    // An injected clock is read on every lookup (no 1 ms resolution cache), so tests need no sleeping.
    ...(options.now ? { perf: { now: options.now }, ttlResolution: 0 } : {}),
  });
  const loading = new Map<string, Promise<DeliveryQuote>>();

  return {
    async quote(input: DeliveryQuoteInput): Promise<DeliveryQuote> {
      const parcel = parcelOf(input);
      const key = [
        parcel.method,
        parcel.country,
        parcel.zip,
        parcel.weightGrams,
        parcel.method === 'russian_post' ? '' : Math.round(kopecksToRoubles(parcel.orderSumKopecks)),
        parcel.box ? `${parcel.box.length}x${parcel.box.width}x${parcel.box.height}` : '',
        parcel.pickupPointCode ?? '',
      ].join('|');
      const hit = cache.get(key);
      if (hit) return { ...hit };
      let pending = loading.get(key);
      if (!pending) {
        pending = quoteParcel(settings, parcel, fetchImpl)
          .then((quote) => {
            cache.set(key, quote);
            return quote;
          })
          .finally(() => loading.delete(key));
        loading.set(key, pending);
      }
      return { ...(await pending) };
    },
    /** Forget every quote (tariffs changed, tests). */
    clear() {
      cache.clear();
    },
  };
}

export type DeliveryQuotes = ReturnType<typeof createDeliveryQuotes>;
