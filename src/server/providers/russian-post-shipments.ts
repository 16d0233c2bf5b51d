/**
 * Client for Russian Post's "Отправка" API (otpravka.pochta.ru/specification; shared/providers.md,
 * "Shipments, labels, customs and tracking"): JSON over HTTPS with the headers
 * `Authorization: AccessToken <token>` and `X-User-Authorization: Basic base64(login:password)`.
 *
 * A parcel goes through the backlog into a batch ("партия", ADR 0057 and 0087):
 * 1. `PUT /1.0/user/backlog` with orders (recipient, weight, declared value and, abroad, the
 *    `customs-declaration`) → `{"result-ids":[id]}` or `{"errors":[{"error-codes":[…],"position"}]}`
 *    (#/orders-creating_order);
 * 2. gathering backlog orders into a batch, each order getting its barcode (ШПИ):
 *    - `POST /1.0/user/shipment?sending-date=yyyy-MM-dd` with a list of ids creates a batch of them
 *      (several when their mail types or categories differ) → `{"batches":[{"batch-name",
 *      "list-number-date",…}],"result-ids":[…],"errors":[{"error-code","error-description",
 *      "position"}]}` (#/batches-create_batch_from_N_orders);
 *    - `POST /1.0/batch/{name}/shipment` with a list of ids moves them into an existing batch, the
 *      same answer; an order that does not fit the batch is listed in `errors` by its position
 *      (#/batches-move_orders_to_batch). As fogstream/fs-pochta-api pochta/api/batches.py
 *      (create_batch, move_orders_to_batch) and restub/PochtaSdk PochtaSdk/Otpravka/BatchResponse.cs
 *      and ErrorWithCode2.cs read them; the answer's fields as WebTolk/WT-Otpravkapochtaru-joomla-library
 *      docs/api-schemas/otpravka/examples/create-batch.response.json observed it.
 * 3. `GET /1.0/shipment/{id}` → the order in its batch, with its `barcode` (the track code) and
 *    `batch-name` (#/batches-find_order_by_id); 404 while it is still in the backlog.
 * Forms are PDFs: the label `GET /1.0/forms/{id}/f7pdf`, and every form of the order (CN23 included
 * for a parcel abroad: UNCONFIRMED, hence the `RUSSIAN_POST_CN23_PATH` setting) `GET /1.0/forms/{id}/forms`.
 *
 * Refusals (`errors` in a 2xx or 4xx answer) become `OtpravkaRefusal` with Russian Post's codes
 * and texts; anything else (no answer, 5xx, refused credentials, unreadable answers) is `OtpravkaDown`.
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

/** One of Russian Post's reasons: its code (e.g. `ILLEGAL_INDEX_TO`) and its own text. */
export interface OtpravkaProblem {
  code: string;
  description: string;
  /** The order's position in the list sent, when Russian Post says it. */
  position?: number;
}

export class OtpravkaRefusal extends Error {
  readonly providerMessage: string;
  constructor(readonly problems: OtpravkaProblem[]) {
    const text = problems.map((problem) => problem.description || problem.code).join('; ');
    super(`Russian Post refused: ${text}`);
    this.name = 'OtpravkaRefusal';
    this.providerMessage = text;
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

/**
 * Russian Post's reasons in an `errors` list. The backlog writes
 * `{"error-codes":[{"code","description","details"}],"position"}` (PochtaSdk OrderResponseBase.cs,
 * ErrorWithSubCode.cs); the batch methods `{"error-code","error-description","error-details","position"}`
 * (PochtaSdk ErrorWithCode2.cs).
 */
export function otpravkaErrors(body: unknown): OtpravkaProblem[] {
  if (!isRecord(body) || !Array.isArray(body.errors)) return [];
  return body.errors.flatMap((error): OtpravkaProblem[] => {
    if (!isRecord(error)) return [{ code: 'UNDEFINED', description: String(error) }];
    const position = typeof error.position === 'number' ? { position: error.position } : {};
    if (Array.isArray(error['error-codes']))
      return error['error-codes'].filter(isRecord).map((code) => ({
        code: String(code.code ?? 'UNDEFINED'),
        description: String(code.description ?? code.details ?? code.code ?? ''),
        ...position,
      }));
    const code = error['error-code'] ?? error.code;
    return [
      {
        code: String(code ?? 'UNDEFINED'),
        description: String(
          error['error-description'] ??
            error.description ??
            error['error-details'] ??
            error.details ??
            code ??
            '',
        ),
        ...position,
      },
    ];
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
  /** The answer as JSON; `errors` in it are left to the caller when `errorsAllowed`. */
  const read = async (method: string, path: string, body?: unknown) => {
    const response = await send(method, path, body);
    let parsed: unknown;
    try {
      parsed = JSON.parse(await response.text());
    } catch {
      throw new OtpravkaDown(
        `${method} ${path}: answered HTTP ${response.status} with something other than JSON`,
      );
    }
    return { status: response.status, ok: response.ok, parsed };
  };
  const json = async (method: string, path: string, body?: unknown): Promise<unknown> => {
    const { status, ok, parsed } = await read(method, path, body);
    const errors = otpravkaErrors(parsed);
    if (errors.length > 0) throw new OtpravkaRefusal(errors);
    if (!ok) throw new OtpravkaDown(`${method} ${path}: answered HTTP ${status}`);
    return parsed;
  };
  return { send, read, json };
}

export interface OtpravkaParcel {
  /** Russian Post's id of the order. */
  id: string;
  batch: string;
  barcode: string;
}

export interface CallOptions {
  fetchImpl?: FetchImpl;
  timeoutMs?: number;
}

const api = (settings: OtpravkaSettings, options: CallOptions) =>
  caller(settings, options.fetchImpl ?? fetch, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);

/** Puts one order into the backlog (`PUT /1.0/user/backlog`): Russian Post's id of it. */
export async function createBacklogOrder(
  settings: OtpravkaSettings,
  order: OtpravkaOrder,
  options: CallOptions = {},
): Promise<string> {
  const created = await api(settings, options).json('PUT', '/1.0/user/backlog', [
    backlogOrder(settings, order),
  ]);
  const resultIds = isRecord(created) && Array.isArray(created['result-ids']) ? created['result-ids'] : [];
  if (resultIds.length === 0) throw new OtpravkaDown('PUT /1.0/user/backlog: no result-ids in the answer');
  return String(resultIds[0]);
}

export interface BatchOutcome {
  /** The batches the orders went into (one, unless their mail types differ). */
  batches: string[];
  /** The orders Russian Post would not gather, by id, with its reasons. */
  refused: Map<string, OtpravkaRefusal>;
}

/**
 * Gathers backlog orders into a batch with one call: into `batch` when given (moving them into
 * that open batch), else into a new batch handed in on `sendingDate` (yyyy-MM-dd). An order
 * refused by its position is in `refused`; the others are in the batch. Every order refused (or
 * an answer without the batch) throws.
 */
export async function gatherIntoBatch(
  settings: OtpravkaSettings,
  ids: readonly string[],
  target: { batch?: string; sendingDate: string },
  options: CallOptions = {},
): Promise<BatchOutcome> {
  const path = target.batch
    ? `/1.0/batch/${encodeURIComponent(target.batch)}/shipment`
    : `/1.0/user/shipment?sending-date=${encodeURIComponent(target.sendingDate)}`;
  const { status, ok, parsed } = await api(settings, options).read('POST', path, ids.map(Number));
  const problems = otpravkaErrors(parsed);
  const gathered =
    isRecord(parsed) && Array.isArray(parsed['result-ids']) ? parsed['result-ids'].map(String) : [];
  if (problems.length > 0 && gathered.length === 0) throw new OtpravkaRefusal(problems);
  if (!ok) throw new OtpravkaDown(`POST ${path}: answered HTTP ${status}`);
  const refused = new Map<string, OtpravkaRefusal>();
  for (const problem of problems) {
    const id = problem.position === undefined ? undefined : ids[problem.position];
    if (id === undefined) continue;
    refused.set(id, new OtpravkaRefusal([...(refused.get(id)?.problems ?? []), problem]));
  }
  const batches = (isRecord(parsed) && Array.isArray(parsed.batches) ? parsed.batches : [])
    .filter(isRecord)
    .map((batch) => batch['batch-name'])
    .filter((name) => typeof name === 'string' || typeof name === 'number')
    .map(String);
  if (batches.length === 0 && !target.batch)
    throw new OtpravkaDown(`POST ${path}: no batch-name in the answer`);
  return { batches: batches.length > 0 ? batches : [target.batch as string], refused };
}

/** The order in its batch (`GET /1.0/shipment/{id}`): its batch and barcode, or null while in the backlog. */
export async function batchedOrder(
  settings: OtpravkaSettings,
  id: string,
  options: CallOptions = {},
): Promise<{ batch: string; barcode: string } | null> {
  const path = `/1.0/shipment/${encodeURIComponent(id)}`;
  const { status, ok, parsed } = await api(settings, options).read('GET', path);
  if (status === 404) return null;
  const problems = otpravkaErrors(parsed);
  if (problems.length > 0) throw new OtpravkaRefusal(problems);
  if (!ok) throw new OtpravkaDown(`GET ${path}: answered HTTP ${status}`);
  const barcode = isRecord(parsed) ? parsed.barcode : undefined;
  const batch = isRecord(parsed) ? parsed['batch-name'] : undefined;
  if (typeof barcode !== 'string' || barcode === '')
    throw new OtpravkaDown(`GET ${path}: no barcode in the answer`);
  return { barcode, batch: typeof batch === 'string' || typeof batch === 'number' ? String(batch) : '' };
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
