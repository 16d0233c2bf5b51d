/**
 * PayPal Payments Standard, payment method `paypal` (see shared/providers.md, "PayPal"). Pure
 * functions: the cart-upload form, reading an IPN, the IPN postback and the merchant's checks.
 * No database and no routes.
 *
 * Handling an IPN, in order:
 * 1. keep the request body exactly as received (a raw content-type parser, not @fastify/formbody);
 * 2. `verifyIpn` posts it back to PayPal; a throw means "answer 5xx so PayPal sends it again";
 *    INVALID means forged or altered: answer 200 and ignore it;
 * 3. `parseIpn`, then `checkIpnPayment` against the order named by `invoice`;
 * 4. the caller makes `txn_id` idempotent (the same transaction can come again, also with a new
 *    status) and answers an empty 200.
 *
 * Refunds go through PayPal's NVP API (`refundTransaction`, METHOD=RefundTransaction), naming the
 * `txn_id` the payment's IPN carried; the refund then also arrives as an IPN (payment_status
 * Refunded, negative mc_gross, parent_txn_id = the payment), which `checkIpnPayment` reports as
 * `refunded`, never as a payment.
 */

export type FetchImpl = typeof fetch;

/** The shape of `config.payments.paypal`. */
export interface PaypalSettings {
  /** The `business` of the form: our PayPal e-mail (or merchant account id). */
  business: string;
  /** Our merchant account id; when set, an IPN's `receiver_id` must equal it. */
  receiverId: string | undefined;
  /** Where the browser posts the payment form (PayPal or the local simulator). */
  paymentUrl: string;
  /** Where IPNs are posted back for verification (server to server). */
  ipnVerifyUrl: string;
  /** Accept IPNs flagged `test_ipn=1` (PayPal's sandbox or the simulator). Off in production. */
  sandbox: boolean;
  /** The NVP API endpoint (refunds) and its signature-type credentials. */
  apiUrl: string;
  apiUser: string;
  apiPassword: string;
  apiSignature: string;
}

export const PAYPAL_TIMEOUT_MS = 10_000;

export interface PaypalOrder {
  id: number | string;
  locale: 'ru' | 'en';
  /** RUB for ru, USD otherwise (spec section 7). */
  currency: 'RUB' | 'USD';
  /** Dot decimal with two decimals, e.g. '1234.50', in `currency`. */
  productsCost: string;
  shippingCost: string;
  itemName: string;
  email: string;
  firstName: string;
  lastName: string;
  phone: string;
  /** Two-letter country code. */
  country: string;
  city: string;
  address: string;
  zip: string;
  notifyUrl: string;
  returnUrl: string;
  /** Without the order; `?order={id}` is added. */
  cancelUrl: string;
}

const TWO_DECIMALS = /^\d+\.\d{2}$/;

/**
 * The hidden fields of the payment form, exactly the spec's list (section 7): one cart item with the
 * products' cost, the delivery cost as its shipping, and the recipient's details prefilled.
 */
export function paypalFormFields(
  settings: Pick<PaypalSettings, 'business'>,
  order: PaypalOrder,
): Record<string, string> {
  if ((order.locale === 'ru') !== (order.currency === 'RUB')) {
    throw new RangeError(
      `currency_code must be RUB for ru and USD otherwise, got ${order.currency} for ${order.locale}`,
    );
  }
  for (const [name, value] of [
    ['productsCost', order.productsCost],
    ['shippingCost', order.shippingCost],
  ] as const) {
    if (!TWO_DECIMALS.test(value)) {
      throw new RangeError(`${name} must be a dot-decimal amount with two decimals, got "${value}"`);
    }
  }
  const cancel = new URL(order.cancelUrl);
  cancel.searchParams.set('order', String(order.id));
  return {
    cmd: '_cart',
    upload: '1',
    lc: order.locale === 'ru' ? 'RU' : 'US',
    currency_code: order.currency,
    business: settings.business,
    notify_url: order.notifyUrl,
    return: order.returnUrl,
    cancel_return: cancel.toString(),
    rm: '0',
    charset: 'utf-8',
    invoice: String(order.id),
    item_name_1: order.itemName,
    amount_1: order.productsCost,
    quantity_1: '1',
    no_shipping: '1',
    shipping_1: order.shippingCost,
    email: order.email,
    first_name: order.firstName,
    last_name: order.lastName,
    night_phone_a: order.phone,
    country: order.country,
    city: order.city,
    address1: order.address,
    zip: order.zip,
  };
}

export interface ParsedIpn {
  /** The body as received, for the postback. */
  raw: string;
  /** The character set the values were decoded with (the IPN's `charset`, windows-1252 by default). */
  charset: string;
  /** Every field in the order received. */
  entries: Array<[string, string]>;
  /** Field name → value; the first one wins if a name repeats. */
  fields: Record<string, string>;
}

/** PayPal's default when an IPN names no charset. */
const DEFAULT_IPN_CHARSET = 'windows-1252';

/** windows-1252 bytes 0x80–0x9F (WHATWG index); the rest of the table is Latin-1. */
const WINDOWS_1252_HIGH = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d,
  0x17d, 0x8f, 0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a,
  0x153, 0x9d, 0x17e, 0x178,
];

interface ByteDecoder {
  decode(bytes: Uint8Array): string;
}

/**
 * A decoder for the IPN's charset. Node 20's TextDecoder decodes windows-1252 (and the labels
 * WHATWG maps to it: iso-8859-1, latin1, us-ascii) as Latin-1, which turns € ‘ ’ “ ” – — into
 * control characters, so that one is decoded here. Unknown labels fall back to PayPal's default.
 */
function decoderFor(charset: string): ByteDecoder {
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charset);
  } catch {
    decoder = new TextDecoder(DEFAULT_IPN_CHARSET);
  }
  if (decoder.encoding !== 'windows-1252') return decoder;
  return {
    decode: (bytes) =>
      Array.from(bytes, (byte) =>
        String.fromCharCode(byte >= 0x80 && byte <= 0x9f ? (WINDOWS_1252_HIGH[byte - 0x80] as number) : byte),
      ).join(''),
  };
}

/**
 * Form-urlencoded → text, with percent-escaped bytes decoded in the IPN's character set. ASCII is the
 * same in every charset PayPal uses; literal non-ASCII characters in a string body are kept as text.
 */
function decodeComponent(component: string, decoder: ByteDecoder): string {
  let text = '';
  let bytes: number[] = [];
  const flush = () => {
    if (bytes.length > 0) text += decoder.decode(Uint8Array.from(bytes));
    bytes = [];
  };
  for (let index = 0; index < component.length; index++) {
    const character = component[index] as string;
    const code = component.charCodeAt(index);
    if (character === '%' && /^[0-9a-fA-F]{2}$/.test(component.slice(index + 1, index + 3))) {
      bytes.push(Number.parseInt(component.slice(index + 1, index + 3), 16));
      index += 2;
    } else if (character === '+') {
      bytes.push(0x20);
    } else if (code < 0x80) {
      bytes.push(code);
    } else {
      flush();
      text += character;
    }
  }
  flush();
  return text;
}

/** Reads an IPN body, honouring its `charset` field (utf-8, windows-1252, …). */
export function parseIpn(rawBody: string): ParsedIpn {
  const pairs = rawBody
    .split('&')
    .filter((pair) => pair !== '')
    .map((pair) => {
      const equals = pair.indexOf('=');
      return equals === -1 ? [pair, ''] : [pair.slice(0, equals), pair.slice(equals + 1)];
    }) as Array<[string, string]>;
  const ascii = new TextDecoder('utf-8');
  const declared = pairs.find(([name]) => decodeComponent(name, ascii) === 'charset');
  const charset = declared
    ? decodeComponent(declared[1], ascii).trim() || DEFAULT_IPN_CHARSET
    : DEFAULT_IPN_CHARSET;
  const decoder = decoderFor(charset);
  const entries = pairs.map(
    ([name, value]) => [decodeComponent(name, decoder), decodeComponent(value, decoder)] as [string, string],
  );
  const fields: Record<string, string> = {};
  for (const [name, value] of entries) {
    if (!Object.hasOwn(fields, name)) fields[name] = value;
  }
  return { raw: rawBody, charset, entries, fields };
}

/**
 * Posts `cmd=_notify-validate&` + the IPN body, unchanged and in order, to PayPal and returns its
 * verdict. Throws on network errors, time-outs, HTTP errors and any other answer, so that the
 * caller answers 5xx and PayPal sends the IPN again.
 */
export async function verifyIpn(
  settings: Pick<PaypalSettings, 'ipnVerifyUrl'>,
  rawBody: string,
  fetchImpl: FetchImpl = fetch,
  timeoutMs = PAYPAL_TIMEOUT_MS,
): Promise<'VERIFIED' | 'INVALID'> {
  const response = await fetchImpl(settings.ipnVerifyUrl, {
    method: 'POST',
    // PayPal refuses postbacks without a User-Agent.
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'user-agent': 'Vitrina-IPN-Verifier/1.0',
    },
    body: `cmd=_notify-validate&${rawBody}`,
    signal: AbortSignal.timeout(timeoutMs),
  });
  if (!response.ok) {
    await response.body?.cancel().catch(() => {});
    throw new Error(`PayPal IPN verification answered HTTP ${response.status}`);
  }
  const verdict = (await response.text()).trim();
  if (verdict === 'VERIFIED' || verdict === 'INVALID') return verdict;
  throw new Error(
    `PayPal IPN verification gave an unexpected answer: ${JSON.stringify(verdict.slice(0, 80))}`,
  );
}

/** '12.50' or '-12.50' → 1250 or -1250 (cents or kopecks); null when malformed. */
export function paypalAmountToMinor(text: string): number | null {
  const match = /^(-?)(\d{1,13})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!match) return null;
  const minor = Number(match[2]) * 100 + Number((match[3] ?? '').padEnd(2, '0'));
  return match[1] === '-' ? -minor : minor;
}

export type IpnCheck =
  /** Paid in full to us: mark the order paid, once per txnId. */
  | { kind: 'completed'; txnId: string; amountMinor: number; currency: string }
  /** Money went back to the payer (Refunded, Reversed); amountMinor is negative, as PayPal sends it. */
  | {
      kind: 'refunded';
      status: string;
      txnId: string;
      parentTxnId: string;
      amountMinor: number;
      detail: string;
    }
  /** Not settled yet (Pending, Processed, Created): wait for the next IPN. */
  | { kind: 'pending'; status: string; txnId: string; detail: string }
  /** Will not be paid (Denied, Failed, Voided, Expired, or an unknown status). */
  | { kind: 'failed'; status: string; txnId: string; detail: string }
  /** A reversal was cancelled: the money is back with us; needs a person to look. */
  | { kind: 'reversal-cancelled'; status: string; txnId: string; detail: string }
  /** The IPN is not about this order's payment: wrong invoice, amount or currency. */
  | { kind: 'mismatch'; detail: string }
  /** Paid to somebody else's account. */
  | { kind: 'foreign-receiver'; detail: string }
  /** A sandbox IPN reaching a shop that does not accept them. */
  | { kind: 'test-in-production'; detail: string };

const PENDING_STATUSES = new Set(['Pending', 'Processed', 'Created']);
const REFUND_STATUSES = new Set(['Refunded', 'Reversed']);

/**
 * The merchant's checks of providers.md on a VERIFIED IPN: `test_ipn` only in sandbox, the receiver
 * is us, the invoice is this order's, and a Completed payment has this order's amount and currency.
 * `expected.amount` is a dot decimal ('1234.50'), `expected.currency` an ISO code. Whether `txnId`
 * was processed before is the caller's to check.
 */
export function checkIpnPayment(
  settings: Pick<PaypalSettings, 'business' | 'receiverId' | 'sandbox'>,
  fields: Readonly<Record<string, string>>,
  expected: { invoice: string; amount: string; currency: string },
): IpnCheck {
  if (fields.test_ipn === '1' && !settings.sandbox) {
    return { kind: 'test-in-production', detail: 'test_ipn=1 is refused outside the sandbox' };
  }

  const receiverEmail = (fields.receiver_email ?? '').trim().toLowerCase();
  const receiverId = (fields.receiver_id ?? '').trim();
  const business = settings.business.trim().toLowerCase();
  const emailIsOurs = receiverEmail !== '' && receiverEmail === business;
  // A form's `business` may be the merchant account id instead of the e-mail.
  const idIsOurs =
    receiverId !== '' &&
    (settings.receiverId ? receiverId === settings.receiverId : receiverId.toLowerCase() === business);
  const idContradicts =
    Boolean(settings.receiverId) && receiverId !== '' && receiverId !== settings.receiverId;
  if (!(emailIsOurs || idIsOurs) || idContradicts) {
    return {
      kind: 'foreign-receiver',
      detail: `receiver_email "${fields.receiver_email ?? ''}", receiver_id "${fields.receiver_id ?? ''}" is not ours`,
    };
  }

  if ((fields.invoice ?? '') !== expected.invoice) {
    return {
      kind: 'mismatch',
      detail: `invoice "${fields.invoice ?? ''}" is not the order's "${expected.invoice}"`,
    };
  }
  const currency = (fields.mc_currency ?? '').toUpperCase();
  if (currency !== expected.currency.toUpperCase()) {
    return {
      kind: 'mismatch',
      detail: `mc_currency "${fields.mc_currency ?? ''}" is not ${expected.currency}`,
    };
  }

  const status = fields.payment_status ?? '';
  const txnId = fields.txn_id ?? '';
  if (txnId === '') return { kind: 'mismatch', detail: 'txn_id is missing' };
  const gross = paypalAmountToMinor(fields.mc_gross ?? '');
  if (gross === null)
    return { kind: 'mismatch', detail: `mc_gross "${fields.mc_gross ?? ''}" is not an amount` };

  if (status === 'Completed') {
    const expectedMinor = paypalAmountToMinor(expected.amount);
    if (expectedMinor === null) throw new RangeError(`Expected amount "${expected.amount}" is not an amount`);
    if (gross !== expectedMinor) {
      return {
        kind: 'mismatch',
        detail: `mc_gross ${fields.mc_gross} is not the order's ${expected.amount}`,
      };
    }
    return { kind: 'completed', txnId, amountMinor: gross, currency };
  }
  if (REFUND_STATUSES.has(status)) {
    return {
      kind: 'refunded',
      status,
      txnId,
      parentTxnId: fields.parent_txn_id ?? '',
      amountMinor: gross,
      detail: `${status} ${fields.mc_gross} ${currency} of ${fields.parent_txn_id ?? 'an unknown transaction'}${
        fields.reason_code ? ` (${fields.reason_code})` : ''
      }`,
    };
  }
  if (PENDING_STATUSES.has(status)) {
    return {
      kind: 'pending',
      status,
      txnId,
      detail: `${status}${fields.pending_reason ? `: ${fields.pending_reason}` : ''}`,
    };
  }
  if (status === 'Canceled_Reversal') {
    return {
      kind: 'reversal-cancelled',
      status,
      txnId,
      detail: `reversal of ${fields.parent_txn_id ?? txnId} cancelled`,
    };
  }
  return {
    kind: 'failed',
    status,
    txnId,
    detail: status === '' ? 'payment_status is missing' : `payment_status ${status}`,
  };
}

/** The NVP API version whose RefundTransaction fields are used here. */
const NVP_VERSION = '204.0';

export type PaypalRefundResult =
  | {
      ok: true;
      /** REFUNDTRANSACTIONID: the refund's own transaction, the `txn_id` of its IPN. */
      refundTransactionId: string;
      /** REFUNDSTATUS: `Instant` (done) or `Delayed` (PENDINGREASON says why; an IPN follows). */
      status: string;
      /** GROSSREFUNDAMT in minor units. */
      grossMinor: number;
      pendingReason?: string;
    }
  /** ACK=Failure: L_ERRORCODE0 and its messages (10009: more than is left, 10002: bad credentials, …). */
  | { ok: false; code: string; message: string };

/**
 * Refunds a payment by the `txn_id` its IPN carried: all of it, or `amount` (dot decimal in
 * `currency`) for a partial refund. Throws when the API cannot be read (network, time-out, HTTP
 * error, an answer without ACK): nothing is known to have happened then.
 */
export async function refundTransaction(
  settings: Pick<PaypalSettings, 'apiUrl' | 'apiUser' | 'apiPassword' | 'apiSignature'>,
  refund: { transactionId: string; currency: string; amount?: string },
  fetchImpl: FetchImpl = fetch,
  timeoutMs = PAYPAL_TIMEOUT_MS,
): Promise<PaypalRefundResult> {
  if (refund.amount !== undefined && !TWO_DECIMALS.test(refund.amount)) {
    throw new RangeError(`AMT must be a dot-decimal amount with two decimals, got "${refund.amount}"`);
  }
  const request = new URLSearchParams({
    METHOD: 'RefundTransaction',
    VERSION: NVP_VERSION,
    USER: settings.apiUser,
    PWD: settings.apiPassword,
    SIGNATURE: settings.apiSignature,
    TRANSACTIONID: refund.transactionId,
    REFUNDTYPE: refund.amount === undefined ? 'Full' : 'Partial',
    CURRENCYCODE: refund.currency,
  });
  if (refund.amount !== undefined) request.set('AMT', refund.amount);
  const response = await fetchImpl(settings.apiUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: request.toString(),
    signal: AbortSignal.timeout(timeoutMs),
  });
  if (!response.ok) {
    await response.body?.cancel().catch(() => {});
    throw new Error(`PayPal RefundTransaction answered HTTP ${response.status}`);
  }
  const answer = new URLSearchParams(await response.text());
  const ack = answer.get('ACK') ?? '';
  if (ack === 'Success' || ack === 'SuccessWithWarning') {
    const refundTransactionId = answer.get('REFUNDTRANSACTIONID') ?? '';
    const grossMinor = paypalAmountToMinor(answer.get('GROSSREFUNDAMT') ?? '');
    if (refundTransactionId === '' || grossMinor === null) {
      throw new Error('PayPal RefundTransaction succeeded without REFUNDTRANSACTIONID or GROSSREFUNDAMT');
    }
    const result: PaypalRefundResult = {
      ok: true,
      refundTransactionId,
      status: answer.get('REFUNDSTATUS') ?? 'Instant',
      grossMinor,
    };
    const pendingReason = answer.get('PENDINGREASON');
    if (pendingReason && pendingReason !== 'none') result.pendingReason = pendingReason;
    return result;
  }
  if (ack === 'Failure' || ack === 'FailureWithWarning') {
    return {
      ok: false,
      code: answer.get('L_ERRORCODE0') ?? '',
      message: answer.get('L_LONGMESSAGE0') ?? answer.get('L_SHORTMESSAGE0') ?? 'refused',
    };
  }
  throw new Error(`PayPal RefundTransaction answered no ACK: ${JSON.stringify(ack.slice(0, 40))}`);
}
