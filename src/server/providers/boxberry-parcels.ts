import { minorToDecimal } from '../../contract/money.ts';
import {
  BoxberryDown,
  BoxberryRefusal,
  type BoxberrySettings,
  boxberryError,
  DEFAULT_TIMEOUT_MS,
  type FetchImpl,
} from './boxberry.ts';

/**
 * Boxberry parcels (shared/providers.md, "Shipments, labels, customs and tracking"; ADR 0057):
 * - `ParselCreate` is a POST to json.php with the form fields `token`, `method` and `sdata` (the
 *   parcel as JSON: `order_id`, `price`, `payment_sum`, `delivery_sum`, `vid` 1 pickup point /
 *   2 courier, `shop.name` the pickup point, `shop.name1` the drop-off office, `customer`,
 *   `kurdost` for a courier, `items`, `weights`), as the SDKs write it (iamwildtuna/boxberry-sdk
 *   src/Entity/Order.php). The answer is `{"track":"…","label":"https://…"}` or `{"err":"…"}`.
 * - `ParselCheck&ImId=<track>` answers `{"label":"https://…"}`: the label PDF is fetched from there.
 * Refusals are `BoxberryRefusal` with Boxberry's own text; anything else is `BoxberryDown`.
 */

export interface BoxberryParcelInput {
  /** Our own id of the parcel (`order_id`); the same one on a retry. */
  orderId: string;
  kind: 'pickup' | 'courier';
  /** The pickup point's code (pickup only). */
  pickupPointCode?: string;
  customer: { name: string; phone: string; email: string };
  /** The door (courier only). */
  address?: { zip: string; city: string; street: string };
  items: Array<{ sku: string; name: string; count: number; priceKopecks: number }>;
  /** Kopecks declared (`price`); paid upfront, so nothing to collect. */
  declaredValue: number;
  weightGrams: number;
  box?: { length: number; width: number; height: number };
}

/** `sdata` of ParselCreate. */
export function parcelData(settings: BoxberrySettings, parcel: BoxberryParcelInput) {
  return {
    order_id: parcel.orderId,
    price: minorToDecimal(parcel.declaredValue),
    payment_sum: '0',
    delivery_sum: '0',
    vid: parcel.kind === 'pickup' ? '1' : '2',
    shop: {
      name: parcel.kind === 'pickup' ? (parcel.pickupPointCode ?? '') : '',
      name1: settings.targetStart,
    },
    customer: { fio: parcel.customer.name, phone: parcel.customer.phone, email: parcel.customer.email },
    ...(parcel.kind === 'courier' && parcel.address
      ? { kurdost: { index: parcel.address.zip, citi: parcel.address.city, addressp: parcel.address.street } }
      : {}),
    items: parcel.items.map((item) => ({
      id: item.sku,
      name: item.name,
      UnitName: 'шт',
      nds: '0',
      price: minorToDecimal(item.priceKopecks),
      quantity: String(item.count),
    })),
    weights: {
      weight: String(Math.max(1, Math.round(parcel.weightGrams))),
      ...(parcel.box
        ? { x: String(parcel.box.length), y: String(parcel.box.width), z: String(parcel.box.height) }
        : {}),
    },
  };
}

async function send(
  settings: BoxberrySettings,
  method: string,
  parameters: Record<string, string>,
  options: { post?: boolean; fetchImpl?: FetchImpl; timeoutMs?: number },
): Promise<Record<string, unknown>> {
  const fetchImpl = options.fetchImpl ?? fetch;
  const fields = new URLSearchParams({ token: settings.token, method, ...parameters });
  let text: string;
  let status: number;
  try {
    const response = await fetchImpl(options.post ? settings.url : `${settings.url}?${fields}`, {
      method: options.post ? 'POST' : 'GET',
      signal: AbortSignal.timeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS),
      headers: {
        accept: 'application/json',
        ...(options.post ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(options.post ? { body: fields.toString() } : {}),
    });
    status = response.status;
    text = await response.text();
  } catch (error) {
    throw new BoxberryDown(`${method}: no answer (${(error as Error).message})`, { cause: error });
  }
  if (status >= 400) throw new BoxberryDown(`${method}: answered HTTP ${status}`);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new BoxberryDown(`${method}: the answer is not JSON`);
  }
  const error = boxberryError(body);
  if (error !== null) {
    if (/token|токен|ключ/i.test(error))
      throw new BoxberryDown(`${method}: the integration token was refused (${error})`);
    throw new BoxberryRefusal('refused', error);
  }
  const row = Array.isArray(body) ? body[0] : body;
  if (typeof row !== 'object' || row === null) throw new BoxberryDown(`${method}: unexpected answer`);
  return row as Record<string, unknown>;
}

/** `PointsByPostCode`: the pickup point nearest the postcode (read with `parsePointsByPostCode`). */
export function boxberryPointByZip(
  settings: BoxberrySettings,
  zip: string,
  options: { fetchImpl?: FetchImpl; timeoutMs?: number } = {},
) {
  return send(settings, 'PointsByPostCode', { zip }, options);
}

/** Creates the parcel: its track code and label link. */
export async function createBoxberryParcel(
  settings: BoxberrySettings,
  parcel: BoxberryParcelInput,
  options: { fetchImpl?: FetchImpl; timeoutMs?: number } = {},
): Promise<{ track: string; label: string | null }> {
  const answer = await send(
    settings,
    'ParselCreate',
    { sdata: JSON.stringify(parcelData(settings, parcel)) },
    { ...options, post: true },
  );
  if (typeof answer.track !== 'string' || answer.track === '')
    throw new BoxberryDown('ParselCreate: no track in the answer');
  return { track: answer.track, label: typeof answer.label === 'string' ? answer.label : null };
}

/** The label PDF of a parcel, through the link `ParselCheck` gives. */
export async function boxberryLabel(
  settings: BoxberrySettings,
  track: string,
  options: { fetchImpl?: FetchImpl; timeoutMs?: number } = {},
): Promise<Uint8Array> {
  const answer = await send(settings, 'ParselCheck', { ImId: track }, options);
  if (typeof answer.label !== 'string') throw new BoxberryDown('ParselCheck: no label link in the answer');
  let bytes: Uint8Array;
  try {
    const response = await (options.fetchImpl ?? fetch)(answer.label, {
      signal: AbortSignal.timeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS),
    });
    bytes = new Uint8Array(await response.arrayBuffer());
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
  } catch (error) {
    throw new BoxberryDown(`the label could not be fetched (${(error as Error).message})`, { cause: error });
  }
  if (Buffer.from(bytes.subarray(0, 5)).toString('latin1') !== '%PDF-')
    throw new BoxberryDown('the label is not a PDF');
  return bytes;
}
