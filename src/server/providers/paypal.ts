/**
 * PayPal's REST API, payment method `paypal` (ADR 0052): Orders v2 (create, get, capture), the
 * captures refund of Payments v2, and the webhooks' verify-webhook-signature call, authenticated
 * with an OAuth 2.0 client-credentials token that is cached until shortly before it expires.
 * No database and no routes.
 *
 * Sources: https://developer.paypal.com/docs/api/orders/v2/,
 * https://developer.paypal.com/docs/api/payments/v2/#captures_refund,
 * https://developer.paypal.com/api/rest/authentication/,
 * https://developer.paypal.com/api/rest/webhooks/rest/ and the OpenAPI files of
 * paypal/paypal-rest-api-specifications (openapi/checkout_orders_v2.json, payments_payment_v2.json,
 * notifications_webhooks_v1.json).
 *
 * Answers are told apart as PayPal documents them: 2xx is done; a 4xx with PayPal's error body
 * (`name`, `message`, `details[].issue`) is a refusal (`PaypalRefusal`); anything else (network,
 * time-out, 5xx, an unreadable answer) throws a plain Error: nothing is known to have happened.
 */

export type FetchImpl = typeof fetch;

/** The shape of `config.payments.paypal`. */
export interface PaypalSettings {
  /** The REST app's credentials (developer.paypal.com → Apps & Credentials). */
  clientId: string;
  clientSecret: string;
  /** The id PayPal gave the webhook subscribed to `/api/paypal/webhook`; verification names it. */
  webhookId: string;
  /** https://api-m.sandbox.paypal.com, https://api-m.paypal.com, or the local simulator. */
  apiUrl: string;
}

export const PAYPAL_TIMEOUT_MS = 10_000;

/**
 * Where PayPal's approve links of an API lead (the `payer-action` link's origin): www.paypal.com for
 * api-m.paypal.com, www.sandbox.paypal.com for the sandbox; none for the local simulator, whose
 * page is on the shop itself.
 */
export function paypalApproveOrigins(apiUrl: string): string[] {
  const host = new URL(apiUrl).hostname;
  if (/(^|\.)sandbox\.paypal\.com$/.test(host)) return ['https://www.sandbox.paypal.com'];
  if (/(^|\.)paypal\.com$/.test(host)) return ['https://www.paypal.com'];
  return [];
}

/** A refusal with PayPal's own words: `issue` is the first `details[].issue`, or the error's name. */
export class PaypalRefusal extends Error {
  constructor(
    readonly status: number,
    readonly issue: string,
    message: string,
    readonly debugId?: string,
  ) {
    super(message);
    this.name = 'PaypalRefusal';
  }
}

/** '12.50' → 1250 (cents); null when it is not a dot-decimal amount. */
export function paypalAmountToMinor(text: unknown): number | null {
  if (typeof text !== 'string') return null;
  const match = /^(-?)(\d{1,13})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!match) return null;
  const minor = Number(match[2]) * 100 + Number((match[3] ?? '').padEnd(2, '0'));
  return match[1] === '-' ? -minor : minor;
}

/** 1250 → '12.50', the `value` of PayPal's money object for two-decimal currencies. */
export const minorToPaypalAmount = (minor: number): string => {
  if (!Number.isInteger(minor) || minor < 0) throw new RangeError(`not an amount in cents: ${minor}`);
  return `${Math.floor(minor / 100)}.${String(minor % 100).padStart(2, '0')}`;
};

const money = (currency: string, minor: number) => ({
  currency_code: currency,
  value: minorToPaypalAmount(minor),
});

/** PayPal allows 127 characters in an item's name and SKU. */
const clip = (text: string) => (text.length > 127 ? `${text.slice(0, 126)}…` : text);

export interface PaypalOrderInput {
  /** Our order id: the purchase unit's `invoice_id` and `custom_id`. */
  orderId: number;
  currency: string;
  locale: 'ru' | 'en';
  brandName: string;
  /** One per order line: the unit price in minor units, as charged (ADR 0050). */
  items: { name: string; sku: string; unitMinor: number; quantity: number }[];
  /** Minor units taken off the items (promo codes); 0 when none. */
  discountMinor: number;
  shippingMinor: number;
  returnUrl: string;
  cancelUrl: string;
}

/**
 * The create-order body: intent CAPTURE, one purchase unit whose amount is broken down into
 * item_total (Σ unit_amount × quantity), shipping and discount, the items, our order id as
 * invoice_id and custom_id, and the payer experience (locale, return and cancel URLs, no shipping
 * address asked since the shop has it).
 */
export function paypalOrderRequest(input: PaypalOrderInput) {
  const itemTotal = input.items.reduce((sum, item) => sum + item.unitMinor * item.quantity, 0);
  const total = itemTotal - input.discountMinor + input.shippingMinor;
  type Money = ReturnType<typeof money>;
  const breakdown: { item_total: Money; shipping: Money; discount?: Money } = {
    item_total: money(input.currency, itemTotal),
    shipping: money(input.currency, input.shippingMinor),
  };
  if (input.discountMinor > 0) breakdown.discount = money(input.currency, input.discountMinor);
  return {
    intent: 'CAPTURE',
    purchase_units: [
      {
        reference_id: 'default',
        invoice_id: String(input.orderId),
        custom_id: String(input.orderId),
        amount: { ...money(input.currency, total), breakdown },
        items: input.items.map((item) => ({
          name: clip(item.name),
          sku: clip(item.sku),
          unit_amount: money(input.currency, item.unitMinor),
          quantity: String(item.quantity),
          category: 'PHYSICAL_GOODS',
        })),
      },
    ],
    payment_source: {
      paypal: {
        experience_context: {
          brand_name: clip(input.brandName),
          locale: input.locale === 'ru' ? 'ru-RU' : 'en-US',
          landing_page: 'LOGIN',
          shipping_preference: 'NO_SHIPPING',
          user_action: 'PAY_NOW',
          return_url: input.returnUrl,
          cancel_url: input.cancelUrl,
        },
      },
    },
  };
}

/** A capture as the shop needs it. */
export interface PaypalCapture {
  id: string;
  /** COMPLETED, PENDING, DECLINED, REFUNDED, PARTIALLY_REFUNDED, FAILED. */
  status: string;
  amountMinor: number;
  currency: string;
  invoiceId: string;
}

/** An order as the shop needs it: its state, our order id and its captures. */
export interface PaypalOrder {
  id: string;
  /** CREATED, SAVED, APPROVED, VOIDED, COMPLETED, PAYER_ACTION_REQUIRED. */
  status: string;
  invoiceId: string;
  /** Where the shopper approves it: the `payer-action` (or older `approve`) link. */
  approveUrl: string | undefined;
  captures: PaypalCapture[];
}

type Json = Record<string, unknown>;
const object = (value: unknown): Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {};
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** A capture resource (the order's `payments.captures[]`, or a webhook's `resource`). */
export function readCapture(value: unknown): PaypalCapture {
  const capture = object(value);
  const amount = object(capture.amount);
  const amountMinor = paypalAmountToMinor(amount.value);
  if (!text(capture.id) || amountMinor === null)
    throw new Error('PayPal answered a capture without id or amount');
  return {
    id: text(capture.id),
    status: text(capture.status),
    amountMinor,
    currency: text(amount.currency_code),
    invoiceId: text(capture.invoice_id),
  };
}

/** An order resource, as create, get and capture answer it. */
export function readOrder(value: unknown): PaypalOrder {
  const order = object(value);
  if (!text(order.id)) throw new Error('PayPal answered an order without id');
  const links = list(order.links).map(object);
  const unit = object(list(order.purchase_units)[0]);
  return {
    id: text(order.id),
    status: text(order.status),
    invoiceId: text(unit.invoice_id),
    approveUrl:
      text(links.find((link) => link.rel === 'payer-action' || link.rel === 'approve')?.href) || undefined,
    captures: list(object(unit.payments).captures).map(readCapture),
  };
}

const tokens = new Map<string, { token: string; expiresAt: number }>();
/** A token belongs to one API and one pair of credentials. */
const tokenKey = (settings: PaypalSettings) =>
  `${settings.apiUrl} ${settings.clientId} ${settings.clientSecret}`;

/** Forgets cached tokens (a test changing credentials). */
export const forgetPaypalTokens = () => tokens.clear();

async function readJson(response: Response): Promise<Json> {
  const body = await response.text();
  try {
    return object(JSON.parse(body));
  } catch {
    throw new Error(`PayPal answered HTTP ${response.status} with a body that is not JSON`);
  }
}

/** PayPal's error body → a refusal (4xx) or an outage (anything else). */
async function failure(response: Response, what: string): Promise<Error> {
  if (response.status >= 500 || response.status < 400) {
    await response.body?.cancel().catch(() => {});
    return new Error(`PayPal ${what} answered HTTP ${response.status}`);
  }
  const body = await readJson(response).catch(() => ({}) as Json);
  const detail = object(list(body.details)[0]);
  const issue = text(detail.issue) || text(body.name) || text(body.error) || `HTTP_${response.status}`;
  const message =
    [text(body.message), text(detail.description)].filter(Boolean).join(' ') ||
    text(body.error_description) ||
    `HTTP ${response.status}`;
  return new PaypalRefusal(response.status, issue, message, text(body.debug_id) || undefined);
}

/**
 * An access token (POST /v1/oauth2/token, grant_type=client_credentials, HTTP basic with the client
 * id and secret), reused until a minute before its `expires_in`.
 */
export async function paypalAccessToken(
  settings: PaypalSettings,
  fetchImpl: FetchImpl = fetch,
  now = Date.now(),
): Promise<string> {
  const key = tokenKey(settings);
  const cached = tokens.get(key);
  if (cached && cached.expiresAt > now) return cached.token;
  const response = await fetchImpl(`${settings.apiUrl}/v1/oauth2/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${settings.clientId}:${settings.clientSecret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
    },
    body: 'grant_type=client_credentials',
    signal: AbortSignal.timeout(PAYPAL_TIMEOUT_MS),
  });
  if (!response.ok) throw await failure(response, 'OAuth token');
  const body = await readJson(response);
  const token = text(body.access_token);
  const expiresIn = Number(body.expires_in);
  if (!token || !(expiresIn > 0))
    throw new Error('PayPal answered a token without access_token or expires_in');
  tokens.set(key, { token, expiresAt: now + Math.max(0, expiresIn - 60) * 1000 });
  return token;
}

/** One authenticated call; a 401 (token revoked or expired early) is tried once with a new token. */
async function call(
  settings: PaypalSettings,
  what: string,
  path: string,
  init: { method: 'GET' | 'POST'; body?: unknown; requestId?: string },
  fetchImpl: FetchImpl,
): Promise<Json> {
  for (let attempt = 0; ; attempt++) {
    const token = await paypalAccessToken(settings, fetchImpl);
    const headers: Record<string, string> = {
      authorization: `Bearer ${token}`,
      accept: 'application/json',
      'content-type': 'application/json',
    };
    if (init.requestId) headers['paypal-request-id'] = init.requestId;
    const response = await fetchImpl(`${settings.apiUrl}${path}`, {
      method: init.method,
      headers,
      ...(init.method === 'POST' ? { body: JSON.stringify(init.body ?? {}) } : {}),
      signal: AbortSignal.timeout(PAYPAL_TIMEOUT_MS),
    });
    if (response.status === 401 && attempt === 0) {
      await response.body?.cancel().catch(() => {});
      tokens.delete(tokenKey(settings));
      continue;
    }
    if (!response.ok) throw await failure(response, what);
    return readJson(response);
  }
}

/**
 * POST /v2/checkout/orders. `requestId` (PayPal-Request-Id) makes it idempotent: the same id
 * answers the order created the first time.
 */
export async function createPaypalOrder(
  settings: PaypalSettings,
  body: ReturnType<typeof paypalOrderRequest>,
  requestId: string,
  fetchImpl: FetchImpl = fetch,
): Promise<PaypalOrder> {
  return readOrder(
    await call(
      settings,
      'create order',
      '/v2/checkout/orders',
      { method: 'POST', body, requestId },
      fetchImpl,
    ),
  );
}

/** GET /v2/checkout/orders/{id}. */
export async function getPaypalOrder(
  settings: PaypalSettings,
  id: string,
  fetchImpl: FetchImpl = fetch,
): Promise<PaypalOrder> {
  return readOrder(
    await call(
      settings,
      'get order',
      `/v2/checkout/orders/${encodeURIComponent(id)}`,
      { method: 'GET' },
      fetchImpl,
    ),
  );
}

/**
 * POST /v2/checkout/orders/{id}/capture, idempotent by `requestId`. An order captured before (by
 * the other of the return and the webhook) is read instead of refused.
 */
export async function capturePaypalOrder(
  settings: PaypalSettings,
  id: string,
  requestId: string,
  fetchImpl: FetchImpl = fetch,
): Promise<PaypalOrder> {
  try {
    return readOrder(
      await call(
        settings,
        'capture order',
        `/v2/checkout/orders/${encodeURIComponent(id)}/capture`,
        { method: 'POST', requestId },
        fetchImpl,
      ),
    );
  } catch (error) {
    if (error instanceof PaypalRefusal && error.issue === 'ORDER_ALREADY_CAPTURED') {
      return getPaypalOrder(settings, id, fetchImpl);
    }
    throw error;
  }
}

export interface PaypalRefund {
  id: string;
  /** COMPLETED, PENDING, CANCELLED, FAILED. */
  status: string;
  amountMinor: number | null;
}

/**
 * POST /v2/payments/captures/{id}/refund: all that is left when `amountMinor` is omitted, otherwise
 * that much (with its currency), with a note to the payer; idempotent by `requestId`.
 */
export async function refundPaypalCapture(
  settings: PaypalSettings,
  captureId: string,
  refund: { amountMinor?: number; currency: string; invoiceId: string; note: string },
  requestId: string,
  fetchImpl: FetchImpl = fetch,
): Promise<PaypalRefund> {
  const body = {
    ...(refund.amountMinor === undefined ? {} : { amount: money(refund.currency, refund.amountMinor) }),
    invoice_id: refund.invoiceId,
    note_to_payer: refund.note.slice(0, 255),
  };
  const answer = await call(
    settings,
    'refund capture',
    `/v2/payments/captures/${encodeURIComponent(captureId)}/refund`,
    { method: 'POST', body, requestId },
    fetchImpl,
  );
  if (!text(answer.id)) throw new Error('PayPal answered a refund without id');
  return {
    id: text(answer.id),
    status: text(answer.status),
    amountMinor: paypalAmountToMinor(object(answer.amount).value),
  };
}

/** The transmission headers PayPal sends with each webhook (lower-case, as Node gives them). */
export const WEBHOOK_HEADERS = {
  transmission_id: 'paypal-transmission-id',
  transmission_time: 'paypal-transmission-time',
  transmission_sig: 'paypal-transmission-sig',
  cert_url: 'paypal-cert-url',
  auth_algo: 'paypal-auth-algo',
} as const;

/**
 * POST /v1/notifications/verify-webhook-signature with the webhook's transmission headers, our
 * webhook id and the event. The event is placed in the request as received, byte for byte, so that
 * PayPal checks the signature over what it sent. True only for verification_status SUCCESS; a
 * webhook without its headers is false without asking.
 */
export async function verifyPaypalWebhook(
  settings: PaypalSettings,
  headers: Readonly<Record<string, string | string[] | undefined>>,
  rawBody: string,
  fetchImpl: FetchImpl = fetch,
): Promise<boolean> {
  const fields: string[] = [];
  for (const [name, header] of Object.entries(WEBHOOK_HEADERS)) {
    const value = headers[header];
    if (typeof value !== 'string' || value === '') return false;
    fields.push(`${JSON.stringify(name)}:${JSON.stringify(value)}`);
  }
  fields.push(`"webhook_id":${JSON.stringify(settings.webhookId)}`);
  try {
    JSON.parse(rawBody);
  } catch {
    return false;
  }
  const body = `{${fields.join(',')},"webhook_event":${rawBody}}`;
  for (let attempt = 0; ; attempt++) {
    const token = await paypalAccessToken(settings, fetchImpl);
    const response = await fetchImpl(`${settings.apiUrl}/v1/notifications/verify-webhook-signature`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json',
      },
      body,
      signal: AbortSignal.timeout(PAYPAL_TIMEOUT_MS),
    });
    if (response.status === 401 && attempt === 0) {
      await response.body?.cancel().catch(() => {});
      tokens.delete(tokenKey(settings));
      continue;
    }
    if (!response.ok) throw await failure(response, 'verify-webhook-signature');
    return text((await readJson(response)).verification_status) === 'SUCCESS';
  }
}

/** A webhook event the shop acts on. */
export type PaypalEvent =
  /** The shopper approved: the order is to be captured (also when they never came back). */
  | { kind: 'approved'; eventId: string; orderId: string }
  /** A capture completed, was denied, or is pending. */
  | { kind: 'capture'; eventId: string; type: string; capture: PaypalCapture; orderId: string }
  /** Money went back to the payer (a refund, or a reversal by PayPal); the resource is a refund. */
  | {
      kind: 'refund';
      eventId: string;
      type: string;
      refundId: string;
      captureId: string;
      invoiceId: string;
      amountMinor: number;
      currency: string;
      status: string;
    }
  | { kind: 'other'; eventId: string; type: string };

/**
 * A webhook event's body (https://developer.paypal.com/api/rest/webhooks/event-names/): `id`,
 * `event_type`, `resource_type` and the `resource`; a capture's order is in
 * `supplementary_data.related_ids.order_id`, a refund's capture is its `up` link.
 */
export function readPaypalEvent(rawBody: string): PaypalEvent {
  const event = object(JSON.parse(rawBody));
  const eventId = text(event.id);
  const type = text(event.event_type);
  const resource = object(event.resource);
  if (type === 'CHECKOUT.ORDER.APPROVED') return { kind: 'approved', eventId, orderId: text(resource.id) };
  if (
    type === 'PAYMENT.CAPTURE.COMPLETED' ||
    type === 'PAYMENT.CAPTURE.DENIED' ||
    type === 'PAYMENT.CAPTURE.PENDING'
  ) {
    const orderId = text(object(object(resource.supplementary_data).related_ids).order_id);
    return { kind: 'capture', eventId, type, capture: readCapture(resource), orderId };
  }
  if (type === 'PAYMENT.CAPTURE.REFUNDED' || type === 'PAYMENT.CAPTURE.REVERSED') {
    const up = text(
      list(resource.links)
        .map(object)
        .find((link) => link.rel === 'up')?.href,
    );
    const amount = object(resource.amount);
    const amountMinor = paypalAmountToMinor(amount.value);
    if (!text(resource.id) || amountMinor === null) throw new Error(`${type} without a refund id or amount`);
    return {
      kind: 'refund',
      eventId,
      type,
      refundId: text(resource.id),
      captureId: decodeURIComponent(up.split('/').at(-1) ?? ''),
      invoiceId: text(resource.invoice_id),
      amountMinor: Math.abs(amountMinor),
      currency: text(amount.currency_code),
      status: text(resource.status),
    };
  }
  return { kind: 'other', eventId, type };
}
