import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FetchImpl } from '../paypal.ts';

/**
 * A local stand-in for PayPal Payments Standard (shared/providers.md, "PayPal"):
 *
 * - `POST /sandbox/paypal` — the cart upload (`cmd=_cart`, `upload=1`, items `item_name_N`,
 *   `amount_N`, `quantity_N`, `shipping_N`, …). Refuses another merchant's `business`, a missing
 *   field, a bad amount, an invoice already paid, or a `notify_url`, `return` or `cancel_return`
 *   that is not an address of the shop with a 400 page; otherwise answers a checkout page with the
 *   items, shipping, total and Pay / Cancel buttons.
 * - `POST /sandbox/paypal/pay` — the payment completes: an IPN (`txn_type=cart`,
 *   `payment_status=Completed`, `test_ipn=1`, …) is posted form-urlencoded to the form's
 *   `notify_url` until the shop answers 2xx (first attempt awaited, retries in the background), then
 *   the browser goes (303) to `return`.
 * - `POST /sandbox/paypal/cancel` — the browser goes (303) to `cancel_return`.
 * - `POST /sandbox/paypal/ipn-verify` — the postback: `VERIFIED` only for `cmd=_notify-validate&`
 *   followed by exactly, byte for byte, an IPN body this simulator sent as genuine; else `INVALID`.
 * - `POST /sandbox/paypal/nvp` — the NVP API's `METHOD=RefundTransaction` (USER, PWD, SIGNATURE,
 *   TRANSACTIONID, REFUNDTYPE=Full|Partial, AMT, CURRENCYCODE). Refuses wrong credentials (10002),
 *   an unknown or not completed transaction (10004), a currency other than the payment's, and more
 *   than is left of the payment (10009); keeps what each payment has had refunded, answers
 *   ACK=Success with REFUNDTRANSACTIONID, and shortly after sends the refund's IPN
 *   (payment_status=Refunded, negative mc_gross, parent_txn_id) to the payment's notify_url.
 *
 * The buttons carry the cart in a hidden field sealed with an HMAC, so the page cannot be edited into
 * paying less. Register it without a prefix in test mode.
 */

export interface PaypalSimulatorSettings {
  /** Our `business` (e-mail, or merchant id); the form must name it. */
  business: string;
  /** Our merchant account id; a fixed one derived from `business` when not given. */
  receiverId?: string;
  /**
   * The shop's public URL. The sandbox posts IPNs and sends shoppers only to addresses below it, so
   * a visitor's form cannot make the shop's server call, or a shopper land on, another site.
   */
  shopUrl: string;
  /** The NVP API credentials the shop must send. */
  api: { user: string; password: string; signature: string };
}

export interface PaypalSimulatorOptions {
  clock?: () => Date;
  fetchImpl?: FetchImpl;
  /** Waits before the second, third, … IPN attempt when the shop does not answer 2xx. */
  retryDelaysMs?: number[];
  /** Time allowed for one IPN attempt. */
  callbackTimeoutMs?: number;
  /**
   * Where an IPN for `notify_url` is really posted; by default `notify_url` itself. Lets a test-mode
   * shop behind a proxy receive its IPNs on loopback.
   */
  resolveNotifyUrl?: (notifyUrl: string) => string;
  /** The sandbox payer. */
  payerEmail?: string;
  /** How long after answering a refund its IPN is sent (PayPal sends it a moment later). */
  refundIpnDelayMs?: number;
}

export interface PaypalRefund {
  /** The refund's own transaction id. */
  txnId: string;
  parentTxnId: string;
  invoice: string;
  /** Minor units, positive. */
  amountMinor: number;
}

export interface PaypalCartItem {
  name: string;
  /** Two decimals, per unit. */
  amount: string;
  quantity: number;
  shipping: string;
}

export interface PaypalCart {
  invoice: string;
  currency: string;
  items: PaypalCartItem[];
  /** Sum of amount × quantity + shipping, two decimals. */
  total: string;
  notifyUrl: string;
  returnUrl: string;
  cancelUrl: string;
  custom: string;
  lang: 'ru' | 'en';
  payer: {
    email: string;
    firstName: string;
    lastName: string;
    address: string;
    city: string;
    zip: string;
    country: string;
  };
}

export interface PaypalIpnAttempt {
  status: number | null;
  at: Date;
  error?: string;
}

export interface PaypalSentIpn {
  invoice: string;
  /** The body exactly as posted. */
  body: string;
  /** The fields in the order sent. */
  entries: Array<[string, string]>;
  fields: Record<string, string>;
  notifyUrl: string;
  /** Verification answers VERIFIED for it (false for a forgery). */
  genuine: boolean;
  attempts: PaypalIpnAttempt[];
}

export interface PaypalSimulatorState {
  /** Carts received on the checkout page, by invoice. */
  carts: Map<string, PaypalCart>;
  /** Every IPN sent, oldest first. */
  sentIpns: PaypalSentIpn[];
  /**
   * Sends one IPN for a known invoice now (no retries): by default the last IPN sent for it again
   * (a duplicate), or a fresh Completed one. `overrides` set fields (null removes one), e.g.
   * `{ mc_gross: '1.00' }` or `{ receiver_email: 'other@example.com' }`; `forge` sends it without
   * registering it, so verification answers INVALID.
   */
  sendIpn(
    invoice: string,
    overrides?: Record<string, string | null>,
    options?: { forge?: boolean },
  ): Promise<PaypalSentIpn>;
  /** Refunds made through the NVP API, oldest first. */
  refunds: PaypalRefund[];
  /**
   * REFUNDSTATUS of the next refunds: `Instant` unless a test wants PayPal's `Delayed` (the money
   * leaves later; the refund's IPN says when).
   */
  newRefundStatus: 'Instant' | 'Delayed';
  /**
   * A Refunded IPN for the last completed payment of `invoice` (the whole amount unless given),
   * as when the merchant refunds on PayPal's own site, without the NVP API.
   */
  sendRefund(invoice: string, amount?: string): Promise<PaypalSentIpn>;
  /** Resolves when no IPN retry is pending. */
  settled(): Promise<void>;
}

export interface PaypalSimulator {
  plugin: (app: FastifyInstance) => Promise<void>;
  state: PaypalSimulatorState;
}

const SUPPORTED_CURRENCIES = new Set([
  'AUD',
  'BRL',
  'CAD',
  'CHF',
  'CZK',
  'DKK',
  'EUR',
  'GBP',
  'HKD',
  'ILS',
  'MXN',
  'NOK',
  'NZD',
  'PHP',
  'PLN',
  'RUB',
  'SEK',
  'SGD',
  'THB',
  'USD',
]);
const REQUIRED = [
  'business',
  'currency_code',
  'invoice',
  'notify_url',
  'return',
  'cancel_return',
  'item_name_1',
  'amount_1',
];
const VALIDATE_PREFIX = 'cmd=_notify-validate&';
const AMOUNT = /^\d{1,10}(\.\d{1,2})?$/;

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (character) =>
      ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[character] as string,
  );
}

const toCents = (amount: string) => {
  const [whole = '0', fraction = ''] = amount.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0').slice(0, 2));
};

const fromCents = (cents: number) => {
  const sign = cents < 0 ? '-' : '';
  const absolute = Math.abs(cents);
  return `${sign}${Math.floor(absolute / 100)}.${String(absolute % 100).padStart(2, '0')}`;
};

const randomCode = (length: number) => {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789';
  return Array.from(randomBytes(length), (byte) => alphabet[byte % alphabet.length]).join('');
};

/** PayPal's IPN date: `20:12:59 Jan 13, 2009 PST` (Pacific time; standard offset kept for simplicity). */
function paypalDate(date: Date): string {
  const pacific = new Date(date.getTime() - 8 * 3_600_000);
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const time = pacific.toISOString().slice(11, 19);
  return `${time} ${months[pacific.getUTCMonth()]} ${String(pacific.getUTCDate()).padStart(2, '0')}, ${pacific.getUTCFullYear()} PST`;
}

type Lang = 'ru' | 'en';

const TEXT = {
  ru: {
    title: 'Оплата через PayPal',
    sandbox: 'Тестовая среда: деньги не списываются',
    merchant: 'Продавец',
    invoice: 'Счёт',
    item: 'Товар',
    quantity: 'Кол-во',
    price: 'Сумма',
    shipping: 'Доставка',
    total: 'Итого',
    payer: 'Покупатель',
    pay: 'Оплатить',
    cancel: 'Отменить',
    error: 'Ошибка',
  },
  en: {
    title: 'Pay with PayPal',
    sandbox: '',
    merchant: 'Merchant',
    invoice: 'Invoice',
    item: 'Item',
    quantity: 'Qty',
    price: 'Amount',
    shipping: 'Shipping',
    total: 'Total',
    payer: 'Payer',
    pay: 'Pay',
    cancel: 'Cancel',
    error: 'Error',
  },
} as const;

const STYLE = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f5f7fa;color:#1c2433}
.sandbox{margin:0;padding:.6rem 1rem;background:#ffd84d;color:#1c2433;font-weight:700;text-align:center;letter-spacing:.02em}
main{max-width:36rem;margin:1.5rem auto;padding:0 1rem}
.card{background:#fff;border-radius:12px;padding:1.5rem;box-shadow:0 2px 10px rgba(20,30,50,.12)}
h1{margin:0 0 .5rem;font-size:1.5rem;color:#003087}
.meta{margin:0 0 1rem;color:#4a5568}
caption{text-align:left}
table{width:100%;border-collapse:collapse;margin:0 0 1.5rem}
th,td{padding:.5rem .25rem;border-bottom:1px solid #e2e8f0;text-align:left;vertical-align:top}
td.num,th.num{text-align:right;white-space:nowrap}
tfoot th,tfoot td{border-bottom:0}
tfoot .total th,tfoot .total td{font-size:1.2rem;font-weight:700}
.actions{display:flex;flex-wrap:wrap;gap:.75rem}
.actions form{flex:1 1 10rem;margin:0}
button{width:100%;min-height:48px;padding:.6rem 1rem;border:2px solid transparent;border-radius:24px;font:inherit;font-weight:700;cursor:pointer}
button:focus-visible{outline:3px solid #1a56db;outline-offset:2px}
.pay{background:#0070ba;color:#fff}.cancel{background:#fff;color:#1c2433;border-color:#8a94a6}
`;

function htmlPage(lang: Lang, title: string, content: string): string {
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} · PayPal sandbox</title>
<style>${STYLE}</style>
</head>
<body>
<p class="sandbox" role="note"><span lang="en">SANDBOX — no real money</span>${
    lang === 'ru' ? ` · ${escapeHtml(TEXT.ru.sandbox)}` : ''
  }</p>
<main>
<div class="card">
${content}
</div>
</main>
</body>
</html>`;
}

class PageError extends Error {
  constructor(
    readonly english: string,
    readonly russian: string,
  ) {
    super(english);
  }
}

function errorPage(lang: Lang, error: PageError): string {
  const heading = lang === 'ru' ? error.russian : error.english;
  const english = lang === 'ru' ? `<p lang="en">${escapeHtml(error.english)}</p>` : '';
  return htmlPage(lang, TEXT[lang].error, `<h1>${escapeHtml(heading)}</h1>${english}`);
}

/** Form body → fields; repeated names keep their first value. */
function readForm(request: FastifyRequest): Record<string, string> {
  const fields: Record<string, string> = {};
  if (!Buffer.isBuffer(request.body)) return fields;
  for (const [name, value] of new URLSearchParams(request.body.toString('utf8'))) {
    if (!Object.hasOwn(fields, name)) fields[name] = value;
  }
  return fields;
}

const langOf = (lc: string | undefined): Lang => (/^ru/i.test(lc ?? '') ? 'ru' : 'en');

/** An address on the shop at `shopUrl`: its origin, below its path, with no user name in it. */
function isShopAddress(value: string, shopUrl: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  const shop = new URL(shopUrl);
  return (
    url.origin === shop.origin &&
    url.username === '' &&
    url.password === '' &&
    url.pathname.startsWith(shop.pathname.replace(/\/?$/, '/'))
  );
}

export function createPaypalSimulator(
  settings: PaypalSimulatorSettings,
  options: PaypalSimulatorOptions = {},
): PaypalSimulator {
  const clock = options.clock ?? (() => new Date());
  const fetchImpl = options.fetchImpl ?? fetch;
  const retryDelays = options.retryDelaysMs ?? [2_000, 10_000, 60_000];
  const callbackTimeout = options.callbackTimeoutMs ?? 5_000;
  const resolveNotifyUrl = options.resolveNotifyUrl ?? ((url: string) => url);
  const payerEmail = options.payerEmail ?? 'buyer@sandbox.paypal.example';
  const receiverId =
    settings.receiverId ??
    createHash('sha256').update(settings.business.toLowerCase()).digest('hex').slice(0, 13).toUpperCase();
  const payerId = randomCode(13);
  const sealKey = randomBytes(32);
  const carts = new Map<string, PaypalCart>();
  const sentIpns: PaypalSentIpn[] = [];
  const genuineBodies = new Set<string>();
  const pending = new Set<Promise<void>>();
  const refunds: PaypalRefund[] = [];
  const refundIpnDelay = options.refundIpnDelayMs ?? 200;
  let closed = false;

  const isOurs = (business: string) =>
    business.trim().toLowerCase() === settings.business.trim().toLowerCase() ||
    business.trim() === receiverId;

  /** Like PayPal with "block duplicate invoice IDs" on: an invoice is paid once. */
  function checkNotPaid(invoice: string) {
    if (
      sentIpns.some(
        (ipn) => ipn.invoice === invoice && ipn.genuine && ipn.fields.payment_status === 'Completed',
      )
    ) {
      throw new PageError(
        'This invoice has already been paid. For more information, please contact the merchant.',
        'Этот счёт уже оплачен. Обратитесь к продавцу.',
      );
    }
  }

  function acceptCart(form: Record<string, string>): PaypalCart {
    if (form.cmd !== '_cart' || form.upload !== '1') {
      throw new PageError(
        'Only cart uploads (cmd=_cart, upload=1) are simulated',
        'Поддерживается только загрузка корзины (cmd=_cart, upload=1)',
      );
    }
    const missing = REQUIRED.filter((name) => !form[name]);
    if (missing.length > 0) {
      throw new PageError(`Missing fields: ${missing.join(', ')}`, `Не хватает полей: ${missing.join(', ')}`);
    }
    if (!isOurs(form.business as string)) {
      throw new PageError(
        'We cannot process this transaction because there is a problem with the PayPal email address supplied by the seller',
        'Платёж невозможен: у продавца указан неверный адрес PayPal',
      );
    }
    const currency = (form.currency_code as string).toUpperCase();
    if (!SUPPORTED_CURRENCIES.has(currency)) {
      throw new PageError(`Unsupported currency_code ${currency}`, `Валюта ${currency} не поддерживается`);
    }
    for (const name of ['notify_url', 'return', 'cancel_return']) {
      if (!isShopAddress(form[name] as string, settings.shopUrl)) {
        throw new PageError(
          `${name} must be an address of the shop (${settings.shopUrl})`,
          `${name} должен быть адресом магазина (${settings.shopUrl})`,
        );
      }
    }
    const items: PaypalCartItem[] = [];
    for (let index = 1; form[`item_name_${index}`]; index++) {
      const amount = form[`amount_${index}`] ?? '';
      const quantity = form[`quantity_${index}`] ?? '1';
      const shipping = form[`shipping_${index}`] ?? '0.00';
      if (!AMOUNT.test(amount) || !AMOUNT.test(shipping) || !/^[1-9]\d{0,5}$/.test(quantity)) {
        throw new PageError(
          `Item ${index} has an invalid amount, quantity or shipping`,
          `У товара ${index} неверная сумма, количество или доставка`,
        );
      }
      items.push({
        name: form[`item_name_${index}`] as string,
        amount: fromCents(toCents(amount)),
        quantity: Number(quantity),
        shipping: fromCents(toCents(shipping)),
      });
    }
    const totalCents = items.reduce(
      (sum, item) => sum + toCents(item.amount) * item.quantity + toCents(item.shipping),
      0,
    );
    if (totalCents <= 0) throw new PageError('The total must be above zero', 'Сумма должна быть больше нуля');
    const invoice = form.invoice as string;
    checkNotPaid(invoice);
    return {
      invoice,
      currency,
      items,
      total: fromCents(totalCents),
      notifyUrl: form.notify_url as string,
      returnUrl: form.return as string,
      cancelUrl: form.cancel_return as string,
      custom: form.custom ?? '',
      lang: langOf(form.lc),
      payer: {
        email: form.email || payerEmail,
        firstName: form.first_name ?? '',
        lastName: form.last_name ?? '',
        address: form.address1 ?? '',
        city: form.city ?? '',
        zip: form.zip ?? '',
        country: (form.country ?? 'US').toUpperCase(),
      },
    };
  }

  const seal = (cart: PaypalCart) => {
    const payload = Buffer.from(JSON.stringify(cart)).toString('base64url');
    return { payload, mac: createHmac('sha256', sealKey).update(payload).digest('hex') };
  };

  function unseal(form: Record<string, string>): PaypalCart {
    const payload = form.cart ?? '';
    const expected = createHmac('sha256', sealKey).update(payload).digest();
    const received = Buffer.from(/^[0-9a-f]{64}$/.test(form.mac ?? '') ? (form.mac as string) : '', 'hex');
    if (received.length !== expected.length || !timingSafeEqual(received, expected)) {
      throw new PageError('The cart was altered', 'Корзина была изменена');
    }
    return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as PaypalCart;
  }

  function fee(cart: PaypalCart): string {
    const cents = toCents(cart.total);
    // Roughly PayPal's cross-border rates: a percentage and a fixed part in the currency.
    const fixed = cart.currency === 'RUB' ? 1_000 : 49;
    return fromCents(Math.round(cents * 0.0349) + fixed);
  }

  function completedIpn(cart: PaypalCart): Array<[string, string]> {
    const shipping = cart.items.reduce((sum, item) => sum + toCents(item.shipping), 0);
    const entries: Array<[string, string]> = [
      ['mc_gross', cart.total],
      ['invoice', cart.invoice],
      ['protection_eligibility', 'Eligible'],
      ['payer_id', payerId],
      ['payment_date', paypalDate(clock())],
      ['payment_status', 'Completed'],
      ['charset', 'utf-8'],
      ['first_name', cart.payer.firstName],
      ['last_name', cart.payer.lastName],
      ['address_name', `${cart.payer.firstName} ${cart.payer.lastName}`.trim()],
      ['address_street', cart.payer.address],
      ['address_city', cart.payer.city],
      ['address_zip', cart.payer.zip],
      ['address_country_code', cart.payer.country],
      ['residence_country', cart.payer.country],
      ['mc_fee', fee(cart)],
      ['mc_shipping', fromCents(shipping)],
      ['notify_version', '3.9'],
      ['custom', cart.custom],
      ['payer_status', 'verified'],
      ['business', settings.business],
      ['num_cart_items', String(cart.items.length)],
    ];
    cart.items.forEach((item, index) => {
      const number = index + 1;
      entries.push(
        [`item_name${number}`, item.name],
        [`item_number${number}`, ''],
        [`quantity${number}`, String(item.quantity)],
        [`mc_shipping${number}`, item.shipping],
        [`mc_gross_${number}`, fromCents(toCents(item.amount) * item.quantity + toCents(item.shipping))],
      );
    });
    entries.push(
      ['verify_sign', randomBytes(28).toString('base64url')],
      ['payer_email', cart.payer.email],
      ['txn_id', randomCode(17)],
      ['payment_type', 'instant'],
      ['receiver_email', settings.business],
      ['receiver_id', receiverId],
      ['txn_type', 'cart'],
      ['mc_currency', cart.currency],
      ['test_ipn', '1'],
      ['transaction_subject', ''],
      ['ipn_track_id', randomCode(13).toLowerCase()],
    );
    return entries;
  }

  async function deliver(ipn: PaypalSentIpn): Promise<boolean> {
    const attempt: PaypalIpnAttempt = { status: null, at: clock() };
    try {
      const response = await fetchImpl(resolveNotifyUrl(ipn.notifyUrl), {
        method: 'POST',
        redirect: 'manual',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'user-agent': 'PayPal IPN ( https://www.paypal.com/ipn )',
        },
        body: ipn.body,
        signal: AbortSignal.timeout(callbackTimeout),
      });
      attempt.status = response.status;
      await response.body?.cancel().catch(() => {});
    } catch (error) {
      attempt.error = error instanceof Error ? error.message : String(error);
    }
    ipn.attempts.push(attempt);
    return attempt.status !== null && attempt.status >= 200 && attempt.status < 300;
  }

  function record(invoice: string, entries: Array<[string, string]>, notifyUrl: string, genuine: boolean) {
    const body = new URLSearchParams(entries).toString();
    const ipn: PaypalSentIpn = {
      invoice,
      body,
      entries,
      fields: Object.fromEntries(entries),
      notifyUrl,
      genuine,
      attempts: [],
    };
    if (genuine) genuineBodies.add(body);
    sentIpns.push(ipn);
    return ipn;
  }

  /** First attempt now; further attempts in the background until the shop answers 2xx. */
  async function notify(ipn: PaypalSentIpn) {
    if ((await deliver(ipn)) || retryDelays.length === 0) return;
    const retries = (async () => {
      for (const delay of retryDelays) {
        await new Promise<void>((resolve) => setTimeout(resolve, delay).unref());
        if (closed) return;
        if (await deliver(ipn)) return;
      }
    })();
    pending.add(retries);
    void retries.finally(() => pending.delete(retries));
  }

  /** The Refunded IPN of `paid` (a genuine Completed IPN) for `amountMinor`, as its own transaction. */
  function refundIpn(paid: PaypalSentIpn, amountMinor: number, txnId: string): PaypalSentIpn {
    const overrides: Record<string, string> = {
      payment_status: 'Refunded',
      txn_id: txnId,
      parent_txn_id: paid.fields.txn_id ?? '',
      reason_code: 'refund',
      mc_gross: fromCents(-amountMinor),
      mc_fee: fromCents(
        -Math.round(
          (toCents(paid.fields.mc_fee ?? '0.00') * amountMinor) / toCents(paid.fields.mc_gross ?? '1'),
        ),
      ),
      payment_date: paypalDate(clock()),
      verify_sign: randomBytes(28).toString('base64url'),
    };
    const entries = paid.entries.map(([name, value]): [string, string] => [name, overrides[name] ?? value]);
    for (const [name, value] of Object.entries(overrides)) {
      if (!Object.hasOwn(paid.fields, name)) entries.push([name, value]);
    }
    return record(paid.invoice, entries, paid.notifyUrl, true);
  }

  const completedPayment = (txnId: string) =>
    sentIpns.find(
      (ipn) => ipn.genuine && ipn.fields.payment_status === 'Completed' && ipn.fields.txn_id === txnId,
    );

  /** NVP `RefundTransaction`: the answer's fields; a refund also schedules its IPN. */
  function refundTransaction(fields: Record<string, string>): Record<string, string> {
    const failure = (code: string, short: string, long: string) => ({
      ACK: 'Failure',
      L_ERRORCODE0: code,
      L_SHORTMESSAGE0: short,
      L_LONGMESSAGE0: long,
      L_SEVERITYCODE0: 'Error',
      TIMESTAMP: clock()
        .toISOString()
        .replace(/\.\d+Z$/, 'Z'),
      CORRELATIONID: randomCode(13).toLowerCase(),
      VERSION: fields.VERSION ?? '',
    });
    const { api } = settings;
    const same = (expected: string, received: string | undefined) => {
      const a = Buffer.from(expected);
      const b = Buffer.from(received ?? '');
      return a.length === b.length && timingSafeEqual(a, b);
    };
    if (
      !same(api.user, fields.USER) ||
      !same(api.password, fields.PWD) ||
      !same(api.signature, fields.SIGNATURE)
    ) {
      return failure('10002', 'Security error', 'Security header is not valid');
    }
    if (fields.METHOD !== 'RefundTransaction') {
      return failure('81002', 'Unspecified Method', 'Method Specified is not Supported');
    }
    const paid = completedPayment(fields.TRANSACTIONID ?? '');
    if (!paid)
      return failure(
        '10004',
        'Transaction refused because of an invalid argument',
        'The transaction id is not valid',
      );
    const currency = paid.fields.mc_currency ?? '';
    if ((fields.CURRENCYCODE ?? currency).toUpperCase() !== currency) {
      return failure(
        '10004',
        'Transaction refused because of an invalid argument',
        'The currency code is not valid',
      );
    }
    const refunded = refunds
      .filter((refund) => refund.parentTxnId === paid.fields.txn_id)
      .reduce((sum, refund) => sum + refund.amountMinor, 0);
    const left = toCents(paid.fields.mc_gross ?? '0') - refunded;
    let amountMinor: number;
    if (fields.REFUNDTYPE === 'Full') {
      if (refunded > 0)
        return failure('10009', 'Transaction refused', 'Can not do a full refund after a partial refund');
      if (fields.AMT)
        return failure(
          '10004',
          'Transaction refused because of an invalid argument',
          'You can not specify a partial amount with a full refund',
        );
      amountMinor = left;
    } else if (fields.REFUNDTYPE === 'Partial') {
      if (!AMOUNT.test(fields.AMT ?? '') || toCents(fields.AMT as string) === 0) {
        return failure(
          '10004',
          'Transaction refused because of an invalid argument',
          'The partial refund amount is not valid',
        );
      }
      amountMinor = toCents(fields.AMT as string);
    } else {
      return failure(
        '10004',
        'Transaction refused because of an invalid argument',
        'The refund type is not valid',
      );
    }
    if (left <= 0)
      return failure('10009', 'Transaction refused', 'This transaction has already been fully refunded');
    if (amountMinor > left) {
      return failure(
        '10009',
        'Transaction refused',
        'The partial refund amount must be less than or equal to the remaining amount',
      );
    }
    const refund: PaypalRefund = {
      txnId: randomCode(17),
      parentTxnId: paid.fields.txn_id ?? '',
      invoice: paid.invoice,
      amountMinor,
    };
    refunds.push(refund);
    const later = (async () => {
      await new Promise<void>((resolve) => setTimeout(resolve, refundIpnDelay).unref());
      if (!closed) await notify(refundIpn(paid, amountMinor, refund.txnId));
    })();
    pending.add(later);
    void later.finally(() => pending.delete(later));
    return {
      REFUNDTRANSACTIONID: refund.txnId,
      FEEREFUNDAMT: '0.00',
      GROSSREFUNDAMT: fromCents(amountMinor),
      NETREFUNDAMT: fromCents(amountMinor),
      CURRENCYCODE: currency,
      TOTALREFUNDEDAMOUNT: fromCents(refunded + amountMinor),
      REFUNDSTATUS: state.newRefundStatus,
      PENDINGREASON: state.newRefundStatus === 'Instant' ? 'None' : 'echeck',
      TIMESTAMP: clock()
        .toISOString()
        .replace(/\.\d+Z$/, 'Z'),
      CORRELATIONID: randomCode(13).toLowerCase(),
      ACK: 'Success',
      VERSION: fields.VERSION ?? '',
    };
  }

  function checkoutPage(cart: PaypalCart): string {
    const text = TEXT[cart.lang];
    const money = new Intl.NumberFormat(cart.lang === 'ru' ? 'ru-RU' : 'en-US', {
      style: 'currency',
      currency: cart.currency,
    });
    const format = (amount: string) => escapeHtml(money.format(toCents(amount) / 100));
    const shipping = cart.items.reduce((sum, item) => sum + toCents(item.shipping), 0);
    const rows = cart.items
      .map(
        (item) =>
          `<tr><td>${escapeHtml(item.name)}</td><td class="num">${item.quantity}</td><td class="num">${format(
            fromCents(toCents(item.amount) * item.quantity),
          )}</td></tr>`,
      )
      .join('');
    const { payload, mac } = seal(cart);
    const hidden = `<input type="hidden" name="cart" value="${payload}"><input type="hidden" name="mac" value="${mac}">`;
    const button = (action: 'pay' | 'cancel') =>
      `<form method="post" action="/sandbox/paypal/${action}">${hidden}<button type="submit" class="${action}">${escapeHtml(text[action])}</button></form>`;
    const payer = [cart.payer.firstName, cart.payer.lastName].filter(Boolean).join(' ');
    return htmlPage(
      cart.lang,
      text.title,
      `<h1>${escapeHtml(text.title)}</h1>
<p class="meta">${text.merchant}: ${escapeHtml(settings.business)} · ${text.invoice} ${escapeHtml(cart.invoice)}${
        payer ? ` · ${text.payer}: ${escapeHtml(payer)}` : ''
      }</p>
<table>
<caption class="meta">${escapeHtml(cart.currency)}</caption>
<thead><tr><th scope="col">${text.item}</th><th scope="col" class="num">${text.quantity}</th><th scope="col" class="num">${text.price}</th></tr></thead>
<tbody>${rows}</tbody>
<tfoot>
<tr><th scope="row" colspan="2">${text.shipping}</th><td class="num">${format(fromCents(shipping))}</td></tr>
<tr class="total"><th scope="row" colspan="2">${text.total}</th><td class="num">${format(cart.total)}</td></tr>
</tfoot>
</table>
<div class="actions">${button('pay')}${button('cancel')}</div>`,
    );
  }

  /** The page's one `<style>` carries the nonce of the shop's Content-Security-Policy (ADR 0026). */
  const sendHtml = (reply: FastifyReply, status: number, html: string) =>
    reply
      .code(status)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(html.replace('<style>', `<style nonce="${reply.cspNonce?.style ?? ''}">`));

  async function plugin(app: FastifyInstance): Promise<void> {
    app.addHook('onClose', async () => {
      closed = true;
    });
    // A scope of its own: raw bodies here (the postback is compared byte for byte), the shop's parsers elsewhere.
    await app.register(async (scope) => {
      const form = 'application/x-www-form-urlencoded';
      if (scope.hasContentTypeParser(form)) scope.removeContentTypeParser(form);
      const raw = { parseAs: 'buffer' as const, bodyLimit: 64 * 1024 };
      scope.addContentTypeParser(form, raw, (_request, body, done) => done(null, body));

      scope.post('/sandbox/paypal', async (request, reply) => {
        const fields = readForm(request);
        const lang = langOf(fields.lc);
        try {
          const cart = acceptCart(fields);
          carts.set(cart.invoice, cart);
          return sendHtml(reply, 200, checkoutPage(cart));
        } catch (error) {
          if (error instanceof PageError) return sendHtml(reply, 400, errorPage(lang, error));
          throw error;
        }
      });

      scope.post('/sandbox/paypal/:action', async (request, reply) => {
        const { action } = request.params as { action: string };
        if (action !== 'pay' && action !== 'cancel') {
          return sendHtml(reply, 404, errorPage('en', new PageError('Not found', 'Не найдено')));
        }
        let cart: PaypalCart;
        try {
          cart = unseal(readForm(request));
        } catch (error) {
          if (error instanceof PageError || error instanceof SyntaxError) {
            return sendHtml(
              reply,
              400,
              errorPage('en', new PageError('The cart was altered', 'Корзина была изменена')),
            );
          }
          throw error;
        }
        if (action === 'cancel') return reply.redirect(cart.cancelUrl, 303);
        try {
          checkNotPaid(cart.invoice);
        } catch (error) {
          if (error instanceof PageError) return sendHtml(reply, 400, errorPage(cart.lang, error));
          throw error;
        }
        carts.set(cart.invoice, cart);
        await notify(record(cart.invoice, completedIpn(cart), cart.notifyUrl, true));
        return reply.redirect(cart.returnUrl, 303);
      });

      // The NVP API: server to server, answers are form-encoded.
      scope.post('/sandbox/paypal/nvp', async (request, reply) =>
        reply
          .type('text/plain; charset=utf-8')
          .send(new URLSearchParams(refundTransaction(readForm(request))).toString()),
      );

      // The verification postback: sent by the shop, not the browser.
      scope.post('/sandbox/paypal/ipn-verify', async (request, reply) => {
        const body = Buffer.isBuffer(request.body) ? request.body.toString('latin1') : '';
        const verified =
          body.startsWith(VALIDATE_PREFIX) && genuineBodies.has(body.slice(VALIDATE_PREFIX.length));
        return reply.type('text/html; charset=UTF-8').send(verified ? 'VERIFIED' : 'INVALID');
      });
    });
  }

  async function sendIpn(
    invoice: string,
    overrides: Record<string, string | null> = {},
    sendOptions: { forge?: boolean } = {},
  ): Promise<PaypalSentIpn> {
    const cart = carts.get(invoice);
    const previous = sentIpns.filter((ipn) => ipn.invoice === invoice).at(-1);
    if (!cart && !previous) throw new Error(`The PayPal simulator has not seen invoice ${invoice}`);
    const base = previous ? [...previous.entries] : completedIpn(cart as PaypalCart);
    const entries: Array<[string, string]> = [];
    const seen = new Set<string>();
    for (const [name, value] of base) {
      seen.add(name);
      const override = Object.hasOwn(overrides, name) ? overrides[name] : value;
      if (override !== null && override !== undefined) entries.push([name, override]);
    }
    for (const [name, value] of Object.entries(overrides)) {
      if (!seen.has(name) && value !== null) entries.push([name, value]);
    }
    const notifyUrl = previous?.notifyUrl ?? (cart as PaypalCart).notifyUrl;
    const ipn = record(invoice, entries, notifyUrl, !sendOptions.forge);
    await deliver(ipn);
    return ipn;
  }

  const state: PaypalSimulatorState = {
    carts,
    sentIpns,
    sendIpn,
    refunds,
    newRefundStatus: 'Instant',
    async sendRefund(invoice, amount) {
      const paid = sentIpns
        .filter((ipn) => ipn.invoice === invoice && ipn.genuine && ipn.fields.payment_status === 'Completed')
        .at(-1);
      if (!paid) throw new Error(`Invoice ${invoice} has no completed PayPal payment to refund`);
      const gross = toCents((amount ?? paid.fields.mc_gross ?? '0.00').replace(/^-/, ''));
      const ipn = refundIpn(paid, gross, randomCode(17));
      await deliver(ipn);
      return ipn;
    },
    async settled() {
      while (pending.size > 0) await Promise.all([...pending]);
    },
  };

  return { plugin, state };
}
