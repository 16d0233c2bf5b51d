import { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FetchImpl, RobokassaHashAlgorithm } from '../robokassa.ts';

/**
 * A local stand-in for Robokassa's payment page and its OpStateExt service, speaking the protocol of
 * shared/providers.md. It computes every signature itself (not with the shop's client), so a client
 * bug shows up as a refusal, as it would against the real service.
 *
 * - `GET|POST /sandbox/robokassa` — the payment page. Takes the form fields (MrchLogin or
 *   MerchantLogin, OutSum, OutSumCurrency, InvId, Desc or Description, Encoding, SignatureValue,
 *   ExpirationDate, IsTest, Culture, Email, Shp_*), checks the Password#1 signature, the login, the
 *   amount and the expiry, and answers an invoice page with Pay, Fail and Cancel buttons, or an error
 *   page with status 400 ("Invalid signature", …).
 * - `POST /sandbox/robokassa/pay` — the payment succeeds: state 100, the ResultURL notification is
 *   sent server to server (Password#2 signature, OutSum with six decimals like `1234.500000`) until
 *   the shop answers `OK{InvId}` (first attempt awaited, the retries in the background), then the
 *   browser goes (303) to SuccessURL with OutSum, InvId, SignatureValue (Password#1) and Culture.
 * - `POST /sandbox/robokassa/fail`, `/cancel` — state 60 (refused: a declined card) or 10
 *   (cancelled by the payer), the browser goes (303) to FailURL with OutSum, InvId and Culture.
 * - `GET|POST /sandbox/robokassa/opstate` — OpStateExt: `OperationStateResponse` XML in Robokassa's
 *   namespace; Result/Code 1 for a bad signature, 2 for another shop, 3 for an unknown invoice; a
 *   paid invoice's Info carries its OpKey.
 * - The form's `Receipt` (https://docs.robokassa.ru/ru/fiscalization): URL-encoded JSON, signed
 *   after InvId (and OutSumCurrency); refused unless its items (name of 1–128 characters, positive
 *   quantity, a known `tax`, `payment_method`, `payment_object`) add up to OutSum, and with a
 *   currency (its sums are roubles). Kept on the operation.
 * - `POST /sandbox/robokassa/refund/create` — the refund API (https://docs.robokassa.ru/ru/refund-api):
 *   the body is a JSON string holding a JWT (HS256, Password#3) naming OpKey, RefundSum as a number
 *   and optionally InvoiceItems (Name, Quantity, Cost, Tax, PaymentMethod, PaymentObject), whose
 *   Quantity × Cost must add up to RefundSum. Answers `{ success, requestId }`, or HTTP 400 with
 *   `{ success: false, message }`: InvalidToken (bad signature or algorithm), OperationNotFound,
 *   AlreadyRefunded, InvalidRefundSum, InvalidInvoiceItems, NotEnoughOperationFunds (more than the
 *   paid sum minus refunds not cancelled).
 * - `POST /sandbox/robokassa/receipt/attach` — RoboFiscal's second receipt
 *   (https://docs.robokassa.ru/ru/second-receipt): base64url(JSON) "." base64url(hex H(base64url(JSON)
 *   + Password#1)); a paid `originId`, `operation` sell, `full_payment` items adding up to `total`
 *   and to `payments`; one per operation. Answers `ResultCode` 0, or 1001 (bad signature), 3 (a bad
 *   receipt), 1000.
 * - `GET /sandbox/robokassa/refund/state?id=` — `{ requestId, amount, label }`, label `finished`,
 *   `processing` or `canceled`; tests choose the label new refunds get and settle them later.
 *
 * The buttons carry the invoice in a hidden field sealed with an HMAC, so the page cannot be edited
 * into paying another amount. For a USD invoice the notification repeats the invoice's OutSum (in
 * dollars); whether real Robokassa converts it to roubles there is UNCONFIRMED.
 *
 * Register it without a prefix in test mode; Robokassa's ResultURL, SuccessURL and FailURL are shop
 * settings at Robokassa, so they are settings here too.
 */

export interface RobokassaSimulatorSettings {
  merchantLogin: string;
  password1: string;
  password2: string;
  /** Signs refund API requests. */
  password3: string;
  hashAlgorithm: RobokassaHashAlgorithm;
  /** The shop's ResultURL, absolute and reachable from the server (e.g. on 127.0.0.1). */
  resultUrl: string;
  /** The shop's SuccessURL and FailURL (browser redirects), absolute. */
  successUrl: string;
  failUrl: string;
}

export interface RobokassaSimulatorOptions {
  clock?: () => Date;
  fetchImpl?: FetchImpl;
  /** Waits before the second, third, … ResultURL attempt when the shop does not answer OK{InvId}. */
  retryDelaysMs?: number[];
  /** Time allowed for one ResultURL attempt. */
  callbackTimeoutMs?: number;
  /** How ResultURL is called (a shop setting at Robokassa). */
  resultMethod?: 'POST' | 'GET';
  /** Shown on the invoice page. */
  shopName?: string;
  /** Robokassa's commission reported as Fee, in percent of OutSum. */
  feePercent?: number;
}

export interface RobokassaOperation {
  invoiceId: number;
  /** As the shop sent it, e.g. '1234.50'. */
  outSum: string;
  /** '' for roubles. */
  currency: string;
  description: string;
  culture: 'ru' | 'en';
  email: string | undefined;
  isTest: boolean;
  expiresAt: Date | undefined;
  shp: Record<string, string>;
  /** The form's Receipt, decoded, when it carried one. */
  receipt: ReceiptJson | undefined;
  /** OpStateExt State/Code: 5 initialised, 10 cancelled, 60 refused, 100 paid. */
  stateCode: number;
  /** How the shopper left the page, if they did. */
  outcome: 'paid' | 'failed' | 'cancelled' | undefined;
  /** The operation key, once paid. */
  opKey: string | undefined;
  requestDate: Date;
  stateDate: Date;
}

export interface RobokassaRefund {
  requestId: string;
  invoiceId: number;
  /** In minor units of the invoice's currency. */
  amountMinor: number;
  label: 'finished' | 'processing' | 'canceled';
  /** InvoiceItems as sent. */
  items: Record<string, unknown>[];
}

/** A second receipt accepted through Receipt/Attach: the request's JSON as sent. */
export interface RobokassaSecondReceiptRecord {
  originId: number;
  payload: Record<string, unknown>;
}

export interface RobokassaCallbackAttempt {
  invoiceId: number;
  /** The parameters sent to ResultURL. */
  params: Record<string, string>;
  forged: boolean;
  /** HTTP status of the shop's answer; null when it could not be reached. */
  status: number | null;
  body: string;
  /** The shop answered `OK{InvId}`. */
  accepted: boolean;
  at: Date;
  error?: string;
}

export interface RobokassaSimulatorState {
  /** Invoices the simulator has seen, by InvId. */
  operations: Map<number, RobokassaOperation>;
  /** Every ResultURL attempt, oldest first. */
  callbacks: RobokassaCallbackAttempt[];
  /** Refunds created through the refund API, by request id. */
  refunds: Map<string, RobokassaRefund>;
  /** Second receipts accepted through Receipt/Attach, oldest first. */
  secondReceipts: RobokassaSecondReceiptRecord[];
  /** The state a new refund starts in: `finished` unless a test wants one that is still processing. */
  newRefundLabel: RobokassaRefund['label'];
  /**
   * Sends one ResultURL notification now (no retries), for replays and forgeries in tests. `outSum`
   * is reformatted with six decimals like the real service; `forge` signs with a wrong Password#2.
   */
  sendResultCallback(
    invoiceId: number,
    outSum: string,
    options?: { forge?: boolean; fee?: string; email?: string; shp?: Record<string, string> },
  ): Promise<RobokassaCallbackAttempt>;
  /** Resolves when no notification retry is pending. */
  settled(): Promise<void>;
}

export interface RobokassaSimulator {
  plugin: (app: FastifyInstance) => Promise<void>;
  state: RobokassaSimulatorState;
}

const MAX_INVOICE_ID = 2_147_483_647;
const MAX_DESCRIPTION = 100;
const MAX_RECEIPT_NAME = 128;
const TAXES = [
  'none',
  'vat0',
  'vat5',
  'vat7',
  'vat10',
  'vat20',
  'vat22',
  'vat105',
  'vat107',
  'vat110',
  'vat120',
  'vat122',
];

/** A receipt as the form's JSON has it. */
export interface ReceiptJson {
  sno?: string;
  items: {
    name: string;
    quantity: number;
    sum: number;
    tax: string;
    payment_method: string;
    payment_object: string;
  }[];
}

/** Roubles as a JSON number → kopecks; null unless a non-negative amount of whole kopecks. */
function numberToKopecks(value: unknown): number | null {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) return null;
  const kopecks = Math.round(value * 100);
  return Math.abs(kopecks - value * 100) < 1e-6 ? kopecks : null;
}

/** A receipt item Robokassa would refuse, or null. */
function badReceiptItem(item: Record<string, unknown>): string | null {
  if (typeof item.name !== 'string' || item.name.length === 0 || item.name.length > MAX_RECEIPT_NAME) {
    return `name must be 1 to ${MAX_RECEIPT_NAME} characters`;
  }
  if (typeof item.quantity !== 'number' || !(item.quantity > 0)) return 'quantity must be a positive number';
  if (numberToKopecks(item.sum) === null) return 'sum must be a number of roubles';
  if (typeof item.tax !== 'string' || !TAXES.includes(item.tax)) return `unknown tax "${String(item.tax)}"`;
  if (typeof item.payment_method !== 'string' || typeof item.payment_object !== 'string') {
    return 'payment_method and payment_object are required';
  }
  return null;
}
const CURRENCIES = ['', 'USD', 'EUR', 'KZT'];
const STATE_INITIALISED = 5;
const STATE_CANCELLED = 10;
const STATE_REFUSED = 60;
const STATE_PAID = 100;
const NAMESPACE = 'http://auth.robokassa.ru/Merchant/WebService/';

const hash = (algorithm: RobokassaHashAlgorithm, text: string) =>
  createHash(algorithm).update(text, 'utf8').digest('hex');

/** `:Shp_a=1:Shp_b=2`, sorted by name, or ''. */
function shpSuffix(shp: Record<string, string>): string {
  return Object.keys(shp)
    .sort()
    .map((name) => `:${name}=${shp[name]}`)
    .join('');
}

function sameHex(expected: string, received: string | undefined): boolean {
  const normalised = (received ?? '').trim().toLowerCase();
  return (
    /^[0-9a-f]+$/.test(normalised) &&
    normalised.length === expected.length &&
    timingSafeEqual(Buffer.from(normalised, 'hex'), Buffer.from(expected, 'hex'))
  );
}

/** '1234.5' → '1234.500000', the way Robokassa writes sums in its notifications. */
export function formatRobokassaSum(amount: string): string {
  const match = /^(\d+)(?:\.(\d{1,6}))?$/.exec(amount.trim());
  if (!match) throw new RangeError(`"${amount}" is not an amount`);
  return `${match[1]}.${(match[2] ?? '').padEnd(6, '0')}`;
}

function toCents(amount: string): number {
  const [whole = '0', fraction = ''] = amount.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0').slice(0, 2));
}

/** Robokassa's dates: Moscow time with its offset. */
function moscowDate(date: Date): string {
  return `${new Date(date.getTime() + 3 * 3_600_000).toISOString().slice(0, 23)}+03:00`;
}

/** ISO 8601 with up to seven fraction digits (.NET style) → Date, or null. */
function parseExpiration(text: string): Date | null {
  const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2})?)(?:\.(\d+))?(Z|[+-]\d{2}:?\d{2})?$/.exec(
    text.trim(),
  );
  if (!match) return null;
  const fraction = match[2] ? `.${match[2].slice(0, 3).padEnd(3, '0')}` : '';
  const zone = match[3] ?? '+03:00';
  const date = new Date(`${match[1]}${fraction}${zone}`);
  return Number.isNaN(date.getTime()) ? null : date;
}

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (character) =>
      ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[character] as string,
  );
}

type Lang = 'ru' | 'en';

const TEXT = {
  ru: {
    title: 'Оплата заказа',
    sandbox: 'Тестовая среда: деньги не списываются',
    shop: 'Магазин',
    order: 'Номер заказа',
    description: 'Описание',
    amount: 'Сумма',
    expires: 'Оплатить до',
    pay: 'Оплатить',
    fail: 'Отказ в оплате',
    cancel: 'Отменить',
    hint: '«Отказ в оплате» изображает отклонённую карту; «Отменить» — уход покупателя.',
    error: 'Ошибка',
    back: 'Вернуться в магазин',
  },
  en: {
    title: 'Order payment',
    sandbox: 'Test environment: nothing is charged',
    shop: 'Shop',
    order: 'Order number',
    description: 'Description',
    amount: 'Amount',
    expires: 'Pay before',
    pay: 'Pay',
    fail: 'Fail',
    cancel: 'Cancel',
    hint: '“Fail” plays a declined card; “Cancel” plays the shopper walking away.',
    error: 'Error',
    back: 'Back to the shop',
  },
} as const;

const STYLE = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#eef1f5;color:#1d2330}
.sandbox{margin:0;padding:.6rem 1rem;background:#ffd84d;color:#1d2330;font-weight:700;text-align:center;letter-spacing:.02em}
main{max-width:34rem;margin:1.5rem auto;padding:0 1rem}
.card{background:#fff;border-radius:12px;padding:1.5rem;box-shadow:0 2px 10px rgba(20,30,50,.12)}
h1{margin:0 0 1rem;font-size:1.5rem}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.5rem 1rem;margin:0 0 1.5rem}
dt{color:#4a5568}dd{margin:0;font-weight:600;overflow-wrap:anywhere}
.total{font-size:1.25rem}
.actions{display:flex;flex-wrap:wrap;gap:.75rem}
.actions form{flex:1 1 9rem;margin:0}
button{width:100%;min-height:48px;padding:.6rem 1rem;border:2px solid transparent;border-radius:8px;font:inherit;font-weight:700;cursor:pointer}
button:focus-visible{outline:3px solid #1a56db;outline-offset:2px}
.pay{background:#137333;color:#fff}.fail{background:#b3261e;color:#fff}.cancel{background:#fff;color:#1d2330;border-color:#8a94a6}
.hint{margin:1rem 0 0;color:#4a5568;font-size:.9rem}
@media (max-width:30rem){dl{grid-template-columns:1fr}dt{margin-top:.25rem}}
`;

function htmlPage(lang: Lang, title: string, content: string): string {
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} · Robokassa sandbox</title>
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

/** An error the real page would show; `english` always appears, so tests read one language. */
class PageError extends Error {
  constructor(
    readonly english: string,
    readonly russian: string,
    readonly status = 400,
  ) {
    super(english);
  }
}

function errorPage(lang: Lang, error: PageError): string {
  const heading = lang === 'ru' ? error.russian : error.english;
  const english = lang === 'ru' ? `<p lang="en">${escapeHtml(error.english)}</p>` : '';
  return htmlPage(lang, TEXT[lang].error, `<h1>${escapeHtml(heading)}</h1>${english}`);
}

/** Query and form body merged (the body wins); repeated names keep their first value. */
function readParams(request: FastifyRequest): Record<string, string> {
  const params: Record<string, string> = {};
  const query = request.query as Record<string, string | string[] | undefined>;
  for (const [name, value] of Object.entries(query ?? {})) {
    const first = Array.isArray(value) ? value[0] : value;
    if (typeof first === 'string') params[name] = first;
  }
  if (Buffer.isBuffer(request.body)) {
    const seen = new Set<string>();
    for (const [name, value] of new URLSearchParams(request.body.toString('utf8'))) {
      if (seen.has(name)) continue;
      seen.add(name);
      params[name] = value;
    }
  }
  return params;
}

/** What the buttons carry, sealed with the simulator's HMAC. */
interface Ticket {
  invoiceId: number;
  outSum: string;
  currency: string;
  description: string;
  culture: Lang;
  email: string | undefined;
  isTest: boolean;
  expiresAt: string | undefined;
  shp: Record<string, string>;
  receipt?: ReceiptJson;
}

export function createRobokassaSimulator(
  settings: RobokassaSimulatorSettings,
  options: RobokassaSimulatorOptions = {},
): RobokassaSimulator {
  const clock = options.clock ?? (() => new Date());
  const fetchImpl = options.fetchImpl ?? fetch;
  const retryDelays = options.retryDelaysMs ?? [2_000, 10_000, 60_000];
  const callbackTimeout = options.callbackTimeoutMs ?? 5_000;
  const resultMethod = options.resultMethod ?? 'POST';
  const shopName = options.shopName ?? 'Vitrina';
  const feePercent = options.feePercent ?? 3.9;
  const sealKey = randomBytes(32);
  const operations = new Map<number, RobokassaOperation>();
  const callbacks: RobokassaCallbackAttempt[] = [];
  const refunds = new Map<string, RobokassaRefund>();
  const secondReceipts: RobokassaSecondReceiptRecord[] = [];
  const pending = new Set<Promise<void>>();
  let closed = false;

  const seal = (ticket: Ticket) => {
    const payload = Buffer.from(JSON.stringify(ticket)).toString('base64url');
    return { payload, mac: createHmac('sha256', sealKey).update(payload).digest('hex') };
  };

  function unseal(params: Record<string, string>): Ticket {
    const payload = params.invoice ?? '';
    const expected = createHmac('sha256', sealKey).update(payload).digest('hex');
    if (!sameHex(expected, params.mac)) {
      throw new PageError('The invoice was altered', 'Счёт был изменён');
    }
    return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Ticket;
  }

  function fee(outSum: string): string {
    const cents = Math.round((toCents(outSum) * feePercent) / 100);
    return formatRobokassaSum(`${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`);
  }

  function resultParams(
    invoiceId: number,
    outSum: string,
    extra: { forge?: boolean; fee?: string; email?: string; shp?: Record<string, string> },
  ): Record<string, string> {
    const sum = formatRobokassaSum(outSum);
    const shp = extra.shp ?? {};
    const password = extra.forge ? `${settings.password2}-forged` : settings.password2;
    return {
      OutSum: sum,
      InvId: String(invoiceId),
      Fee: extra.fee ?? fee(outSum),
      EMail: extra.email ?? 'payer@sandbox.robokassa.example',
      SignatureValue: hash(
        settings.hashAlgorithm,
        `${sum}:${invoiceId}:${password}${shpSuffix(shp)}`,
      ).toUpperCase(),
      PaymentMethod: 'BankCard',
      IncCurrLabel: 'BankCardPSR',
      ...shp,
    };
  }

  async function attempt(invoiceId: number, params: Record<string, string>, forged: boolean) {
    const body = new URLSearchParams(params).toString();
    const record: RobokassaCallbackAttempt = {
      invoiceId,
      params,
      forged,
      status: null,
      body: '',
      accepted: false,
      at: clock(),
    };
    try {
      const url = resultMethod === 'GET' ? `${settings.resultUrl}?${body}` : settings.resultUrl;
      const response = await fetchImpl(url, {
        method: resultMethod,
        redirect: 'manual',
        signal: AbortSignal.timeout(callbackTimeout),
        ...(resultMethod === 'POST'
          ? { body, headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' } }
          : {}),
      });
      record.status = response.status;
      record.body = (await response.text()).slice(0, 1_000);
      record.accepted = response.ok && record.body.trim() === `OK${invoiceId}`;
    } catch (error) {
      record.error = error instanceof Error ? error.message : String(error);
    }
    callbacks.push(record);
    return record;
  }

  /** First attempt now; if the shop did not answer OK{InvId}, the retries run in the background. */
  async function notify(invoiceId: number, params: Record<string, string>) {
    const first = await attempt(invoiceId, params, false);
    if (first.accepted || retryDelays.length === 0) return first;
    const retries = (async () => {
      for (const delay of retryDelays) {
        await new Promise<void>((resolve) => setTimeout(resolve, delay).unref());
        if (closed) return;
        if ((await attempt(invoiceId, params, false)).accepted) return;
      }
    })();
    pending.add(retries);
    void retries.finally(() => pending.delete(retries));
    return first;
  }

  /** The payment form → a ticket, or a PageError like the real page's refusals. */
  function acceptInvoice(params: Record<string, string>): Ticket {
    const login = params.MerchantLogin ?? params.MrchLogin ?? '';
    const outSum = params.OutSum ?? '';
    const invId = params.InvId ?? '';
    const currency = params.OutSumCurrency ?? '';
    const description = params.Description ?? params.Desc ?? '';
    const signature = params.SignatureValue;
    if (login === '' || outSum === '' || invId === '' || signature === undefined) {
      throw new PageError(
        'Missing parameters: MerchantLogin, OutSum, InvId and SignatureValue are required',
        'Не хватает параметров: MerchantLogin, OutSum, InvId и SignatureValue обязательны',
      );
    }
    if (login !== settings.merchantLogin) {
      throw new PageError('Shop not found', 'Магазин не найден');
    }
    if (!/^\d+(\.\d{1,6})?$/.test(outSum) || toCents(outSum) === 0) {
      throw new PageError('Invalid OutSum', 'Неверная сумма OutSum');
    }
    if (!/^\d{1,10}$/.test(invId) || Number(invId) < 1 || Number(invId) > MAX_INVOICE_ID) {
      throw new PageError('Invalid InvId', 'Неверный номер счёта InvId');
    }
    if (!CURRENCIES.includes(currency)) {
      throw new PageError('Unsupported OutSumCurrency', 'Неподдерживаемая валюта OutSumCurrency');
    }
    if (description.length > MAX_DESCRIPTION) {
      throw new PageError('Description is longer than 100 characters', 'Описание длиннее 100 символов');
    }
    const shp = Object.fromEntries(Object.entries(params).filter(([name]) => /^shp_/i.test(name)));
    const receiptText = params.Receipt;
    const signed = `${login}:${outSum}:${invId}${currency ? `:${currency}` : ''}${
      receiptText ? `:${receiptText}` : ''
    }:${settings.password1}${shpSuffix(shp)}`;
    if (!sameHex(hash(settings.hashAlgorithm, signed), signature)) {
      throw new PageError('Invalid signature', 'Неверная подпись (SignatureValue)');
    }
    const receipt = receiptText ? acceptReceipt(receiptText, outSum, currency) : undefined;
    let expiresAt: string | undefined;
    if (params.ExpirationDate) {
      const date = parseExpiration(params.ExpirationDate);
      if (date === null) throw new PageError('Invalid ExpirationDate', 'Неверная дата ExpirationDate');
      expiresAt = date.toISOString();
    }
    const ticket: Ticket = {
      invoiceId: Number(invId),
      outSum,
      currency,
      description,
      culture: params.Culture === 'en' ? 'en' : 'ru',
      email: params.Email || undefined,
      isTest: params.IsTest === '1' || params.IsTest?.toLowerCase() === 'true',
      expiresAt,
      shp,
      ...(receipt ? { receipt } : {}),
    };
    checkPayable(ticket);
    return ticket;
  }

  /** The form's Receipt: URL-encoded JSON whose items add up to OutSum, in roubles. */
  function acceptReceipt(text: string, outSum: string, currency: string): ReceiptJson {
    let parsed: unknown;
    try {
      parsed = JSON.parse(decodeURIComponent(text));
    } catch {
      throw new PageError('Receipt is not URL-encoded JSON', 'Receipt — не URL-кодированный JSON');
    }
    const items = (parsed as { items?: unknown } | null)?.items;
    if (!Array.isArray(items) || items.length === 0) {
      throw new PageError('Receipt has no items', 'В чеке (Receipt) нет позиций');
    }
    for (const item of items) {
      const problem = badReceiptItem(item as Record<string, unknown>);
      if (problem) throw new PageError(`Receipt item: ${problem}`, `Позиция чека: ${problem}`);
    }
    if (currency !== '') {
      throw new PageError(
        'Receipt sums are roubles: no OutSumCurrency',
        'Суммы чека в рублях: без OutSumCurrency',
      );
    }
    const total = items.reduce(
      (sum: number, item: { sum: number }) => sum + (numberToKopecks(item.sum) ?? 0),
      0,
    );
    if (total !== toCents(outSum)) {
      throw new PageError('Receipt items do not add up to OutSum', 'Сумма позиций чека не равна OutSum');
    }
    return parsed as ReceiptJson;
  }

  function checkPayable(ticket: Ticket) {
    if (ticket.expiresAt && Date.parse(ticket.expiresAt) <= clock().getTime()) {
      throw new PageError('The invoice has expired', 'Срок оплаты счёта истёк');
    }
    if (operations.get(ticket.invoiceId)?.stateCode === STATE_PAID) {
      throw new PageError('The invoice has already been paid', 'Счёт уже оплачен');
    }
  }

  function record(ticket: Ticket, stateCode: number, outcome: RobokassaOperation['outcome']) {
    const now = clock();
    const previous = operations.get(ticket.invoiceId);
    const operation: RobokassaOperation = {
      invoiceId: ticket.invoiceId,
      outSum: ticket.outSum,
      currency: ticket.currency,
      description: ticket.description,
      culture: ticket.culture,
      email: ticket.email,
      isTest: ticket.isTest,
      expiresAt: ticket.expiresAt ? new Date(ticket.expiresAt) : undefined,
      shp: ticket.shp,
      receipt: ticket.receipt,
      stateCode,
      outcome,
      opKey: stateCode === STATE_PAID ? (previous?.opKey ?? randomUUID()) : previous?.opKey,
      requestDate: previous?.requestDate ?? now,
      stateDate: now,
    };
    operations.set(ticket.invoiceId, operation);
    return operation;
  }

  function invoicePage(ticket: Ticket): string {
    const lang = ticket.culture;
    const text = TEXT[lang];
    const locale = lang === 'ru' ? 'ru-RU' : 'en-US';
    const amount = new Intl.NumberFormat(locale, {
      style: 'currency',
      currency: ticket.currency || 'RUB',
    }).format(toCents(ticket.outSum) / 100);
    const expiry = ticket.expiresAt
      ? `${new Intl.DateTimeFormat(locale, {
          dateStyle: 'long',
          timeStyle: 'short',
          timeZone: 'Europe/Moscow',
        }).format(new Date(ticket.expiresAt))} ${lang === 'ru' ? 'МСК' : 'Moscow time'}`
      : '';
    const { payload, mac } = seal(ticket);
    const hidden = `<input type="hidden" name="invoice" value="${payload}"><input type="hidden" name="mac" value="${mac}">`;
    const button = (action: 'pay' | 'fail' | 'cancel') =>
      `<form method="post" action="/sandbox/robokassa/${action}">${hidden}<button type="submit" class="${action}">${escapeHtml(text[action])}</button></form>`;
    return htmlPage(
      lang,
      text.title,
      `<h1>${escapeHtml(text.title)}</h1>
<dl>
<dt>${text.shop}</dt><dd>${escapeHtml(shopName)}</dd>
<dt>${text.order}</dt><dd>${ticket.invoiceId}</dd>
<dt>${text.description}</dt><dd>${escapeHtml(ticket.description)}</dd>
<dt>${text.amount}</dt><dd class="total">${escapeHtml(amount)}</dd>
${expiry ? `<dt>${text.expires}</dt><dd>${escapeHtml(expiry)}</dd>` : ''}
</dl>
<div class="actions">${button('pay')}${button('fail')}${button('cancel')}</div>
<p class="hint">${escapeHtml(text.hint)}</p>`,
    );
  }

  function redirectTo(base: string, params: Record<string, string>): string {
    const url = new URL(base);
    for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
    return url.toString();
  }

  function operationStateXml(params: Record<string, string>): string {
    const login = params.MerchantLogin ?? '';
    const invoiceId = params.InvoiceID ?? '';
    const result = (code: number, description: string) =>
      `<Result><Code>${code}</Code><Description>${escapeHtml(description)}</Description></Result>`;
    let body: string;
    if (login !== settings.merchantLogin) {
      body = result(2, 'Shop not found');
    } else if (
      !sameHex(hash(settings.hashAlgorithm, `${login}:${invoiceId}:${settings.password2}`), params.Signature)
    ) {
      body = result(1, 'Invalid signature');
    } else {
      const operation = /^\d{1,10}$/.test(invoiceId) ? operations.get(Number(invoiceId)) : undefined;
      if (!operation) {
        body = result(3, 'Operation not found');
      } else {
        const sum = formatRobokassaSum(operation.outSum);
        body = `<Result><Code>0</Code></Result><State><Code>${operation.stateCode}</Code><RequestDate>${moscowDate(
          operation.requestDate,
        )}</RequestDate><StateDate>${moscowDate(operation.stateDate)}</StateDate></State><Info><IncCurrLabel>BankCardPSR</IncCurrLabel><IncSum>${sum}</IncSum><IncAccount>411111******1111</IncAccount><PaymentMethod><Code>BankCard</Code><Description>Bank card</Description></PaymentMethod><OutCurrLabel>${
          operation.currency || 'BNR'
        }</OutCurrLabel><OutSum>${sum}</OutSum>${
          operation.opKey ? `<OpKey>${operation.opKey}</OpKey>` : ''
        }</Info>`;
      }
    }
    return `<?xml version="1.0" encoding="utf-8"?>\n<OperationStateResponse xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns="${NAMESPACE}">${body}</OperationStateResponse>`;
  }

  /** The refund API's Refund/Create: the JSON string of a JWT, then the operation, the sum and the items. */
  function createRefund(body: string): { status: number; answer: Record<string, unknown> } {
    const refused = (message: string) => ({ status: 400, answer: { success: false, message } });
    let token: unknown;
    try {
      token = JSON.parse(body);
    } catch {
      return refused('InvalidRequest');
    }
    if (typeof token !== 'string') return refused('InvalidRequest');
    const [header = '', payload = '', signature = ''] = token.split('.');
    const expected = createHmac('sha256', settings.password3).update(`${header}.${payload}`).digest();
    const received = Buffer.from(signature, 'base64url');
    let claims: Record<string, unknown>;
    try {
      const head = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as { alg?: unknown };
      if (
        head.alg !== 'HS256' ||
        received.length !== expected.length ||
        !timingSafeEqual(received, expected)
      ) {
        return refused('InvalidToken');
      }
      claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
    } catch {
      return refused('InvalidToken');
    }
    const operation = [...operations.values()].find(
      (candidate) => candidate.opKey !== undefined && candidate.opKey === claims.OpKey,
    );
    if (!operation || operation.stateCode !== STATE_PAID) return refused('OperationNotFound');
    const refunded = [...refunds.values()]
      .filter((refund) => refund.invoiceId === operation.invoiceId && refund.label !== 'canceled')
      .reduce((sum, refund) => sum + refund.amountMinor, 0);
    const left = toCents(operation.outSum) - refunded;
    if (left <= 0) return refused('AlreadyRefunded');
    const sum = claims.RefundSum === undefined ? left : numberToKopecks(claims.RefundSum);
    if (sum === null || sum === 0) return refused('InvalidRefundSum');
    const items = claims.InvoiceItems ?? [];
    if (!Array.isArray(items)) return refused('InvalidInvoiceItems');
    if (items.length > 0) {
      let total = 0;
      for (const item of items as Record<string, unknown>[]) {
        const cost = numberToKopecks(item.Cost);
        const quantity = item.Quantity;
        if (
          typeof item.Name !== 'string' ||
          item.Name.length === 0 ||
          item.Name.length > MAX_RECEIPT_NAME ||
          typeof quantity !== 'number' ||
          !(quantity > 0) ||
          cost === null ||
          typeof item.Tax !== 'string' ||
          !TAXES.includes(item.Tax) ||
          typeof item.PaymentMethod !== 'string' ||
          typeof item.PaymentObject !== 'string'
        ) {
          return refused('InvalidInvoiceItems');
        }
        total += Math.round(cost * quantity);
      }
      if (total !== sum) return refused('InvalidInvoiceItems');
    }
    if (sum > left) return refused('NotEnoughOperationFunds');
    const refund: RobokassaRefund = {
      requestId: randomUUID(),
      invoiceId: operation.invoiceId,
      amountMinor: sum,
      label: state.newRefundLabel,
      items: items as Record<string, unknown>[],
    };
    refunds.set(refund.requestId, refund);
    return { status: 200, answer: { success: true, requestId: refund.requestId, message: null } };
  }

  /** RoboFiscal's Receipt/Attach: the signed body, then a second receipt of a paid operation. */
  function attachReceipt(body: string): Record<string, unknown> {
    const answer = (code: string, description: string) => ({
      ResultCode: code,
      ResultDescription: description,
    });
    const [encoded = '', signature = ''] = body.trim().split('.');
    const hex = hash(settings.hashAlgorithm, encoded + settings.password1);
    if (Buffer.from(hex).toString('base64url') !== signature) return answer('1001', 'Invalid signature');
    let receipt: Record<string, unknown>;
    try {
      receipt = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')) as Record<string, unknown>;
    } catch {
      return answer('3', 'Not JSON');
    }
    const originId = Number(receipt.originId);
    const operation = operations.get(originId);
    if (receipt.merchantId !== settings.merchantLogin) return answer('3', 'Unknown merchantId');
    if (!operation || operation.stateCode !== STATE_PAID) return answer('3', 'Operation not found');
    if (receipt.operation !== 'sell') return answer('3', 'operation must be sell');
    if (String(receipt.id) === String(receipt.originId) || !/^\d+$/.test(String(receipt.id))) {
      return answer('3', 'id must be a number other than originId');
    }
    if (secondReceipts.some((entry) => entry.originId === originId)) {
      return answer('3', 'The operation already has its second receipt');
    }
    const items = receipt.items;
    if (!Array.isArray(items) || items.length === 0) return answer('3', 'No items');
    let total = 0;
    for (const item of items as Record<string, unknown>[]) {
      const problem = badReceiptItem(item);
      if (problem) return answer('3', problem);
      if (item.payment_method !== 'full_payment') return answer('3', 'payment_method must be full_payment');
      total += numberToKopecks(item.sum) ?? 0;
    }
    const payments = Array.isArray(receipt.payments) ? (receipt.payments as Record<string, unknown>[]) : [];
    const paid = payments.reduce((sum, payment) => sum + (numberToKopecks(payment.sum) ?? 0), 0);
    if (numberToKopecks(receipt.total) !== total || paid !== total) {
      return answer('3', 'total, items and payments do not agree');
    }
    secondReceipts.push({ originId, payload: receipt });
    return { ...answer('0', 'ok'), OpKey: operation.opKey };
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
    await app.register(async (scope) => {
      // The refund API takes the JWT as the whole body, whatever content type the client names.
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 16 * 1024 }, (_request, body, done) =>
        done(null, body),
      );
      scope.post('/sandbox/robokassa/refund/create', async (request, reply) => {
        const { status, answer } = createRefund(typeof request.body === 'string' ? request.body : '');
        return reply.code(status).send(answer);
      });
      scope.post('/sandbox/robokassa/receipt/attach', async (request, reply) =>
        reply.send(attachReceipt(typeof request.body === 'string' ? request.body : '')),
      );
      scope.get('/sandbox/robokassa/refund/state', async (request, reply) => {
        const { id } = request.query as { id?: string };
        const refund = id ? refunds.get(id) : undefined;
        if (!refund) return reply.code(404).send({ success: false, message: 'RefundNotFound' });
        return reply.send({
          requestId: refund.requestId,
          amount: (refund.amountMinor / 100).toFixed(2),
          label: refund.label,
        });
      });
    });
    // A scope of its own, so that reading raw form bodies does not touch the shop's parsers.
    await app.register(async (scope) => {
      const form = 'application/x-www-form-urlencoded';
      if (scope.hasContentTypeParser(form)) scope.removeContentTypeParser(form);
      scope.addContentTypeParser(form, { parseAs: 'buffer', bodyLimit: 64 * 1024 }, (_request, body, done) =>
        done(null, body),
      );

      scope.route({
        method: ['GET', 'POST'],
        url: '/sandbox/robokassa',
        handler: async (request, reply) => {
          const params = readParams(request);
          const lang: Lang = params.Culture === 'en' ? 'en' : 'ru';
          try {
            const ticket = acceptInvoice(params);
            record(ticket, STATE_INITIALISED, undefined);
            return sendHtml(reply, 200, invoicePage(ticket));
          } catch (error) {
            if (error instanceof PageError) return sendHtml(reply, error.status, errorPage(lang, error));
            throw error;
          }
        },
      });

      scope.post('/sandbox/robokassa/:action', async (request, reply) => {
        const { action } = request.params as { action: string };
        if (action !== 'pay' && action !== 'fail' && action !== 'cancel') {
          return sendHtml(reply, 404, errorPage('ru', new PageError('Not found', 'Не найдено', 404)));
        }
        const params = readParams(request);
        let ticket: Ticket;
        try {
          ticket = unseal(params);
          checkPayable(ticket);
        } catch (error) {
          if (error instanceof PageError) return sendHtml(reply, error.status, errorPage('ru', error));
          if (error instanceof SyntaxError) {
            return sendHtml(
              reply,
              400,
              errorPage('ru', new PageError('The invoice was altered', 'Счёт был изменён')),
            );
          }
          throw error;
        }
        const sum = formatRobokassaSum(ticket.outSum);
        if (action === 'pay') {
          record(ticket, STATE_PAID, 'paid');
          const notification = resultParams(ticket.invoiceId, ticket.outSum, {
            email: ticket.email,
            shp: ticket.shp,
          });
          await notify(ticket.invoiceId, notification);
          const signature = hash(
            settings.hashAlgorithm,
            `${sum}:${ticket.invoiceId}:${settings.password1}${shpSuffix(ticket.shp)}`,
          );
          return reply.redirect(
            redirectTo(settings.successUrl, {
              OutSum: sum,
              InvId: String(ticket.invoiceId),
              SignatureValue: signature,
              Culture: ticket.culture,
              ...ticket.shp,
            }),
            303,
          );
        }
        if (action === 'fail') record(ticket, STATE_REFUSED, 'failed');
        else record(ticket, STATE_CANCELLED, 'cancelled');
        return reply.redirect(
          redirectTo(settings.failUrl, {
            OutSum: sum,
            InvId: String(ticket.invoiceId),
            Culture: ticket.culture,
            ...ticket.shp,
          }),
          303,
        );
      });

      scope.route({
        method: ['GET', 'POST'],
        url: '/sandbox/robokassa/opstate',
        handler: async (request, reply) =>
          reply.type('text/xml; charset=utf-8').send(operationStateXml(readParams(request))),
      });
    });
  }

  const state: RobokassaSimulatorState = {
    operations,
    callbacks,
    refunds,
    secondReceipts,
    newRefundLabel: 'finished',
    sendResultCallback(invoiceId, outSum, extra = {}) {
      return attempt(invoiceId, resultParams(invoiceId, outSum, extra), extra.forge ?? false);
    },
    async settled() {
      while (pending.size > 0) await Promise.all([...pending]);
    },
  };

  return { plugin, state };
}
