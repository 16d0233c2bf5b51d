/**
 * Client for the Boxberry API (see shared/providers.md, "Boxberry"): `GET {url}?token=…&method=…`.
 * Boxberry answers refusals with HTTP 200 and `{"err":"…"}` (lists: `[{"err":"…"}]`), and money in
 * roubles, which we turn into kopecks here.
 *
 * - Pickup point (`boxberry`): `DeliveryCosts&target=<point>` prices the parcel to the point the
 *   shopper chose; before a point is chosen, `PointsByPostCode&zip=…` gives the one nearest the postcode.
 * - Courier (`boxberry.courier`): `ZipCheck&Zip=…` says whether couriers serve the postcode, then
 *   `DeliveryCosts&zip=…` prices door delivery.
 *
 * Refusals become a `BoxberryRefusal` with a reason the shop acts on; anything else (HTTP errors,
 * time-outs, unreadable answers, a refused token) becomes a `BoxberryDown`.
 */

import type { Kopecks } from '../../contract/money.ts';
import { minorToDecimal, roublesToKopecks } from '../../contract/money.ts';
import { findCity } from './city-names.ts';
import type { Box } from './parcel.ts';

export type FetchImpl = typeof fetch;

export const DEFAULT_TIMEOUT_MS = 5_000;

/** The token the local simulator accepts; test mode uses it unless another Boxberry URL is set. */
export const SANDBOX_BOXBERRY_TOKEN = 'sandbox-boxberry-token-0000000000';

export interface BoxberrySettings {
  /** The json.php endpoint, e.g. `https://api.boxberry.ru/json.php`. */
  url: string;
  token: string;
  /** Code of the Boxberry office the shop hands parcels over at. */
  targetStart: string;
}

export interface BoxberryParcel {
  kind: 'pickup' | 'courier';
  /** Six-digit Russian postcode of the recipient. */
  zip: string;
  weightGrams: number;
  /** The parcel's box: Boxberry's `height`/`width`/`depth` (cm), which price bulky parcels. */
  box?: Box;
  /** The goods' value: Boxberry's `ordersum` (insurance). */
  orderSumKopecks: Kopecks;
  /** The chosen pickup point (pickup only); without it, the point nearest `zip`. */
  pickupPointCode?: string;
}

export interface BoxberryQuote {
  /** Total price (`price`), kopecks. */
  cost: Kopecks;
  days: { min: number; max: number } | null;
  /** The pickup point the price is for (pickup only). */
  pickupPointCode?: string;
}

export interface BoxberryPoint {
  code: string;
  name: string;
  /** As Boxberry writes it: "620014, Екатеринбург г, Малышева ул, д.36". */
  address: string;
  phone: string;
  workSchedule: string;
  /** Delivery days from the shop's city, when given. */
  period: number | null;
  cityCode: string;
  cityName: string;
  gps: { lat: number; lon: number } | null;
}

export type BoxberryRefusalReason =
  /** Not six digits: refused before asking. */
  | 'zip-invalid'
  /** Boxberry does not know the postcode. */
  | 'zip-unknown'
  /** Couriers do not serve the postcode. */
  | 'no-courier'
  /** No pickup point near the postcode (or in the city asked for). */
  | 'no-pickup-point'
  /** Any other refusal of a price: weight, sum, … */
  | 'refused';

export class BoxberryRefusal extends Error {
  constructor(
    readonly reason: BoxberryRefusalReason,
    readonly providerMessage?: string,
  ) {
    super(`Boxberry refused (${reason})${providerMessage ? `: ${providerMessage}` : ''}`);
    this.name = 'BoxberryRefusal';
  }
}

/** Boxberry could not be asked, did not answer sensibly, or refused our token. */
export class BoxberryDown extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(`Boxberry: ${message}`, options);
    this.name = 'BoxberryDown';
  }
}

/** A refusal of the integration key is the shop's problem, never the shopper's postcode. UNCONFIRMED wording. */
const TOKEN_MESSAGE = /token|токен|ключ/i;

export const isRussianZip = (zip: string) => /^\d{6}$/.test(zip);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const asNumber = (value: unknown): number | null => {
  const number =
    typeof value === 'string' && value.trim() !== '' ? Number(value.trim().replace(',', '.')) : value;
  return typeof number === 'number' && Number.isFinite(number) ? number : null;
};

/** `{"err":"…"}`, `[{"err":"…"}]` → the message; anything else → null. Empty `err` is no error. */
export function boxberryError(body: unknown): string | null {
  const first = Array.isArray(body) ? body[0] : body;
  if (!isRecord(first) || first.err === undefined || first.err === null || first.err === '') return null;
  return typeof first.err === 'string' ? first.err : JSON.stringify(first.err);
}

/** A single-object answer that some methods wrap in a one-element list. */
const single = (body: unknown): Record<string, unknown> | null =>
  isRecord(body) ? body : Array.isArray(body) && isRecord(body[0]) ? body[0] : null;

type Call = (method: string, parameters: Record<string, string>) => Promise<unknown>;

function caller(settings: BoxberrySettings, fetchImpl: FetchImpl, timeoutMs: number): Call {
  return async (method, parameters) => {
    const url = new URL(settings.url);
    url.searchParams.set('token', settings.token);
    url.searchParams.set('method', method);
    for (const [name, value] of Object.entries(parameters)) url.searchParams.set(name, value);
    let response: Response;
    let text: string;
    try {
      response = await fetchImpl(url, {
        signal: AbortSignal.timeout(timeoutMs),
        headers: { accept: 'application/json' },
      });
      text = await response.text();
    } catch (error) {
      throw new BoxberryDown(`${method}: no answer (${(error as Error).message})`, { cause: error });
    }
    if (!response.ok) throw new BoxberryDown(`${method}: answered HTTP ${response.status}`);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new BoxberryDown(`${method}: the answer is not JSON`);
    }
    const error = boxberryError(body);
    if (error !== null && TOKEN_MESSAGE.test(error)) {
      throw new BoxberryDown(`${method}: the integration token was refused (${error})`);
    }
    return body;
  };
}

/** `ZipCheck`: `[{"ExpressDelivery":1,"ZoneExpressDelivery":2}]`; ExpressDelivery 0 = no couriers. */
export function parseZipCheck(body: unknown): { courier: boolean; zone: number | null } {
  const error = boxberryError(body);
  if (error !== null) throw new BoxberryRefusal('zip-unknown', error);
  const row = single(body);
  if (!row) throw new BoxberryDown('ZipCheck: unexpected answer');
  const express = row.ExpressDelivery;
  const courier = express === true || asNumber(express) === 1 || express === 'Yes';
  return { courier, zone: asNumber(row.ZoneExpressDelivery) };
}

/** `PointsByPostCode`: `{"Code":"…"}` of the pickup point nearest the postcode. */
export function parsePointsByPostCode(body: unknown): string {
  const error = boxberryError(body);
  if (error !== null) throw new BoxberryRefusal('no-pickup-point', error);
  const code = single(body)?.Code;
  if (typeof code === 'number') return String(code);
  if (typeof code !== 'string' || code.trim() === '') throw new BoxberryRefusal('no-pickup-point');
  return code.trim();
}

/** `DeliveryCosts`: `{"price":224,"price_base":147,"price_service":77,"delivery_period":1}` (roubles, days). */
export function parseDeliveryCosts(body: unknown): BoxberryQuote {
  const error = boxberryError(body);
  if (error !== null) throw new BoxberryRefusal('refused', error);
  const row = single(body);
  const price = asNumber(row?.price);
  if (!row || price === null || price <= 0) throw new BoxberryDown('DeliveryCosts: the answer has no price');
  const period = asNumber(row.delivery_period);
  const days = period !== null && period > 0 ? { min: Math.round(period), max: Math.round(period) } : null;
  return { cost: roublesToKopecks(price), days };
}

function toPoint(row: Record<string, unknown>): BoxberryPoint {
  const [lat, lon] = String(row.GPS ?? '')
    .split(',')
    .map((part) => asNumber(part));
  return {
    code: String(row.Code ?? ''),
    name: String(row.Name ?? ''),
    address: String(row.Address ?? ''),
    phone: String(row.Phone ?? ''),
    workSchedule: String(row.WorkShedule ?? row.WorkSchedule ?? ''),
    period: asNumber(row.DeliveryPeriod),
    cityCode: String(row.CityCode ?? ''),
    cityName: String(row.CityName ?? ''),
    gps: lat !== null && lat !== undefined && lon !== null && lon !== undefined ? { lat, lon } : null,
  };
}

/** `ListPoints`: a list of points; `[]` or an `err` means none in that city. */
export function parseListPoints(body: unknown): BoxberryPoint[] {
  const error = boxberryError(body);
  if (error !== null) throw new BoxberryRefusal('no-pickup-point', error);
  if (!Array.isArray(body)) throw new BoxberryDown('ListPoints: the answer is not a list');
  return body.filter(isRecord).map(toPoint);
}

/** The price and time of one parcel to the chosen pickup point (else the one nearest `zip`), or to the door at `zip`. */
export async function boxberryCost(
  settings: BoxberrySettings,
  parcel: BoxberryParcel,
  fetchImpl: FetchImpl = fetch,
  timeoutMs = DEFAULT_TIMEOUT_MS,
): Promise<BoxberryQuote> {
  if (!isRussianZip(parcel.zip)) throw new BoxberryRefusal('zip-invalid');
  const call = caller(settings, fetchImpl, timeoutMs);
  const costs = {
    weight: String(Math.max(1, Math.ceil(parcel.weightGrams))),
    targetstart: settings.targetStart,
    ordersum: minorToDecimal(Math.max(0, parcel.orderSumKopecks)),
    // Paid upfront: the recipient pays nothing on delivery.
    deliverysum: '0',
    paysum: '0',
    ...(parcel.box
      ? {
          height: String(parcel.box.height),
          width: String(parcel.box.width),
          depth: String(parcel.box.length),
        }
      : {}),
  };
  if (parcel.kind === 'courier') {
    const { courier } = parseZipCheck(await call('ZipCheck', { Zip: parcel.zip }));
    if (!courier) throw new BoxberryRefusal('no-courier');
    return parseDeliveryCosts(await call('DeliveryCosts', { ...costs, zip: parcel.zip }));
  }
  const pickupPointCode =
    parcel.pickupPointCode ?? parsePointsByPostCode(await call('PointsByPostCode', { zip: parcel.zip }));
  const quote = parseDeliveryCosts(await call('DeliveryCosts', { ...costs, target: pickupPointCode }));
  return { ...quote, pickupPointCode };
}

/**
 * Pickup points for the built-in picker: of a Boxberry city code, of a city by name in Russian or
 * English (`ListCities` first, see city-names.ts), or of the city of the point nearest a postcode (that point first).
 */
export async function boxberryPoints(
  settings: BoxberrySettings,
  where: { cityCode: string } | { cityName: string } | { zip: string },
  fetchImpl: FetchImpl = fetch,
  timeoutMs = DEFAULT_TIMEOUT_MS,
): Promise<BoxberryPoint[]> {
  const call = caller(settings, fetchImpl, timeoutMs);
  let cityCode: string;
  let nearest: string | undefined;
  if ('cityCode' in where) {
    cityCode = where.cityCode;
  } else if ('cityName' in where) {
    const cities = await call('ListCities', {});
    const error = boxberryError(cities);
    if (error !== null) throw new BoxberryRefusal('no-pickup-point', error);
    if (!Array.isArray(cities)) throw new BoxberryDown('ListCities: the answer is not a list');
    // Boxberry names cities in Russian only: an English or transliterated name is matched by us.
    const city = findCity(cities.filter(isRecord), (row) => String(row.Name ?? ''), where.cityName);
    if (!city) return [];
    cityCode = String(city.Code);
  } else {
    if (!isRussianZip(where.zip)) throw new BoxberryRefusal('zip-invalid');
    nearest = parsePointsByPostCode(await call('PointsByPostCode', { zip: where.zip }));
    const description = await call('PointsDescription', { code: nearest, photo: '0' });
    const error = boxberryError(description);
    if (error !== null) throw new BoxberryRefusal('no-pickup-point', error);
    const row = single(description);
    if (!row || row.CityCode === undefined) throw new BoxberryDown('PointsDescription: unexpected answer');
    cityCode = String(row.CityCode);
  }
  const points = parseListPoints(await call('ListPoints', { CityCode: cityCode, prepaid: '1' }));
  if (nearest === undefined) return points;
  return [
    ...points.filter((point) => point.code === nearest),
    ...points.filter((point) => point.code !== nearest),
  ];
}
