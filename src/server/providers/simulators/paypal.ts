import {
  createSign,
  createVerify,
  generateKeyPairSync,
  randomBytes,
  randomUUID,
  timingSafeEqual,
} from 'node:crypto';
import { crc32 } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type FetchImpl, minorToPaypalAmount, paypalAmountToMinor } from '../paypal.ts';

/**
 * A local stand-in for PayPal's REST API (ADR 0052), as documented on developer.paypal.com and in
 * paypal/paypal-rest-api-specifications. Server-to-server, under the configured API URL:
 *
 * - `POST /v1/oauth2/token` — client credentials (HTTP basic); 401 invalid_client otherwise.
 * - `POST /v2/checkout/orders` — Bearer token; intent CAPTURE, one purchase unit; refuses a
 *   currency PayPal does not support (RUB), item_total ≠ Σ unit_amount × quantity
 *   (ITEM_TOTAL_MISMATCH), amount ≠ item_total + shipping − discount (AMOUNT_MISMATCH), and return
 *   or cancel URLs that are not the shop's. PayPal-Request-Id replays the first answer.
 * - `GET /v2/checkout/orders/{id}`, `POST /v2/checkout/orders/{id}/capture` (ORDER_NOT_APPROVED,
 *   ORDER_ALREADY_CAPTURED; PayPal-Request-Id replays).
 * - `POST /v2/payments/captures/{id}/refund` (CAPTURE_FULLY_REFUNDED, REFUND_AMOUNT_EXCEEDED).
 * - `POST /v1/notifications/verify-webhook-signature` — SUCCESS only for an event this simulator
 *   sent, unaltered, with its transmission headers and our webhook id.
 *
 * In the browser, `GET /sandbox/paypal/checkoutnow?token=` is the approve page (items, shipping,
 * total; Approve and Cancel). Approve sends CHECKOUT.ORDER.APPROVED and returns the shopper to
 * return_url; a capture sends PAYMENT.CAPTURE.COMPLETED, a refund PAYMENT.CAPTURE.REFUNDED. Webhooks
 * are signed as PayPal documents: SHA256withRSA over `transmission_id|transmission_time|webhook_id|
 * crc32(body)`, with the PAYPAL-* transmission headers.
 */

export interface PaypalSimulatorSettings {
  clientId: string;
  clientSecret: string;
  webhookId: string;
  /** The shop's public URL: the approve page lives there, return and cancel URLs must be below it. */
  shopUrl: string;
  /** Where webhooks go (the shop's `/api/paypal/webhook`, on loopback in test mode). */
  webhookUrl: string;
}

export interface PaypalSimulatorOptions {
  fetchImpl?: FetchImpl;
  /** Waits before the second, third, … delivery when the shop does not answer 2xx. */
  retryDelaysMs?: number[];
  clock?: () => Date;
}

/** Currencies PayPal accepts (https://developer.paypal.com/api/rest/reference/currency-codes/). */
export const PAYPAL_CURRENCIES = new Set([
  'AUD',
  'BRL',
  'CAD',
  'CNY',
  'CZK',
  'DKK',
  'EUR',
  'HKD',
  'ILS',
  'MXN',
  'MYR',
  'NOK',
  'NZD',
  'PHP',
  'PLN',
  'GBP',
  'SGD',
  'SEK',
  'CHF',
  'THB',
  'USD',
]);

interface SimItem {
  name: string;
  sku: string;
  unitMinor: number;
  quantity: number;
}

export interface SimOrder {
  id: string;
  status: 'PAYER_ACTION_REQUIRED' | 'APPROVED' | 'COMPLETED' | 'VOIDED';
  invoiceId: string;
  customId: string;
  currency: string;
  totalMinor: number;
  shippingMinor: number;
  discountMinor: number;
  items: SimItem[];
  locale: string;
  brandName: string;
  returnUrl: string;
  cancelUrl: string;
  captureId?: string;
}

export interface SimCapture {
  id: string;
  orderId: string;
  invoiceId: string;
  customId: string;
  currency: string;
  amountMinor: number;
  refundedMinor: number;
  status: 'COMPLETED' | 'PARTIALLY_REFUNDED' | 'REFUNDED';
  createTime: string;
}

export interface SentWebhook {
  eventType: string;
  body: string;
  headers: Record<string, string>;
  /** Signed by the simulator (a forgery is not). */
  genuine: boolean;
  attempts: Array<{ status: number | null; error?: string }>;
}

export interface PaypalSimulatorState {
  orders: Map<string, SimOrder>;
  captures: Map<string, SimCapture>;
  refunds: Array<{ id: string; captureId: string; amountMinor: number; note: string }>;
  webhooks: SentWebhook[];
  /** The status of the next refunds: COMPLETED, or PENDING (PAYMENT.CAPTURE.REFUNDED follows when done). */
  newRefundStatus: 'COMPLETED' | 'PENDING';
  /** Sends an event now (one attempt); `forge` leaves it unsigned by us, so verification fails. */
  sendWebhook(
    eventType: string,
    resource: Record<string, unknown>,
    options?: { forge?: boolean },
  ): Promise<SentWebhook>;
  /** Sends the last webhook again, byte for byte (a replay). */
  replay(webhook: SentWebhook): Promise<SentWebhook>;
  /** PAYMENT.CAPTURE.REVERSED for the whole of a capture, as a chargeback or PayPal would. */
  reverse(captureId: string): Promise<SentWebhook>;
  /** The resource of a capture, as the webhook and the order carry it. */
  captureResource(captureId: string): Record<string, unknown>;
  /** Resolves when no delivery retry is pending. */
  settled(): Promise<void>;
}

export interface PaypalSimulator {
  plugin: (app: FastifyInstance) => Promise<void>;
  state: PaypalSimulatorState;
}

const UNPROCESSABLE =
  'The requested action could not be performed, semantically incorrect, or failed business validation.';

class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {
    super(String(body.message ?? body.error));
  }
}

const issue = (
  status: number,
  name: string,
  message: string,
  detail: { field?: string; issue: string; description: string },
) =>
  new ApiError(status, {
    name,
    message,
    details: [
      {
        ...(detail.field ? { field: detail.field, location: 'body' } : {}),
        issue: detail.issue,
        description: detail.description,
      },
    ],
    debug_id: randomBytes(7).toString('hex'),
  });

const unprocessable = (field: string | undefined, code: string, description: string) =>
  issue(422, 'UNPROCESSABLE_ENTITY', UNPROCESSABLE, { field, issue: code, description });

const invalidRequest = (field: string, code: string, description: string) =>
  issue(400, 'INVALID_REQUEST', 'Request is not well-formed, syntactically incorrect, or violates schema.', {
    field,
    issue: code,
    description,
  });

const notFound = () =>
  issue(404, 'RESOURCE_NOT_FOUND', 'The specified resource does not exist.', {
    issue: 'INVALID_RESOURCE_ID',
    description: 'Specified resource ID does not exist. Please check the resource ID and try again.',
  });

const randomId = (length: number) => {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789';
  return Array.from(randomBytes(length), (byte) => alphabet[byte % alphabet.length]).join('');
};

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (character) =>
      ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[character] as string,
  );

type Json = Record<string, unknown>;
const object = (value: unknown): Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {};

/** An address on the shop: its origin, below its path, with no user name in it. */
function isShopAddress(value: unknown, shopUrl: string): value is string {
  if (typeof value !== 'string' || !URL.canParse(value)) return false;
  const url = new URL(value);
  const shop = new URL(shopUrl);
  return (
    url.origin === shop.origin &&
    url.username === '' &&
    url.password === '' &&
    url.pathname.startsWith(shop.pathname.replace(/\/?$/, '/'))
  );
}

const TEXT = {
  ru: {
    title: 'Оплата через PayPal',
    item: 'Товар',
    quantity: 'Кол-во',
    sum: 'Сумма',
    shipping: 'Доставка',
    discount: 'Скидка',
    total: 'Итого',
    approve: 'Оплатить',
    cancel: 'Отменить и вернуться в магазин',
  },
  en: {
    title: 'Pay with PayPal',
    item: 'Item',
    quantity: 'Qty',
    sum: 'Amount',
    shipping: 'Shipping',
    discount: 'Discount',
    total: 'Total',
    approve: 'Approve and pay',
    cancel: 'Cancel and return to the shop',
  },
} as const;

const STYLE = `body{margin:0;font:16px/1.5 system-ui,sans-serif;background:#f5f7fa;color:#1c2433}
.sandbox{margin:0;padding:.6rem 1rem;background:#ffd84d;font-weight:700;text-align:center}
main{max-width:36rem;margin:1.5rem auto;padding:1.5rem;background:#fff;border-radius:12px}
h1{margin:0 0 1rem;font-size:1.5rem;color:#003087}table{width:100%;border-collapse:collapse;margin:0 0 1.5rem}
th,td{padding:.5rem .25rem;border-bottom:1px solid #e2e8f0;text-align:left}.num{text-align:right;white-space:nowrap}
.actions{display:flex;flex-wrap:wrap;gap:.75rem}.actions form{flex:1 1 10rem;margin:0}
button{width:100%;min-height:48px;border:2px solid #8a94a6;border-radius:24px;font:inherit;font-weight:700;cursor:pointer;background:#fff;color:#1c2433}
button.approve{background:#0070ba;border-color:#0070ba;color:#fff}button:focus-visible{outline:3px solid #1a56db;outline-offset:2px}`;

export function createPaypalSimulator(
  settings: PaypalSimulatorSettings,
  options: PaypalSimulatorOptions = {},
): PaypalSimulator {
  const fetchImpl = options.fetchImpl ?? fetch;
  const retryDelays = options.retryDelaysMs ?? [2_000, 10_000, 60_000];
  const clock = options.clock ?? (() => new Date());
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const certUrl = `${settings.shopUrl}/sandbox/paypal/v1/notifications/certs/CERT-VITRINA-SANDBOX`;
  const tokens = new Set<string>();
  const orders = new Map<string, SimOrder>();
  const captures = new Map<string, SimCapture>();
  const refunds: PaypalSimulatorState['refunds'] = [];
  const webhooks: SentWebhook[] = [];
  const replies = new Map<string, { status: number; body: unknown }>();
  const pending = new Set<Promise<void>>();
  let closed = false;
  const now = () =>
    clock()
      .toISOString()
      .replace(/\.\d+Z$/, 'Z');
  const apiBase = '/sandbox/paypal';

  const link = (path: string, rel: string, method = 'GET') => ({
    href: `${settings.shopUrl}${apiBase}${path}`,
    rel,
    method,
  });

  function captureResource(captureId: string): Json {
    const capture = captures.get(captureId);
    if (!capture) throw new Error(`no capture ${captureId}`);
    return {
      id: capture.id,
      status: capture.status,
      amount: { currency_code: capture.currency, value: minorToPaypalAmount(capture.amountMinor) },
      final_capture: true,
      seller_protection: {
        status: 'ELIGIBLE',
        dispute_categories: ['ITEM_NOT_RECEIVED', 'UNAUTHORIZED_TRANSACTION'],
      },
      invoice_id: capture.invoiceId,
      custom_id: capture.customId,
      supplementary_data: { related_ids: { order_id: capture.orderId } },
      create_time: capture.createTime,
      update_time: capture.createTime,
      links: [
        link(`/v2/payments/captures/${capture.id}`, 'self'),
        link(`/v2/payments/captures/${capture.id}/refund`, 'refund', 'POST'),
        link(`/v2/checkout/orders/${capture.orderId}`, 'up'),
      ],
    };
  }

  function orderResource(order: SimOrder): Json {
    const money = (minor: number) => ({ currency_code: order.currency, value: minorToPaypalAmount(minor) });
    const itemTotal = order.items.reduce((sum, item) => sum + item.unitMinor * item.quantity, 0);
    return {
      id: order.id,
      intent: 'CAPTURE',
      status: order.status,
      payment_source: { paypal: {} },
      purchase_units: [
        {
          reference_id: 'default',
          invoice_id: order.invoiceId,
          custom_id: order.customId,
          amount: {
            ...money(order.totalMinor),
            breakdown: {
              item_total: money(itemTotal),
              shipping: money(order.shippingMinor),
              ...(order.discountMinor > 0 ? { discount: money(order.discountMinor) } : {}),
            },
          },
          items: order.items.map((item) => ({
            name: item.name,
            sku: item.sku,
            unit_amount: money(item.unitMinor),
            quantity: String(item.quantity),
          })),
          ...(order.captureId ? { payments: { captures: [captureResource(order.captureId)] } } : {}),
        },
      ],
      links: [
        link(`/v2/checkout/orders/${order.id}`, 'self'),
        ...(order.status === 'PAYER_ACTION_REQUIRED'
          ? [
              {
                href: `${settings.shopUrl}${apiBase}/checkoutnow?token=${order.id}`,
                rel: 'payer-action',
                method: 'GET',
              },
            ]
          : []),
        ...(order.status === 'APPROVED'
          ? [link(`/v2/checkout/orders/${order.id}/capture`, 'capture', 'POST')]
          : []),
      ],
    };
  }

  function authenticate(request: FastifyRequest) {
    const header = request.headers.authorization ?? '';
    if (!header.startsWith('Bearer ') || !tokens.has(header.slice(7))) {
      throw new ApiError(401, {
        name: 'AUTHENTICATION_FAILURE',
        message:
          'Authentication failed due to invalid authentication credentials or a missing Authorization header.',
        links: [{ href: 'https://developer.paypal.com/api/rest/authentication/', rel: 'information_link' }],
      });
    }
  }

  const amountOf = (field: string, value: unknown, currency: string): number => {
    const money = object(value);
    const minor = paypalAmountToMinor(money.value);
    if (minor === null || minor < 0 || !/^\d+(\.\d{2})?$/.test(String(money.value))) {
      throw invalidRequest(
        `${field}/value`,
        'DECIMAL_PRECISION',
        'If the currency supports decimals, only two decimal place precision is supported.',
      );
    }
    if (money.currency_code !== currency) {
      throw unprocessable(
        `${field}/currency_code`,
        'CURRENCY_MISMATCH',
        'Currency code should be the same for all amounts.',
      );
    }
    return minor;
  };

  function createOrder(body: Json): SimOrder {
    if (body.intent !== 'CAPTURE')
      throw invalidRequest('/intent', 'INVALID_PARAMETER_VALUE', 'The value of a field is invalid.');
    const units = Array.isArray(body.purchase_units) ? body.purchase_units : [];
    if (units.length !== 1)
      throw invalidRequest(
        '/purchase_units',
        'INVALID_ARRAY_MAX_ITEMS',
        'This simulator takes one purchase unit.',
      );
    const unit = object(units[0]);
    const amount = object(unit.amount);
    const currency = String(amount.currency_code ?? '');
    if (!PAYPAL_CURRENCIES.has(currency)) {
      throw unprocessable(
        "/purchase_units/@reference_id=='default'/amount/currency_code",
        'INVALID_CURRENCY_CODE',
        'Currency code is invalid or is not currently supported. Please refer https://developer.paypal.com/api/rest/reference/currency-codes/ for list of supported currency codes.',
      );
    }
    const total = amountOf('/purchase_units/0/amount', amount, currency);
    const breakdown = object(amount.breakdown);
    const items = (Array.isArray(unit.items) ? unit.items : []).map((raw, index): SimItem => {
      const item = object(raw);
      const quantity = Number(item.quantity);
      if (
        !/^[1-9]\d{0,9}$/.test(String(item.quantity)) ||
        typeof item.name !== 'string' ||
        item.name === ''
      ) {
        throw invalidRequest(
          `/purchase_units/0/items/${index}`,
          'MISSING_REQUIRED_PARAMETER',
          'A required field / parameter is missing.',
        );
      }
      return {
        name: item.name,
        sku: String(item.sku ?? ''),
        unitMinor: amountOf(`/purchase_units/0/items/${index}/unit_amount`, item.unit_amount, currency),
        quantity,
      };
    });
    const itemTotal =
      breakdown.item_total === undefined
        ? undefined
        : amountOf('/purchase_units/0/amount/breakdown/item_total', breakdown.item_total, currency);
    if (items.length > 0 && itemTotal === undefined) {
      throw unprocessable(
        "/purchase_units/@reference_id=='default'/amount/breakdown/item_total",
        'ITEM_TOTAL_REQUIRED',
        'If item details are specified (items.unit_amount and items.quantity) corresponding amount.breakdown.item_total is required.',
      );
    }
    if (
      itemTotal !== undefined &&
      itemTotal !== items.reduce((sum, item) => sum + item.unitMinor * item.quantity, 0)
    ) {
      throw unprocessable(
        "/purchase_units/@reference_id=='default'/amount/breakdown/item_total",
        'ITEM_TOTAL_MISMATCH',
        'Should equal sum of (unit_amount * quantity) across all items for a given purchase_unit.',
      );
    }
    const shipping =
      breakdown.shipping === undefined
        ? 0
        : amountOf('/purchase_units/0/amount/breakdown/shipping', breakdown.shipping, currency);
    const discount =
      breakdown.discount === undefined
        ? 0
        : amountOf('/purchase_units/0/amount/breakdown/discount', breakdown.discount, currency);
    if (amount.breakdown !== undefined && total !== (itemTotal ?? 0) + shipping - discount) {
      throw unprocessable(
        "/purchase_units/@reference_id=='default'/amount/value",
        'AMOUNT_MISMATCH',
        'Should equal item_total + tax_total + shipping + handling + insurance - shipping_discount - discount.',
      );
    }
    const context = object(object(object(body.payment_source).paypal).experience_context);
    for (const name of ['return_url', 'cancel_url']) {
      if (!isShopAddress(context[name], settings.shopUrl)) {
        throw invalidRequest(
          `/payment_source/paypal/experience_context/${name}`,
          'INVALID_PARAMETER_SYNTAX',
          `This simulator returns shoppers only to the shop (${settings.shopUrl}).`,
        );
      }
    }
    const order: SimOrder = {
      id: randomId(17),
      status: 'PAYER_ACTION_REQUIRED',
      invoiceId: String(unit.invoice_id ?? ''),
      customId: String(unit.custom_id ?? ''),
      currency,
      totalMinor: total,
      shippingMinor: shipping,
      discountMinor: discount,
      items,
      locale: String(context.locale ?? 'en-US'),
      brandName: String(context.brand_name ?? ''),
      returnUrl: context.return_url as string,
      cancelUrl: context.cancel_url as string,
    };
    orders.set(order.id, order);
    return order;
  }

  function findOrder(id: string): SimOrder {
    const order = orders.get(id);
    if (!order) throw notFound();
    return order;
  }

  function capture(order: SimOrder): SimOrder {
    if (order.status === 'COMPLETED') {
      throw unprocessable(
        undefined,
        'ORDER_ALREADY_CAPTURED',
        "Order already captured. If 'intent=CAPTURE' only one capture per order is allowed.",
      );
    }
    if (order.status !== 'APPROVED') {
      throw unprocessable(
        undefined,
        'ORDER_NOT_APPROVED',
        "Payer has not yet approved the Order for payment. Please redirect the payer to the 'rel':'approve' url returned as part of the HATEOAS links within the Create Order call.",
      );
    }
    const created: SimCapture = {
      id: randomId(17),
      orderId: order.id,
      invoiceId: order.invoiceId,
      customId: order.customId,
      currency: order.currency,
      amountMinor: order.totalMinor,
      refundedMinor: 0,
      status: 'COMPLETED',
      createTime: now(),
    };
    captures.set(created.id, created);
    order.status = 'COMPLETED';
    order.captureId = created.id;
    later(() => sendWebhook('PAYMENT.CAPTURE.COMPLETED', captureResource(created.id)));
    return order;
  }

  function refund(captureId: string, body: Json): Json {
    const captured = captures.get(captureId);
    if (!captured) throw notFound();
    const left = captured.amountMinor - captured.refundedMinor;
    if (left <= 0)
      throw unprocessable(undefined, 'CAPTURE_FULLY_REFUNDED', 'The capture has already been fully refunded');
    const amountMinor =
      body.amount === undefined ? left : amountOf('/amount', body.amount, captured.currency);
    if (amountMinor <= 0 || amountMinor > left) {
      throw unprocessable(
        undefined,
        'REFUND_AMOUNT_EXCEEDED',
        'The refund amount must be less than or equal to the capture amount that has not yet been refunded.',
      );
    }
    captured.refundedMinor += amountMinor;
    captured.status = captured.refundedMinor === captured.amountMinor ? 'REFUNDED' : 'PARTIALLY_REFUNDED';
    const id = randomId(17);
    refunds.push({ id, captureId, amountMinor, note: String(body.note_to_payer ?? '') });
    const resource = {
      id,
      status: state.newRefundStatus,
      amount: { currency_code: captured.currency, value: minorToPaypalAmount(amountMinor) },
      invoice_id: captured.invoiceId,
      custom_id: captured.customId,
      ...(body.note_to_payer ? { note_to_payer: body.note_to_payer } : {}),
      create_time: now(),
      update_time: now(),
      links: [link(`/v2/payments/refunds/${id}`, 'self'), link(`/v2/payments/captures/${captureId}`, 'up')],
    };
    later(() => sendWebhook('PAYMENT.CAPTURE.REFUNDED', { ...resource, status: 'COMPLETED' }));
    return resource;
  }

  function signedHeaders(body: string, transmissionId: string, time: string): Record<string, string> {
    const signer = createSign('RSA-SHA256');
    signer.update(`${transmissionId}|${time}|${settings.webhookId}|${crc32(body)}`);
    return {
      'paypal-transmission-id': transmissionId,
      'paypal-transmission-time': time,
      'paypal-transmission-sig': signer.sign(privateKey, 'base64'),
      'paypal-cert-url': certUrl,
      'paypal-auth-algo': 'SHA256withRSA',
    };
  }

  async function deliver(webhook: SentWebhook): Promise<boolean> {
    const attempt: SentWebhook['attempts'][number] = { status: null };
    try {
      const response = await fetchImpl(settings.webhookUrl, {
        method: 'POST',
        redirect: 'manual',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'PayPal/AUHD-214.0-58383049',
          ...webhook.headers,
        },
        body: webhook.body,
        signal: AbortSignal.timeout(10_000),
      });
      attempt.status = response.status;
      await response.body?.cancel().catch(() => {});
    } catch (error) {
      attempt.error = error instanceof Error ? error.message : String(error);
    }
    webhook.attempts.push(attempt);
    return attempt.status !== null && attempt.status >= 200 && attempt.status < 300;
  }

  function record(eventType: string, resource: Json, forge = false): SentWebhook {
    const body = JSON.stringify({
      id: `WH-${randomId(8)}-${randomId(17)}`,
      event_version: '1.0',
      create_time: now(),
      resource_type: eventType.startsWith('CHECKOUT.ORDER')
        ? 'checkout-order'
        : eventType.includes('REFUNDED') || eventType.includes('REVERSED')
          ? 'refund'
          : 'capture',
      resource_version: '2.0',
      event_type: eventType,
      summary: eventType,
      resource,
      links: [],
    });
    const headers = signedHeaders(body, randomUUID(), now());
    if (forge) headers['paypal-transmission-sig'] = randomBytes(256).toString('base64');
    const webhook: SentWebhook = { eventType, body, headers, genuine: !forge, attempts: [] };
    webhooks.push(webhook);
    return webhook;
  }

  /** First attempt now; more in the background until the shop answers 2xx. */
  async function notify(webhook: SentWebhook) {
    if ((await deliver(webhook)) || retryDelays.length === 0) return;
    later(async () => {
      for (const delay of retryDelays) {
        await new Promise<void>((resolve) => setTimeout(resolve, delay).unref());
        if (closed || (await deliver(webhook))) return;
      }
    });
  }

  function later(task: () => Promise<unknown>) {
    const run = (async () => {
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (!closed) await task();
    })().then(
      () => undefined,
      () => undefined,
    );
    pending.add(run);
    void run.finally(() => pending.delete(run));
  }

  async function sendWebhook(eventType: string, resource: Json, sendOptions: { forge?: boolean } = {}) {
    const webhook = record(eventType, resource, sendOptions.forge);
    await notify(webhook);
    return webhook;
  }

  function verify(body: Json): boolean {
    const sent = webhooks.find(
      (webhook) => webhook.headers['paypal-transmission-id'] === body.transmission_id,
    );
    if (!sent?.genuine || body.webhook_id !== settings.webhookId || body.auth_algo !== 'SHA256withRSA')
      return false;
    if (body.transmission_time !== sent.headers['paypal-transmission-time'] || body.cert_url !== certUrl)
      return false;
    if (JSON.stringify(body.webhook_event) !== JSON.stringify(JSON.parse(sent.body))) return false;
    const verifier = createVerify('RSA-SHA256');
    verifier.update(
      `${String(body.transmission_id)}|${String(body.transmission_time)}|${settings.webhookId}|${crc32(sent.body)}`,
    );
    return verifier.verify(publicKey, String(body.transmission_sig ?? ''), 'base64');
  }

  const sendJson = (reply: FastifyReply, status: number, body: unknown) =>
    reply
      .code(status)
      .type('application/json')
      .header('paypal-debug-id', randomBytes(7).toString('hex'))
      .send(body);

  /** Runs an API call: PayPal's errors as PayPal answers them; PayPal-Request-Id replays. */
  async function api(
    request: FastifyRequest,
    reply: FastifyReply,
    handler: () => { status: number; body: unknown },
  ) {
    try {
      authenticate(request);
      const requestId = request.headers['paypal-request-id'];
      const key =
        typeof requestId === 'string' && requestId !== '' ? `${request.url} ${requestId}` : undefined;
      const replayed = key ? replies.get(key) : undefined;
      if (replayed) return sendJson(reply, replayed.status === 201 ? 200 : replayed.status, replayed.body);
      const answer = handler();
      if (key) replies.set(key, answer);
      return sendJson(reply, answer.status, answer.body);
    } catch (error) {
      if (error instanceof ApiError) return sendJson(reply, error.status, error.body);
      throw error;
    }
  }

  const sendHtml = (reply: FastifyReply, status: number, lang: 'ru' | 'en', title: string, content: string) =>
    reply
      .code(status)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(
        `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)} · PayPal sandbox</title><style nonce="${reply.cspNonce?.style ?? ''}">${STYLE}</style></head><body><p class="sandbox" role="note">SANDBOX — no real money</p><main>${content}</main></body></html>`,
      );

  function approvePage(order: SimOrder): [lang: 'ru' | 'en', title: string, html: string] {
    const lang = order.locale.startsWith('ru') ? 'ru' : 'en';
    const text = TEXT[lang];
    const format = new Intl.NumberFormat(lang === 'ru' ? 'ru-RU' : 'en-US', {
      style: 'currency',
      currency: order.currency,
    });
    const show = (minor: number) => escapeHtml(format.format(minor / 100));
    const rows = order.items
      .map(
        (item) =>
          `<tr><td>${escapeHtml(item.name)}</td><td class="num">${item.quantity} × ${show(item.unitMinor)}</td><td class="num">${show(item.unitMinor * item.quantity)}</td></tr>`,
      )
      .join('');
    const button = (action: 'approve' | 'cancel') =>
      `<form method="post" action="${apiBase}/checkoutnow/${action}"><input type="hidden" name="token" value="${order.id}"><button type="submit" class="${action}">${escapeHtml(text[action])}</button></form>`;
    return [
      lang,
      text.title,
      `<h1>${escapeHtml(text.title)}</h1><p>${escapeHtml(order.brandName)} · ${escapeHtml(order.invoiceId)}</p>
<table><thead><tr><th scope="col">${text.item}</th><th scope="col" class="num">${text.quantity}</th><th scope="col" class="num">${text.sum}</th></tr></thead><tbody>${rows}</tbody>
<tfoot><tr><th scope="row" colspan="2">${text.shipping}</th><td class="num">${show(order.shippingMinor)}</td></tr>${
        order.discountMinor > 0
          ? `<tr><th scope="row" colspan="2">${text.discount}</th><td class="num">−${show(order.discountMinor)}</td></tr>`
          : ''
      }<tr><th scope="row" colspan="2">${text.total}</th><td class="num" data-total>${show(order.totalMinor)}</td></tr></tfoot></table>
<div class="actions">${button('approve')}${button('cancel')}</div>`,
    ];
  }

  const withQuery = (address: string, query: Record<string, string>) => {
    const url = new URL(address);
    for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
    return url.toString();
  };

  async function plugin(app: FastifyInstance): Promise<void> {
    app.addHook('onClose', async () => {
      closed = true;
    });
    await app.register(async (scope) => {
      const form = 'application/x-www-form-urlencoded';
      if (scope.hasContentTypeParser(form)) scope.removeContentTypeParser(form);
      scope.addContentTypeParser(form, { parseAs: 'string', bodyLimit: 64 * 1024 }, (_request, body, done) =>
        done(null, Object.fromEntries(new URLSearchParams(String(body)))),
      );

      scope.post(`${apiBase}/v1/oauth2/token`, async (request, reply) => {
        const header = request.headers.authorization ?? '';
        const expected = Buffer.from(
          `Basic ${Buffer.from(`${settings.clientId}:${settings.clientSecret}`).toString('base64')}`,
        );
        const given = Buffer.from(header);
        const body = object(request.body);
        if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
          return sendJson(reply, 401, {
            error: 'invalid_client',
            error_description: 'Client Authentication failed',
          });
        }
        if (body.grant_type !== 'client_credentials') {
          return sendJson(reply, 400, {
            error: 'unsupported_grant_type',
            error_description: 'Grant Type is NULL',
          });
        }
        const token = `A21AA${randomBytes(32).toString('base64url')}`;
        tokens.add(token);
        return sendJson(reply, 200, {
          scope:
            'https://uri.paypal.com/services/payments/payment https://uri.paypal.com/services/payments/refund',
          access_token: token,
          token_type: 'Bearer',
          app_id: 'APP-80W284485P519543T',
          expires_in: 32400,
          nonce: `${now()}${randomBytes(8).toString('hex')}`,
        });
      });

      scope.post(`${apiBase}/v2/checkout/orders`, (request, reply) =>
        api(request, reply, () => ({ status: 201, body: orderResource(createOrder(object(request.body))) })),
      );
      scope.get(`${apiBase}/v2/checkout/orders/:id`, (request, reply) =>
        api(request, reply, () => ({
          status: 200,
          body: orderResource(findOrder((request.params as { id: string }).id)),
        })),
      );
      scope.post(`${apiBase}/v2/checkout/orders/:id/capture`, (request, reply) =>
        api(request, reply, () => ({
          status: 201,
          body: orderResource(capture(findOrder((request.params as { id: string }).id))),
        })),
      );
      scope.post(`${apiBase}/v2/payments/captures/:id/refund`, (request, reply) =>
        api(request, reply, () => ({
          status: 201,
          body: refund((request.params as { id: string }).id, object(request.body)),
        })),
      );
      scope.post(`${apiBase}/v1/notifications/verify-webhook-signature`, (request, reply) =>
        api(request, reply, () => ({
          status: 200,
          body: { verification_status: verify(object(request.body)) ? 'SUCCESS' : 'FAILURE' },
        })),
      );

      scope.get(`${apiBase}/checkoutnow`, async (request, reply) => {
        const order = orders.get(String(object(request.query).token ?? ''));
        if (order?.status !== 'PAYER_ACTION_REQUIRED') {
          return sendHtml(
            reply,
            404,
            'en',
            'Not found',
            '<h1>This checkout session is no longer valid.</h1>',
          );
        }
        return sendHtml(reply, 200, ...approvePage(order));
      });
      scope.post(`${apiBase}/checkoutnow/:action`, async (request, reply) => {
        const { action } = request.params as { action: string };
        const order = orders.get(String(object(request.body).token ?? ''));
        if (order?.status !== 'PAYER_ACTION_REQUIRED' || (action !== 'approve' && action !== 'cancel')) {
          return sendHtml(
            reply,
            404,
            'en',
            'Not found',
            '<h1>This checkout session is no longer valid.</h1>',
          );
        }
        if (action === 'cancel') return reply.redirect(withQuery(order.cancelUrl, { token: order.id }), 303);
        order.status = 'APPROVED';
        await sendWebhook('CHECKOUT.ORDER.APPROVED', orderResource(order));
        return reply.redirect(withQuery(order.returnUrl, { token: order.id, PayerID: randomId(13) }), 303);
      });
    });
  }

  const state: PaypalSimulatorState = {
    orders,
    captures,
    refunds,
    webhooks,
    newRefundStatus: 'COMPLETED',
    sendWebhook,
    async replay(webhook) {
      const again: SentWebhook = { ...webhook, attempts: [] };
      webhooks.push(again);
      await deliver(again);
      return again;
    },
    async reverse(captureId) {
      const captured = captures.get(captureId);
      if (!captured) throw new Error(`no capture ${captureId}`);
      const left = captured.amountMinor - captured.refundedMinor;
      captured.refundedMinor = captured.amountMinor;
      captured.status = 'REFUNDED';
      const id = randomId(17);
      return sendWebhook('PAYMENT.CAPTURE.REVERSED', {
        id,
        status: 'COMPLETED',
        amount: { currency_code: captured.currency, value: minorToPaypalAmount(left) },
        invoice_id: captured.invoiceId,
        note_to_payer: 'Payment reversed',
        create_time: now(),
        update_time: now(),
        links: [link(`/v2/payments/refunds/${id}`, 'self'), link(`/v2/payments/captures/${captureId}`, 'up')],
      });
    },
    captureResource,
    async settled() {
      while (pending.size > 0) await Promise.all([...pending]);
    },
  };

  return { plugin, state };
}
