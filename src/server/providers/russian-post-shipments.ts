/**
 * Client for Russian Post's "Отправка" API (otpravka.pochta.ru/specification; shared/providers.md,
 * "Shipments, labels, customs and tracking"): JSON over HTTPS with the headers
 * `Authorization: AccessToken <token>` and `X-User-Authorization: Basic base64(login:password)`.
 *
 * A shipment is three calls (ADR 0057):
 * 1. `PUT /1.0/user/backlog` with one order (recipient, weight, declared value and, abroad, the
 *    `customs-declaration`) → `{"result-ids":[id]}` or `{"errors":[{"error-codes":[…]}]}`;
 * 2. `POST /1.0/user/shipment` with `[id]` gathers it into a batch → `{"batches":[{"batch-name"}]}`;
 * 3. `GET /1.0/shipment/{id}` → the order in its batch, with its `barcode` (the track code).
 * Forms are PDFs: the label `GET /1.0/forms/{id}/f7pdf`, and every form of the order (CN23 included
 * for a parcel abroad: UNCONFIRMED, hence the `RUSSIAN_POST_CN23_PATH` setting) `GET /1.0/forms/{id}/forms`.
 *
 * Refusals (`errors` in a 2xx or 4xx answer) become `OtpravkaRefusal` with Russian Post's own text;
 * anything else (no answer, 5xx, refused credentials, unreadable answers) is `OtpravkaDown`.
 */

export type FetchImpl = typeof fetch;

export const OTPRAVKA_URL = 'https://otpravka-api.pochta.ru';

/** The account the local simulator accepts; test mode uses it unless another URL is set. */
export const SANDBOX_OTPRAVKA = {
  accessToken: 'sandbox-otpravka-token',
  login: 'sandbox@vitrina.example',
  password: 'sandbox-otpravka-password',
} as const;

export const DEFAULT_TIMEOUT_MS = 10_000;

export interface OtpravkaSettings {
  /** `https://otpravka-api.pochta.ru`. */
  url: string;
  accessToken: string;
  login: string;
  password: string;
  /** The post office parcels are handed in at (`postoffice-code`). */
  fromZip: string;
  /** `mail-type` and `mail-category` of the shop's contract, e.g. POSTAL_PARCEL and ORDINARY. */
  mailType: string;
  mailCategory: string;
  /** The forms path whose PDF carries the CN23 of a parcel abroad; `{id}` is the order's id. */
  cn23Path: string;
}

export interface CustomsEntry {
  description: string;
  amount: number;
  /** Kopecks per unit. */
  value: number;
  /** Grams per unit. */
  weight: number;
  tnvedCode: string;
  /** ISO 3166-1 numeric code of the origin. */
  countryCode: number;
}

export interface OtpravkaOrder {
  /** Our own id of the parcel (`order-num`); the same one on a retry. */
  orderNum: string;
  recipient: { surname: string; givenName: string; phone: string };
  address: {
    /** ISO 3166-1 numeric code of the destination (`mail-direct`), 643 for Russia. */
    countryNumeric: number;
    zip: string;
    region: string;
    place: string;
    street: string;
  };
  /** Grams. */
  mass: number;
  /** Kopecks. */
  declaredValue: number;
  dimension?: { length: number; width: number; height: number };
  /** Abroad: the CN23 entries. */
  customs?: CustomsEntry[];
}

export class OtpravkaRefusal extends Error {
  constructor(readonly providerMessage: string) {
    super(`Russian Post refused: ${providerMessage}`);
    this.name = 'OtpravkaRefusal';
  }
}

export class OtpravkaDown extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(`Russian Post "Отправка": ${message}`, options);
    this.name = 'OtpravkaDown';
  }
}

const RUSSIA_NUMERIC = 643;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The order as `PUT /1.0/user/backlog` takes it (field names of the specification's example). */
export function backlogOrder(settings: OtpravkaSettings, order: OtpravkaOrder): Record<string, unknown> {
  const domestic = order.address.countryNumeric === RUSSIA_NUMERIC;
  return {
    'order-num': order.orderNum,
    'address-type-to': 'DEFAULT',
    'mail-type': settings.mailType,
    'mail-category': settings.mailCategory,
    'mail-direct': order.address.countryNumeric,
    'postoffice-code': settings.fromZip,
    mass: Math.max(1, Math.round(order.mass)),
    'insr-value': Math.max(0, Math.round(order.declaredValue)),
    fragile: false,
    surname: order.recipient.surname,
    'given-name': order.recipient.givenName,
    'recipient-name': `${order.recipient.surname} ${order.recipient.givenName}`.trim(),
    'tel-address': Number(order.recipient.phone.replace(/\D/g, '')) || undefined,
    ...(domestic ? { 'index-to': Number(order.address.zip) } : { 'str-index-to': order.address.zip }),
    'region-to': order.address.region,
    'place-to': order.address.place,
    'street-to': order.address.street,
    'house-to': '',
    ...(order.dimension ? { dimension: order.dimension } : {}),
    ...(order.customs
      ? {
          'customs-declaration': {
            currency: 'RUB',
            'entries-type': 'SALE_OF_GOODS',
            'customs-entries': order.customs.map((entry) => ({
              amount: entry.amount,
              'country-code': entry.countryCode,
              description: entry.description,
              'tnved-code': entry.tnvedCode,
              value: entry.value,
              weight: entry.weight,
            })),
          },
        }
      : {}),
  };
}

/** Russian Post's texts of an `errors` list: each `error-codes[].description` (or its code). */
export function otpravkaErrors(body: unknown): string[] {
  if (!isRecord(body) || !Array.isArray(body.errors)) return [];
  return body.errors.flatMap((error) => {
    if (!isRecord(error)) return [String(error)];
    const codes = Array.isArray(error['error-codes']) ? error['error-codes'] : [error];
    return codes.filter(isRecord).map((code) => String(code.description ?? code.details ?? code.code ?? ''));
  });
}

function caller(settings: OtpravkaSettings, fetchImpl: FetchImpl, timeoutMs: number) {
  const headers = {
    authorization: `AccessToken ${settings.accessToken}`,
    'x-user-authorization': `Basic ${Buffer.from(`${settings.login}:${settings.password}`).toString('base64')}`,
    accept: 'application/json;charset=UTF-8',
  };
  const send = async (method: string, path: string, body?: unknown) => {
    let response: Response;
    try {
      response = await fetchImpl(`${settings.url.replace(/\/$/, '')}${path}`, {
        method,
        signal: AbortSignal.timeout(timeoutMs),
        headers:
          body === undefined ? headers : { ...headers, 'content-type': 'application/json;charset=UTF-8' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    } catch (error) {
      throw new OtpravkaDown(`${method} ${path}: no answer (${(error as Error).message})`, { cause: error });
    }
    if (response.status === 401 || response.status === 403)
      throw new OtpravkaDown(`${method} ${path}: the credentials were refused (HTTP ${response.status})`);
    if (response.status >= 500) throw new OtpravkaDown(`${method} ${path}: answered HTTP ${response.status}`);
    return response;
  };
  const json = async (method: string, path: string, body?: unknown): Promise<unknown> => {
    const response = await send(method, path, body);
    let parsed: unknown;
    try {
      parsed = JSON.parse(await response.text());
    } catch {
      throw new OtpravkaDown(
        `${method} ${path}: answered HTTP ${response.status} with something other than JSON`,
      );
    }
    const errors = otpravkaErrors(parsed);
    if (errors.length > 0) throw new OtpravkaRefusal(errors.join('; '));
    if (!response.ok) throw new OtpravkaDown(`${method} ${path}: answered HTTP ${response.status}`);
    return parsed;
  };
  return { send, json };
}

export interface OtpravkaParcel {
  /** Russian Post's id of the order. */
  id: string;
  batch: string;
  barcode: string;
}

/**
 * Creates the parcel at Russian Post and gathers it into a batch. `knownId` is the order id a
 * previous attempt got before failing: the backlog order is then not created a second time.
 * `onCreated` is told the id as soon as Russian Post has the order, so a caller can keep it.
 */
export async function createOtpravkaParcel(
  settings: OtpravkaSettings,
  order: OtpravkaOrder,
  options: {
    knownId?: string;
    onCreated?: (id: string) => Promise<void>;
    fetchImpl?: FetchImpl;
    timeoutMs?: number;
  } = {},
): Promise<OtpravkaParcel> {
  const api = caller(settings, options.fetchImpl ?? fetch, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  let id = options.knownId;
  if (id === undefined) {
    const created = await api.json('PUT', '/1.0/user/backlog', [backlogOrder(settings, order)]);
    const resultIds = isRecord(created) && Array.isArray(created['result-ids']) ? created['result-ids'] : [];
    if (resultIds.length === 0) throw new OtpravkaDown('PUT /1.0/user/backlog: no result-ids in the answer');
    id = String(resultIds[0]);
    await options.onCreated?.(id);
  }
  const batched = await api.json('POST', '/1.0/user/shipment', [Number(id)]);
  const batches = isRecord(batched) && Array.isArray(batched.batches) ? batched.batches : [];
  const batch = batches.find(isRecord)?.['batch-name'];
  if (typeof batch !== 'string' && typeof batch !== 'number')
    throw new OtpravkaDown('POST /1.0/user/shipment: no batch-name in the answer');
  const found = await api.json('GET', `/1.0/shipment/${encodeURIComponent(id)}`);
  const barcode = isRecord(found) ? found.barcode : undefined;
  if (typeof barcode !== 'string' || barcode === '')
    throw new OtpravkaDown(`GET /1.0/shipment/${id}: no barcode in the answer`);
  return { id, batch: String(batch), barcode };
}

/** A form of the order as PDF bytes: the label (f7pdf) or the CN23 (the `cn23Path` setting). */
export async function otpravkaForm(
  settings: OtpravkaSettings,
  id: string,
  form: 'label' | 'cn23',
  fetchImpl: FetchImpl = fetch,
  timeoutMs = DEFAULT_TIMEOUT_MS,
): Promise<Uint8Array> {
  const path =
    form === 'label'
      ? `/1.0/forms/${encodeURIComponent(id)}/f7pdf`
      : settings.cn23Path.replace('{id}', encodeURIComponent(id));
  const response = await caller(settings, fetchImpl, timeoutMs).send('GET', path);
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (!response.ok || Buffer.from(bytes.subarray(0, 5)).toString('latin1') !== '%PDF-') {
    throw new OtpravkaDown(`GET ${path}: answered HTTP ${response.status} without a PDF`);
  }
  return bytes;
}
