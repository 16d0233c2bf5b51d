/**
 * Client for the Russian Post tariff calculator (see shared/providers.md, "Russian Post tariff API"):
 * `GET {url}/v2/calculate/tariff/delivery?json&object=…`, no authentication, money in kopecks.
 *
 * Products we ask for:
 * - in Russia, object 27030 "Посылка стандарт" (standard parcel): the everyday parcel a shop sends,
 *   cheaper than 47030 first class, and the one whose deadline matches the spec's "Russian Post
 *   takes up to a month". Its price does not depend on `sumoc`; we still send the declared value so
 *   switching to 27020 (with declared value) is a one-constant change;
 * - abroad, object 4031 "ordinary international parcel", by air when possible (`isavia=1`).
 *
 * Failures are typed: the calculator's own refusals (`errors[]`) become a `RussianPostRefusal` that
 * says whether the postcode was the problem; everything else (HTTP errors, time-outs, answers that
 * are not the calculator's JSON) becomes a `RussianPostDown`.
 */

import type { Kopecks } from '../../contract/money.ts';
import { type Box, fitsIn, parseBox } from './parcel.ts';

export type FetchImpl = typeof fetch;

export const DEFAULT_TIMEOUT_MS = 5_000;

export const RUSSIAN_POST_DOMESTIC_OBJECT = 27030;
export const RUSSIAN_POST_INTERNATIONAL_OBJECT = 4031;
/** ISO 3166-1 numeric code of Russia: a parcel to it is a domestic one. */
export const RUSSIA_NUMERIC = 643;

export interface RussianPostSettings {
  /** Base URL, e.g. `https://tariff.pochta.ru`. */
  url: string;
  /** The shop's post office postcode (six digits). */
  fromZip: string;
  /** The calculator's `pack` codes with the box each stands for, smallest first (a setting). */
  packs?: RussianPostPack[];
}

/**
 * A `pack` code of the calculator and its box. The calculator documents `pack` (providers.md) but
 * the code of each box size could not be confirmed: the shop's list (10 S, 20 M, 30 L, 40 XL, the
 * sizes of Russian Post's own boxes) is the `RUSSIAN_POST_PACKS` setting. A parcel bigger than every
 * box is sent without `pack`.
 */
export interface RussianPostPack {
  code: number;
  box: Box;
}

/** `10:26x17x8,20:30x20x15` → packs, smallest first; null when any part does not read. */
export function parsePacks(text: string): RussianPostPack[] | null {
  const packs = text.split(',').map((part) => {
    const [code, size] = part.split(':');
    const box = parseBox(size ?? '');
    return code && /^\d{1,4}$/.test(code.trim()) && box ? { code: Number(code), box } : null;
  });
  if (packs.length === 0 || packs.some((pack) => pack === null)) return null;
  return (packs as RussianPostPack[]).sort(
    (a, b) => a.box.length * a.box.width * a.box.height - b.box.length * b.box.width * b.box.height,
  );
}

/** The smallest pack the parcel's box fits in. */
export const packFor = (box: Box, packs: readonly RussianPostPack[] = []) =>
  packs.find((pack) => fitsIn(box, pack.box))?.code;

export interface RussianPostParcel {
  /** ISO 3166-1 numeric code of the destination; Russia (643) or absent means domestic. */
  countryNumeric?: number;
  /** Destination postcode, required (six digits) for a domestic parcel; unused abroad. */
  toZip?: string;
  weightGrams: number;
  declaredValueKopecks: Kopecks;
  /** The parcel's box; sent as the `pack` it fits in. */
  box?: Box;
}

export interface DeliveryQuoteResult {
  /** Price including VAT. */
  cost: Kopecks;
  days: { min: number; max: number } | null;
}

export interface RussianPostError {
  msg: string;
  code: number | null;
}

/** Why a quote could not be given, in terms the shop acts on. */
export type RussianPostRefusalReason =
  /** The postcode is not six digits: refused before asking. */
  | 'zip-invalid'
  /** The calculator does not know the postcode (or it has no post office). */
  | 'zip-unknown'
  /** Any other refusal: weight over the limit, no service to that country, … */
  | 'refused';

export class RussianPostRefusal extends Error {
  constructor(
    readonly reason: RussianPostRefusalReason,
    readonly errors: RussianPostError[] = [],
  ) {
    super(
      errors.length > 0
        ? `Russian Post refused: ${errors.map((error) => `${error.msg} (${error.code ?? 'no code'})`).join('; ')}`
        : `Russian Post refused: ${reason}`,
    );
    this.name = 'RussianPostRefusal';
  }
}

/** The calculator could not be asked or did not answer sensibly; worth retrying later. */
export class RussianPostDown extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(`Russian Post: ${message}`, options);
    this.name = 'RussianPostDown';
  }
}

/**
 * Refusals that mean "the destination postcode". Seen in integrations: code 1321 "Индекс места
 * назначения N не существует." and code 1301 "Неверное значение параметра "Индекс места назначения"
 * (to) …". The meaning of the codes 1101 and 1200–1204 named in providers.md is UNCONFIRMED, so a
 * refusal counts as the postcode's fault by code 1321 or by a message naming the destination
 * postcode; any other refusal (including an unknown sender postcode, the shop's own setting) is
 * `refused`.
 */
const ZIP_ERROR_CODES = new Set([1321]);
const DESTINATION_ZIP_MESSAGE = /индекс места назначения|\(to\)/i;

export const isRussianZip = (zip: string) => /^\d{6}$/.test(zip);

/** The query string, with the bare `json` flag first as the calculator's examples write it. */
export function russianPostTariffUrl(settings: RussianPostSettings, parcel: RussianPostParcel): string {
  const weight = String(Math.max(1, Math.ceil(parcel.weightGrams)));
  const pack = parcel.box ? packFor(parcel.box, settings.packs) : undefined;
  const domestic = parcel.countryNumeric === undefined || parcel.countryNumeric === RUSSIA_NUMERIC;
  const parameters = domestic
    ? new URLSearchParams({
        object: String(RUSSIAN_POST_DOMESTIC_OBJECT),
        from: settings.fromZip,
        to: parcel.toZip ?? '',
        weight,
        sumoc: String(Math.max(0, Math.round(parcel.declaredValueKopecks))),
        ...(pack === undefined ? {} : { pack: String(pack) }),
        errorcode: '1',
      })
    : new URLSearchParams({
        object: String(RUSSIAN_POST_INTERNATIONAL_OBJECT),
        from: settings.fromZip,
        'country-to': String(parcel.countryNumeric),
        weight,
        isavia: '1',
        ...(pack === undefined ? {} : { pack: String(pack) }),
        errorcode: '1',
      });
  return `${settings.url.replace(/\/$/, '')}/v2/calculate/tariff/delivery?json&${parameters}`;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const asInteger = (value: unknown): number | null => {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof number === 'number' && Number.isFinite(number) ? Math.round(number) : null;
};

function parseErrors(list: unknown[]): RussianPostError[] {
  return list.map((entry) =>
    isRecord(entry)
      ? { msg: String(entry.msg ?? ''), code: asInteger(entry.code) }
      : { msg: String(entry), code: null },
  );
}

function refusalFor(errors: RussianPostError[]): RussianPostRefusal {
  const aboutZip = errors.some(
    (error) =>
      (error.code !== null && ZIP_ERROR_CODES.has(error.code)) || DESTINATION_ZIP_MESSAGE.test(error.msg),
  );
  return new RussianPostRefusal(aboutZip ? 'zip-unknown' : 'refused', errors);
}

/**
 * Reads a calculator answer: `paynds` (kopecks, VAT included) and `delivery.min/max` when present.
 * Throws `RussianPostRefusal` for an `errors` answer and `RussianPostDown` for anything unreadable.
 */
export function parseRussianPostTariff(body: unknown): DeliveryQuoteResult {
  if (!isRecord(body)) throw new RussianPostDown('the answer is not a JSON object');
  if (Array.isArray(body.errors) && body.errors.length > 0) throw refusalFor(parseErrors(body.errors));
  const cost = asInteger(body.paynds) ?? asInteger(body.pay);
  if (cost === null || cost <= 0) throw new RussianPostDown('the answer has no price (paynds)');
  let days: DeliveryQuoteResult['days'] = null;
  if (isRecord(body.delivery)) {
    const min = asInteger(body.delivery.min);
    const max = asInteger(body.delivery.max);
    if (min !== null && max !== null && min >= 0 && max >= min) days = { min, max };
    else if (max !== null && max >= 0) days = { min: max, max };
  }
  return { cost, days };
}

/** Asks the calculator for the price and delivery time of one parcel. */
export async function russianPostTariff(
  settings: RussianPostSettings,
  parcel: RussianPostParcel,
  fetchImpl: FetchImpl = fetch,
  timeoutMs = DEFAULT_TIMEOUT_MS,
): Promise<DeliveryQuoteResult> {
  const domestic = parcel.countryNumeric === undefined || parcel.countryNumeric === RUSSIA_NUMERIC;
  if (domestic && !isRussianZip(parcel.toZip ?? '')) throw new RussianPostRefusal('zip-invalid');
  const url = russianPostTariffUrl(settings, parcel);

  let response: Response;
  try {
    response = await fetchImpl(url, {
      signal: AbortSignal.timeout(timeoutMs),
      headers: { accept: 'application/json' },
    });
  } catch (error) {
    throw new RussianPostDown(`no answer (${(error as Error).message})`, { cause: error });
  }
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    throw new RussianPostDown(`the answer broke off (${(error as Error).message})`, {
      cause: error,
    });
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new RussianPostDown(`answered HTTP ${response.status} with something other than JSON`);
  }
  // A refusal may come with HTTP 200 or a 4xx status; either way its `errors` list says why.
  if (!response.ok && !(response.status < 500 && isRecord(body) && Array.isArray(body.errors))) {
    throw new RussianPostDown(`answered HTTP ${response.status}`);
  }
  return parseRussianPostTariff(body);
}
