import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { kopecksToRoubles } from '../../contract/money.ts';

/**
 * Robokassa, payment method `robokassa` (see shared/providers.md, "Robokassa"). Pure functions: the
 * payment form's hidden fields, the checks of the three callbacks, and the OpStateExt status query.
 * No database and no routes; the order service decides what a verified callback means for an order.
 *
 * - ResultURL (server to server) is the only proof of payment: `verifyResultCallback`, then answer
 *   `resultAnswer(invoiceId)` as text/plain. Anything else makes Robokassa retry the notification.
 * - SuccessURL (browser) is signed with Password#1 and tells which order the shopper came back
 *   from; it never changes payment state (`verifySuccessRedirect`).
 * - FailURL (browser) is not signed (UNCONFIRMED in providers.md): `readFailRedirect` only reads it,
 *   so whoever acts on it must check that the order belongs to the visitor.
 * - `checkOperationState` asks Robokassa directly (OpStateExt), for a result page whose ResultURL
 *   notification has not arrived yet or for a reconciliation job; for a paid invoice it also gives
 *   the operation key (OpKey) that refunds name.
 * - `createRobokassaRefund` and `checkRobokassaRefund` are Robokassa's refund API ("API возвратов",
 *   https://docs.robokassa.ru/ru/refund-api): a refund is created by a JWT signed with Password#3
 *   (HS256) naming the OpKey, the sum as a number and the refunded items (`InvoiceItems`), posted as
 *   a JSON string (robokassa/cms-wordpress classes/Robokassa/Payment/RefundApi.php); it answers a
 *   request id whose state a second call reports. Both URLs are settings.
 * - `robokassaReceipt` is the payment form's 54-FZ `Receipt` (https://docs.robokassa.ru/ru/fiscalization):
 *   URL-encoded JSON signed right after InvId (after OutSumCurrency when sent);
 *   `attachSecondReceipt` registers the second (`full_payment`) receipt of a prepaid order
 *   (https://docs.robokassa.ru/ru/second-receipt; signed as robokassa/sdk-php
 *   src/Service/ReceiptService.php and src/Signature/SignatureService.php `signFiscal` do).
 */

export type FetchImpl = typeof fetch;

export const ROBOKASSA_HASH_ALGORITHMS = ['md5', 'ripemd160', 'sha1', 'sha256', 'sha384', 'sha512'] as const;
export type RobokassaHashAlgorithm = (typeof ROBOKASSA_HASH_ALGORITHMS)[number];

/** The shape of `config.payments.robokassa`. */
export interface RobokassaSettings {
  merchantLogin: string;
  password1: string;
  password2: string;
  /** Chosen in the shop's technical settings at Robokassa; the same for every signature. */
  hashAlgorithm: RobokassaHashAlgorithm;
  /** Where the browser posts the payment form (the real page or the local simulator). */
  paymentUrl: string;
  /** OpStateExt endpoint, called by the server. */
  opStateUrl: string;
  /** Signs refund requests (the refund API's JWT). */
  password3: string;
  /** The refund API: creates a refund (POST, the JWT as the body). */
  refundCreateUrl: string;
  /** The refund API: a refund's state (GET `?id={requestId}`). */
  refundStateUrl: string;
  /** Sends Robokassa's `IsTest=1` flag: the test Password#1/#2 pair, no real money. */
  isTest: boolean;
  /** RoboFiscal's `Receipt/Attach`: registers a second (final) receipt. */
  secondReceiptUrl: string;
}

/** VAT codes of a receipt item's `tax` (Robokassa's fiscalisation page, 2026 rates included). */
export const ROBOKASSA_TAXES = [
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
] as const;
export type RobokassaTax = (typeof ROBOKASSA_TAXES)[number];

/** Tax systems of a receipt's `sno`. */
export const ROBOKASSA_TAX_SYSTEMS = ['osn', 'usn_income', 'usn_income_outcome', 'esn', 'patent'] as const;
export type RobokassaTaxSystem = (typeof ROBOKASSA_TAX_SYSTEMS)[number];

/** A receipt item's `name`: at most 128 characters (54-FZ tag 1030). */
export const ROBOKASSA_RECEIPT_NAME_MAX = 128;

/** One line of a 54-FZ receipt, its sum in kopecks (the whole line after discounts). */
export interface RobokassaReceiptItem {
  name: string;
  quantity: number;
  /** Kopecks. */
  sum: number;
  tax: string;
  paymentMethod: string;
  paymentObject: string;
}

export interface RobokassaReceipt {
  sno?: string;
  items: readonly RobokassaReceiptItem[];
}

/** The receipt as Robokassa's JSON: sums in roubles as numbers, snake_case names. */
export function receiptJson(receipt: RobokassaReceipt): string {
  return JSON.stringify({
    ...(receipt.sno ? { sno: receipt.sno } : {}),
    items: receipt.items.map((item) => ({
      name: item.name,
      quantity: item.quantity,
      sum: kopecksToRoubles(item.sum),
      payment_method: item.paymentMethod,
      payment_object: item.paymentObject,
      tax: item.tax,
    })),
  });
}

/** The `Receipt` form field: the JSON, URL-encoded once; the signature hashes this same text. */
export const robokassaReceipt = (receipt: RobokassaReceipt): string =>
  encodeURIComponent(receiptJson(receipt));

export const ROBOKASSA_TIMEOUT_MS = 10_000;
/** InvId range accepted by Robokassa. */
export const ROBOKASSA_MAX_INVOICE_ID = 2_147_483_647;
/** Robokassa's limit for `Description`/`Desc`. */
export const ROBOKASSA_MAX_DESCRIPTION = 100;

/** OpStateExt `State/Code` values. */
export const ROBOKASSA_STATE = {
  initialised: 5,
  cancelled: 10,
  hold: 20,
  beingCredited: 50,
  refused: 60,
  suspended: 80,
  paid: 100,
} as const;

/** OpStateExt `Result/Code` values. */
export const ROBOKASSA_RESULT = {
  ok: 0,
  badSignature: 1,
  shopNotFound: 2,
  operationNotFound: 3,
  duplicateInvoice: 4,
  internalError: 1000,
} as const;

/** Custom parameters (`Shp_name` → value; Robokassa matches the prefix in any case). */
export type ShpParams = Record<string, string>;

/** Callback parameters as a web framework hands them over: values that are not strings are ignored. */
export type RobokassaParams = Readonly<Record<string, unknown>>;

const isShpName = (name: string) => /^shp_/i.test(name);

/**
 * Lowercase hex of H(parts.join(':')), with every `Shp_*` entry of `shp` appended as `Shp_key=value`,
 * sorted by key, as Robokassa's signatures require.
 */
export function robokassaSignature(
  algorithm: RobokassaHashAlgorithm,
  parts: readonly string[],
  shp: ShpParams = {},
): string {
  const custom = Object.keys(shp)
    .filter(isShpName)
    .sort()
    .map((name) => `${name}=${shp[name]}`);
  return createHash(algorithm)
    .update([...parts, ...custom].join(':'), 'utf8')
    .digest('hex');
}

/** Compares a received hex signature (any case) with ours in constant time. */
function signatureMatches(expected: string, received: string): boolean {
  const normalised = received.trim().toLowerCase();
  if (!/^[0-9a-f]+$/.test(normalised) || normalised.length !== expected.length) return false;
  return timingSafeEqual(Buffer.from(normalised, 'hex'), Buffer.from(expected, 'hex'));
}

/**
 * A dot-decimal amount ('1234.50', or Robokassa's '1234.500000') → integer minor units (kopecks or
 * cents); null when malformed or when it has a fraction of a kopeck.
 */
export function amountToMinor(text: string): number | null {
  const match = /^(\d{1,13})(?:\.(\d{1,8}))?$/.exec(text.trim());
  if (!match) return null;
  const whole = match[1] as string;
  const fraction = match[2] ?? '';
  if (/[^0]/.test(fraction.slice(2))) return null;
  return Number(whole) * 100 + Number(fraction.slice(0, 2).padEnd(2, '0'));
}

/** Robokassa's date form: ISO 8601 with the Moscow offset (UTC+3, no daylight saving), e.g. `2026-11-21T18:30:00+03:00`. */
export function robokassaDate(date: Date): string {
  const moscow = new Date(date.getTime() + 3 * 3_600_000).toISOString();
  return `${moscow.slice(0, 19)}+03:00`;
}

function parseInvoiceId(text: string): number | null {
  if (!/^\d{1,10}$/.test(text)) return null;
  const id = Number(text);
  return id >= 1 && id <= ROBOKASSA_MAX_INVOICE_ID ? id : null;
}

function stringParam(params: RobokassaParams, name: string): string | undefined {
  const value = params[name];
  return typeof value === 'string' ? value : undefined;
}

function shpParams(params: RobokassaParams): ShpParams {
  const shp: ShpParams = {};
  for (const [name, value] of Object.entries(params)) {
    if (isShpName(name) && typeof value === 'string') shp[name] = value;
  }
  return shp;
}

export interface RobokassaInvoice {
  /** The order id, sent as InvId. */
  id: number;
  /** Dot decimal with at most two decimals, e.g. '1234.50': roubles, or dollars when `currency` is USD. */
  outSum: string;
  /** '' = roubles; 'USD' bills dollars (a receipt cannot go with it: its sums are roubles). */
  currency: '' | 'USD';
  /** In the shopper's language, at most 100 characters. */
  description: string;
  /** The 54-FZ receipt, its items adding up to OutSum; none when the shop registers receipts elsewhere. */
  receipt?: RobokassaReceipt;
  expiresAt: Date;
  /** Prefills the payer's e-mail on Robokassa's page; sent as `Email` only when given. */
  email?: string;
  /** The shopper's locale, sent as `Culture`. */
  culture: 'ru' | 'en';
}

/**
 * The hidden fields of the payment form (spec section 7): MrchLogin, OutSum, OutSumCurrency, InvId,
 * Desc, Encoding, SignatureValue, ExpirationDate.
 *
 * Additions outside the spec's list: `Culture` (the shopper's language for Robokassa's page; not
 * signed), and, each only when it applies, `IsTest=1` when `settings.isTest` (Robokassa's test flag;
 * without it the test passwords are refused), `Email` when `invoice.email` is given, and `Receipt`
 * (signed: `MerchantLogin:OutSum:InvId[:OutSumCurrency]:Receipt:Password#1`). The form is posted:
 * a receipt makes it too long for a link.
 */
export function robokassaFormFields(
  settings: Pick<RobokassaSettings, 'merchantLogin' | 'password1' | 'hashAlgorithm' | 'isTest'>,
  invoice: RobokassaInvoice,
): Record<string, string> {
  if (!Number.isInteger(invoice.id) || invoice.id < 1 || invoice.id > ROBOKASSA_MAX_INVOICE_ID) {
    throw new RangeError(`InvId must be an integer from 1 to ${ROBOKASSA_MAX_INVOICE_ID}, got ${invoice.id}`);
  }
  if (!/^\d+(\.\d{1,2})?$/.test(invoice.outSum) || amountToMinor(invoice.outSum) === 0) {
    throw new RangeError(
      `OutSum must be a positive dot-decimal amount such as 1234.50, got "${invoice.outSum}"`,
    );
  }
  if (invoice.receipt) checkReceipt(invoice.receipt, invoice);
  if (invoice.description.length === 0 || invoice.description.length > ROBOKASSA_MAX_DESCRIPTION) {
    throw new RangeError(`Desc must be 1 to ${ROBOKASSA_MAX_DESCRIPTION} characters`);
  }
  if (Number.isNaN(invoice.expiresAt.getTime())) throw new RangeError('ExpirationDate is not a valid date');

  const invId = String(invoice.id);
  const signed = [settings.merchantLogin, invoice.outSum, invId];
  if (invoice.currency !== '') signed.push(invoice.currency);
  const receipt = invoice.receipt ? robokassaReceipt(invoice.receipt) : undefined;
  if (receipt) signed.push(receipt);
  signed.push(settings.password1);

  const fields: Record<string, string> = {
    MrchLogin: settings.merchantLogin,
    OutSum: invoice.outSum,
    OutSumCurrency: invoice.currency,
    InvId: invId,
    Desc: invoice.description,
    Encoding: 'utf-8',
    SignatureValue: robokassaSignature(settings.hashAlgorithm, signed),
    ExpirationDate: robokassaDate(invoice.expiresAt),
    Culture: invoice.culture,
  };
  if (invoice.email) fields.Email = invoice.email;
  if (receipt) fields.Receipt = receipt;
  if (settings.isTest) fields.IsTest = '1';
  return fields;
}

/** A receipt Robokassa would refuse: sums that miss OutSum, a name too long, a quantity or sum not positive. */
function checkReceipt(receipt: RobokassaReceipt, invoice: Pick<RobokassaInvoice, 'outSum' | 'currency'>) {
  if (invoice.currency !== '') {
    throw new RangeError(
      `a receipt's sums are roubles: it cannot go with OutSumCurrency ${invoice.currency}`,
    );
  }
  const total = receipt.items.reduce((sum, item) => sum + item.sum, 0);
  if (total !== amountToMinor(invoice.outSum)) {
    throw new RangeError(
      `the receipt's items add up to ${kopecksToRoubles(total)}, not OutSum ${invoice.outSum}`,
    );
  }
  for (const item of receipt.items) {
    if (item.name.length === 0 || item.name.length > ROBOKASSA_RECEIPT_NAME_MAX) {
      throw new RangeError(`a receipt item's name must be 1 to ${ROBOKASSA_RECEIPT_NAME_MAX} characters`);
    }
    if (!(item.quantity > 0) || !Number.isInteger(item.sum) || item.sum < 0) {
      throw new RangeError(`a receipt item needs a positive quantity and a sum in whole kopecks`);
    }
  }
}

export type RobokassaResultCallback =
  | {
      ok: true;
      invoiceId: number;
      /** Exactly as received, e.g. '1234.500000'. */
      outSum: string;
      /** OutSum in kopecks (or cents for a USD invoice). */
      amountMinor: number;
      fee?: string;
      email?: string;
      paymentMethod?: string;
      /** IncCurrLabel: how the payer paid. */
      currencyLabel?: string;
      shp: ShpParams;
    }
  | { ok: false; reason: string };

/**
 * Checks a ResultURL notification: SignatureValue = H(OutSum:InvId:Password#2[:Shp_…]), hashing
 * OutSum and InvId exactly as received. Only an `ok` result may mark an order paid, and the caller
 * must still compare `amountMinor` with the order and treat a repeated notification as a no-op.
 */
export function verifyResultCallback(
  settings: Pick<RobokassaSettings, 'password2' | 'hashAlgorithm'>,
  params: RobokassaParams,
): RobokassaResultCallback {
  const outSum = stringParam(params, 'OutSum');
  const invId = stringParam(params, 'InvId');
  const signature = stringParam(params, 'SignatureValue');
  if (outSum === undefined || invId === undefined || signature === undefined) {
    return { ok: false, reason: 'OutSum, InvId and SignatureValue are required' };
  }
  const invoiceId = parseInvoiceId(invId);
  if (invoiceId === null) return { ok: false, reason: `InvId "${invId}" is not a valid invoice number` };
  const amountMinor = amountToMinor(outSum);
  if (amountMinor === null) return { ok: false, reason: `OutSum "${outSum}" is not an amount` };
  const shp = shpParams(params);
  const expected = robokassaSignature(settings.hashAlgorithm, [outSum, invId, settings.password2], shp);
  if (!signatureMatches(expected, signature)) return { ok: false, reason: 'SignatureValue does not match' };

  const result: RobokassaResultCallback = { ok: true, invoiceId, outSum, amountMinor, shp };
  const fee = stringParam(params, 'Fee');
  const email = stringParam(params, 'EMail') ?? stringParam(params, 'Email');
  const paymentMethod = stringParam(params, 'PaymentMethod');
  const currencyLabel = stringParam(params, 'IncCurrLabel');
  if (fee) result.fee = fee;
  if (email) result.email = email;
  if (paymentMethod) result.paymentMethod = paymentMethod;
  if (currencyLabel) result.currencyLabel = currencyLabel;
  return result;
}

/** The plain-text answer Robokassa expects from ResultURL once the notification is accepted. */
export const resultAnswer = (invoiceId: number): string => `OK${invoiceId}`;

export type RobokassaRedirect =
  | { ok: true; invoiceId: number; outSum: string; culture?: string; shp: ShpParams }
  | { ok: false; reason: string };

/**
 * Checks a SuccessURL redirect: SignatureValue = H(OutSum:InvId:Password#1[:Shp_…]). Good for
 * showing which order the shopper paid; never for payment state (only ResultURL says that).
 */
export function verifySuccessRedirect(
  settings: Pick<RobokassaSettings, 'password1' | 'hashAlgorithm'>,
  params: RobokassaParams,
): RobokassaRedirect {
  const outSum = stringParam(params, 'OutSum');
  const invId = stringParam(params, 'InvId');
  const signature = stringParam(params, 'SignatureValue');
  if (outSum === undefined || invId === undefined || signature === undefined) {
    return { ok: false, reason: 'OutSum, InvId and SignatureValue are required' };
  }
  const invoiceId = parseInvoiceId(invId);
  if (invoiceId === null) return { ok: false, reason: `InvId "${invId}" is not a valid invoice number` };
  const shp = shpParams(params);
  const expected = robokassaSignature(settings.hashAlgorithm, [outSum, invId, settings.password1], shp);
  if (!signatureMatches(expected, signature)) return { ok: false, reason: 'SignatureValue does not match' };
  const culture = stringParam(params, 'Culture');
  return culture ? { ok: true, invoiceId, outSum, culture, shp } : { ok: true, invoiceId, outSum, shp };
}

/**
 * Reads a FailURL redirect (the shopper cancelled or the payment failed). It carries no signature
 * we can rely on, so it proves nothing: act on it only for an order the visitor owns, and only to
 * cancel an unpaid one.
 */
export function readFailRedirect(params: RobokassaParams): RobokassaRedirect {
  const invId = stringParam(params, 'InvId');
  if (invId === undefined) return { ok: false, reason: 'InvId is required' };
  const invoiceId = parseInvoiceId(invId);
  if (invoiceId === null) return { ok: false, reason: `InvId "${invId}" is not a valid invoice number` };
  const culture = stringParam(params, 'Culture');
  const outSum = stringParam(params, 'OutSum') ?? '';
  const shp = shpParams(params);
  return culture ? { ok: true, invoiceId, outSum, culture, shp } : { ok: true, invoiceId, outSum, shp };
}

export interface RobokassaOperationState {
  /** Result/Code: 0 ok, 1 bad signature, 2 shop not found, 3 operation not found, 4 duplicate, 1000 internal. */
  resultCode: number;
  resultDescription?: string;
  /** State/Code (see ROBOKASSA_STATE); only when resultCode is 0. */
  stateCode?: number;
  /** Info/OutSum as sent, e.g. '1234.500000'. */
  outSum?: string;
  /** The operation key of a paid invoice: what a refund names. */
  opKey?: string;
}

const operationStateParser = new XMLParser({
  ignoreAttributes: true,
  removeNSPrefix: true,
  parseTagValue: false,
  trimValues: true,
});

function child(node: unknown, name: string): unknown {
  return typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[name] : undefined;
}

function text(node: unknown): string | undefined {
  if (typeof node === 'string') return node;
  if (typeof node === 'number') return String(node);
  return undefined;
}

/** Reads an OpStateExt answer; element names are matched without their namespace prefix. */
export function parseOperationState(xml: string): RobokassaOperationState {
  const validation = XMLValidator.validate(xml);
  if (validation !== true) {
    throw new Error(`Robokassa OpStateExt answer is not well-formed XML: ${validation.err.msg}`);
  }
  const response = child(operationStateParser.parse(xml), 'OperationStateResponse');
  const code = text(child(child(response, 'Result'), 'Code'));
  if (code === undefined || !/^\d+$/.test(code)) {
    throw new Error('Robokassa OpStateExt answer has no OperationStateResponse/Result/Code');
  }
  const state: RobokassaOperationState = { resultCode: Number(code) };
  const description = text(child(child(response, 'Result'), 'Description'));
  if (description) state.resultDescription = description;
  const stateCode = text(child(child(response, 'State'), 'Code'));
  if (stateCode !== undefined && /^\d+$/.test(stateCode)) state.stateCode = Number(stateCode);
  const outSum = text(child(child(response, 'Info'), 'OutSum'));
  if (outSum !== undefined) state.outSum = outSum;
  const opKey = text(child(child(response, 'Info'), 'OpKey')) ?? text(child(response, 'OpKey'));
  if (opKey) state.opKey = opKey;
  return state;
}

/**
 * Asks Robokassa for the state of an invoice (OpStateExt, Signature = H(MerchantLogin:InvoiceID:Password#2)).
 * Throws when the service cannot be read (HTTP error, time-out, not its XML).
 */
export async function checkOperationState(
  settings: Pick<RobokassaSettings, 'merchantLogin' | 'password2' | 'hashAlgorithm' | 'opStateUrl'>,
  invoiceId: number,
  fetchImpl: FetchImpl = fetch,
  timeoutMs = ROBOKASSA_TIMEOUT_MS,
): Promise<RobokassaOperationState> {
  const url = new URL(settings.opStateUrl);
  url.searchParams.set('MerchantLogin', settings.merchantLogin);
  url.searchParams.set('InvoiceID', String(invoiceId));
  url.searchParams.set(
    'Signature',
    robokassaSignature(settings.hashAlgorithm, [
      settings.merchantLogin,
      String(invoiceId),
      settings.password2,
    ]),
  );
  const response = await fetchImpl(url, {
    signal: AbortSignal.timeout(timeoutMs),
    headers: { accept: 'text/xml, application/xml' },
  });
  if (!response.ok) {
    await response.body?.cancel().catch(() => {});
    throw new Error(`Robokassa OpStateExt answered HTTP ${response.status}`);
  }
  return parseOperationState(await response.text());
}

/** A compact JWT signed with HMAC-SHA256 (HS256), the refund API's request format. */
export function robokassaJwt(payload: Readonly<Record<string, unknown>>, password3: string): string {
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const signed = `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode(payload)}`;
  return `${signed}.${createHmac('sha256', password3).update(signed).digest('base64url')}`;
}

export type RobokassaRefundCreated =
  | { ok: true; requestId: string }
  /** Refused by Robokassa (an HTTP 4xx or `success: false` with its message), e.g. NotEnoughOperationFunds. */
  | { ok: false; message: string };

/** A refunded line as the refund API's `InvoiceItems` names it: the unit's cost and the count. */
export interface RobokassaInvoiceItem {
  Name: string;
  Quantity: number;
  /** Roubles per unit. */
  Cost: number;
  Tax: string;
  PaymentMethod: string;
  PaymentObject: string;
}

/**
 * Receipt lines → `InvoiceItems`, whose `Cost` is per unit: a line whose sum does not divide by its
 * quantity becomes two (the units at the lower cost, one unit taking the remaining kopecks), so
 * Quantity × Cost adds up to the line's sum exactly.
 */
export function invoiceItems(items: readonly RobokassaReceiptItem[]): RobokassaInvoiceItem[] {
  return items.flatMap((item) => {
    const line = (quantity: number, cost: number): RobokassaInvoiceItem => ({
      Name: item.name,
      Quantity: quantity,
      Cost: kopecksToRoubles(cost),
      Tax: item.tax,
      PaymentMethod: item.paymentMethod,
      PaymentObject: item.paymentObject,
    });
    const unit = Math.floor(item.sum / item.quantity);
    if (unit * item.quantity === item.sum) return [line(item.quantity, unit)];
    return [line(item.quantity - 1, unit), line(1, item.sum - unit * (item.quantity - 1))].filter(
      (entry) => entry.Quantity > 0,
    );
  });
}

/**
 * Asks Robokassa to refund a paid operation: `refundSum` (kopecks, sent as a number of roubles) and
 * the refunded receipt lines as `InvoiceItems`. The JWT goes as a JSON string, as Robokassa's own
 * WordPress plugin sends it. A refusal (HTTP 4xx, or `success: false`) is `{ ok: false, message }`;
 * anything else that is not Robokassa's answer (network, time-out, HTTP 5xx, not its JSON) throws:
 * nothing is known to have happened then.
 */
export async function createRobokassaRefund(
  settings: Pick<RobokassaSettings, 'password3' | 'refundCreateUrl'>,
  refund: { opKey: string; refundSum: number; items?: readonly RobokassaReceiptItem[] },
  fetchImpl: FetchImpl = fetch,
  timeoutMs = ROBOKASSA_TIMEOUT_MS,
): Promise<RobokassaRefundCreated> {
  if (!Number.isInteger(refund.refundSum) || refund.refundSum <= 0) {
    throw new RangeError(`RefundSum must be a positive number of kopecks, got ${refund.refundSum}`);
  }
  const payload = {
    OpKey: refund.opKey,
    RefundSum: kopecksToRoubles(refund.refundSum),
    ...(refund.items && refund.items.length > 0 ? { InvoiceItems: invoiceItems(refund.items) } : {}),
  };
  const response = await fetchImpl(settings.refundCreateUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(robokassaJwt(payload, settings.password3)),
    signal: AbortSignal.timeout(timeoutMs),
  });
  if (response.status >= 400 && response.status < 500) {
    const body = await response.text();
    const message = messageOf(body) ?? `HTTP ${response.status}`;
    return { ok: false, message };
  }
  const answer = await readJson(response, 'Refund/Create');
  if (answer.success === true && typeof answer.requestId === 'string' && answer.requestId !== '') {
    return { ok: true, requestId: answer.requestId };
  }
  return { ok: false, message: typeof answer.message === 'string' ? answer.message : 'refused' };
}

function messageOf(body: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(body);
    const message = (parsed as { message?: unknown } | null)?.message;
    return typeof message === 'string' && message !== '' ? message : undefined;
  } catch {
    return body.trim() === '' ? undefined : body.trim().slice(0, 200);
  }
}

/** The VAT rate in percent a code's sum includes (a price includes its VAT, so 20 and 20/120 alike). */
const VAT_PERCENT: Partial<Record<string, number>> = {
  vat5: 5,
  vat105: 5,
  vat7: 7,
  vat107: 7,
  vat10: 10,
  vat110: 10,
  vat20: 20,
  vat120: 20,
  vat22: 22,
  vat122: 22,
};

/** VAT in kopecks included in a line's sum (0 for none and vat0), rounded half up. */
export function vatOf(tax: string, sum: number): number {
  const rate = VAT_PERCENT[tax];
  return rate ? Math.round((sum * rate) / (100 + rate)) : 0;
}

/** The second (final, `full_payment`) receipt of a paid invoice (https://docs.robokassa.ru/ru/second-receipt). */
export interface RobokassaSecondReceipt {
  /** The receipt's own number, never an InvId of the shop. */
  id: number;
  /** The paid invoice (InvId). */
  originId: number;
  sno?: string;
  /** The shop's site. */
  url: string;
  items: readonly RobokassaReceiptItem[];
  email: string;
  phone?: string;
}

/** The request's JSON, as the documentation's example has it: sums in roubles, the prepayment credited (`payments` type 2). */
export function secondReceiptPayload(merchantLogin: string, receipt: RobokassaSecondReceipt) {
  const total = receipt.items.reduce((sum, item) => sum + item.sum, 0);
  const vats = new Map<string, number>();
  for (const item of receipt.items) vats.set(item.tax, (vats.get(item.tax) ?? 0) + vatOf(item.tax, item.sum));
  return {
    merchantId: merchantLogin,
    id: String(receipt.id),
    originId: String(receipt.originId),
    operation: 'sell',
    ...(receipt.sno ? { sno: receipt.sno } : {}),
    url: receipt.url,
    total: kopecksToRoubles(total),
    items: receipt.items.map((item) => ({
      name: item.name,
      quantity: item.quantity,
      sum: kopecksToRoubles(item.sum),
      tax: item.tax,
      payment_method: item.paymentMethod,
      payment_object: item.paymentObject,
    })),
    client: { email: receipt.email, ...(receipt.phone ? { phone: receipt.phone } : {}) },
    payments: [{ type: 2, sum: kopecksToRoubles(total) }],
    vats: [...vats].map(([type, sum]) => ({ type, sum: kopecksToRoubles(sum) })),
  };
}

/**
 * RoboFiscal's signed body: base64url(JSON) "." base64url(hex H(base64url(JSON) + Password#1)), H the
 * shop's hash algorithm (robokassa/sdk-php src/Signature/SignatureService.php `signFiscal`).
 */
export function fiscalBody(
  settings: Pick<RobokassaSettings, 'password1' | 'hashAlgorithm'>,
  payload: unknown,
): string {
  const encoded = Buffer.from(JSON.stringify(payload)).toString('base64url');
  const hex = createHash(settings.hashAlgorithm)
    .update(encoded + settings.password1, 'utf8')
    .digest('hex');
  return `${encoded}.${Buffer.from(hex).toString('base64url')}`;
}

export type SecondReceiptAnswer =
  | { ok: true; code: string; description?: string; opKey?: string }
  | { ok: false; message: string };

/**
 * Registers a second receipt (`Receipt/Attach`). RoboFiscal answers `ResultCode`: 0 accepted,
 * 1 waiting, 2 registered; 3 a receipt error, 1000 internal error, 1001 a bad signature are refusals
 * (`{ ok: false }`). Throws when there is no answer to read (network, HTTP error, not JSON).
 */
export async function attachSecondReceipt(
  settings: Pick<RobokassaSettings, 'merchantLogin' | 'password1' | 'hashAlgorithm' | 'secondReceiptUrl'>,
  receipt: RobokassaSecondReceipt,
  fetchImpl: FetchImpl = fetch,
  timeoutMs = ROBOKASSA_TIMEOUT_MS,
): Promise<SecondReceiptAnswer> {
  const response = await fetchImpl(settings.secondReceiptUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: fiscalBody(settings, secondReceiptPayload(settings.merchantLogin, receipt)),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const answer = await readJson(response, 'Receipt/Attach');
  const code = String(answer.ResultCode ?? '');
  const description = typeof answer.ResultDescription === 'string' ? answer.ResultDescription : undefined;
  if (!['0', '1', '2'].includes(code)) {
    return { ok: false, message: `ResultCode ${code || '?'}${description ? `: ${description}` : ''}` };
  }
  const opKey = typeof answer.OpKey === 'string' && answer.OpKey !== '' ? answer.OpKey : undefined;
  return { ok: true, code, ...(description ? { description } : {}), ...(opKey ? { opKey } : {}) };
}

/** A refund's state: `finished` (money sent), `processing`, or `canceled` (it will not happen). */
export type RobokassaRefundLabel = 'finished' | 'processing' | 'canceled';

export interface RobokassaRefundState {
  requestId: string;
  label: RobokassaRefundLabel;
  /** The refunded sum as Robokassa reports it. */
  amount?: string;
}

/** Asks the refund API for a refund's state. Throws when it cannot be read or names no known state. */
export async function checkRobokassaRefund(
  settings: Pick<RobokassaSettings, 'refundStateUrl'>,
  requestId: string,
  fetchImpl: FetchImpl = fetch,
  timeoutMs = ROBOKASSA_TIMEOUT_MS,
): Promise<RobokassaRefundState> {
  const url = new URL(settings.refundStateUrl);
  url.searchParams.set('id', requestId);
  const response = await fetchImpl(url, { signal: AbortSignal.timeout(timeoutMs) });
  const answer = await readJson(response, 'Refund/GetState');
  const label = answer.label;
  if (label !== 'finished' && label !== 'processing' && label !== 'canceled') {
    throw new Error(`Robokassa Refund/GetState answered no known state: ${JSON.stringify(label)}`);
  }
  const state: RobokassaRefundState = { requestId, label };
  if (typeof answer.amount === 'string' || typeof answer.amount === 'number')
    state.amount = String(answer.amount);
  return state;
}

async function readJson(response: Response, call: string): Promise<Record<string, unknown>> {
  if (!response.ok) {
    await response.body?.cancel().catch(() => {});
    throw new Error(`Robokassa ${call} answered HTTP ${response.status}`);
  }
  const body = await response.text();
  try {
    const parsed: unknown = JSON.parse(body);
    if (typeof parsed === 'object' && parsed !== null) return parsed as Record<string, unknown>;
  } catch {
    // Reported below.
  }
  throw new Error(`Robokassa ${call} answered what is not its JSON: ${JSON.stringify(body.slice(0, 80))}`);
}
