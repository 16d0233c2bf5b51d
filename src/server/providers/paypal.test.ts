import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fastifyFormbody from '@fastify/formbody';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkIpnPayment,
  type PaypalOrder,
  type PaypalSettings,
  parseIpn,
  paypalAmountToMinor,
  paypalFormFields,
  refundTransaction,
  verifyIpn,
} from './paypal.ts';
import { createPaypalSimulator, type PaypalSimulator } from './simulators/paypal.ts';

const SETTINGS: PaypalSettings = {
  business: 'shop-facilitator@vitrina.example',
  receiverId: undefined,
  paymentUrl: 'http://127.0.0.1:1/sandbox/paypal',
  ipnVerifyUrl: 'http://127.0.0.1:1/sandbox/paypal/ipn-verify',
  sandbox: true,
  apiUrl: 'http://127.0.0.1:1/sandbox/paypal/nvp',
  apiUser: 'shop_api1.vitrina.example',
  apiPassword: 'api-password',
  apiSignature: 'api-signature',
};

/** Spec section 7, "PayPal-style hidden fields". */
const SPEC_FIELDS = [
  'cmd',
  'upload',
  'lc',
  'currency_code',
  'business',
  'notify_url',
  'return',
  'cancel_return',
  'rm',
  'charset',
  'invoice',
  'item_name_1',
  'amount_1',
  'quantity_1',
  'no_shipping',
  'shipping_1',
  'email',
  'first_name',
  'last_name',
  'night_phone_a',
  'country',
  'city',
  'address1',
  'zip',
];

const order = (overrides: Partial<PaypalOrder> = {}): PaypalOrder => ({
  id: 42,
  locale: 'en',
  currency: 'USD',
  productsCost: '25.00',
  shippingCost: '7.50',
  itemName: 'Shop. Order #42',
  email: 'anna@example.com',
  firstName: 'Anna',
  lastName: 'Smith',
  phone: '+1 555 0100',
  country: 'US',
  city: 'Portland',
  address: '1 Main St',
  zip: '97201',
  notifyUrl: 'http://127.0.0.1:3000/api/paypal/ipn',
  returnUrl: 'http://localhost:3000/order/result/paypal?order=42',
  cancelUrl: 'http://localhost:3000/order/cancel/paypal',
  ...overrides,
});

describe('PayPal payment form', () => {
  it('has exactly the hidden fields of the spec', () => {
    expect(Object.keys(paypalFormFields(SETTINGS, order())).sort()).toEqual([...SPEC_FIELDS].sort());
  });

  it('fills them for a dollar cart', () => {
    expect(paypalFormFields(SETTINGS, order())).toEqual({
      cmd: '_cart',
      upload: '1',
      lc: 'US',
      currency_code: 'USD',
      business: 'shop-facilitator@vitrina.example',
      notify_url: 'http://127.0.0.1:3000/api/paypal/ipn',
      return: 'http://localhost:3000/order/result/paypal?order=42',
      cancel_return: 'http://localhost:3000/order/cancel/paypal?order=42',
      rm: '0',
      charset: 'utf-8',
      invoice: '42',
      item_name_1: 'Shop. Order #42',
      amount_1: '25.00',
      quantity_1: '1',
      no_shipping: '1',
      shipping_1: '7.50',
      email: 'anna@example.com',
      first_name: 'Anna',
      last_name: 'Smith',
      night_phone_a: '+1 555 0100',
      country: 'US',
      city: 'Portland',
      address1: '1 Main St',
      zip: '97201',
    });
  });

  it('bills roubles for ru and keeps the cancel URL own query', () => {
    const fields = paypalFormFields(
      SETTINGS,
      order({ locale: 'ru', currency: 'RUB', cancelUrl: 'http://localhost:3000/order/cancel/paypal?x=1' }),
    );
    expect(fields.currency_code).toBe('RUB');
    expect(fields.lc).toBe('RU');
    expect(fields.cancel_return).toBe('http://localhost:3000/order/cancel/paypal?x=1&order=42');
  });

  it('refuses a currency the locale does not use, and malformed amounts', () => {
    expect(() => paypalFormFields(SETTINGS, order({ currency: 'RUB' }))).toThrow(/currency_code/);
    expect(() => paypalFormFields(SETTINGS, order({ productsCost: '25' }))).toThrow(/productsCost/);
    expect(() => paypalFormFields(SETTINGS, order({ shippingCost: '7,50' }))).toThrow(/shippingCost/);
  });
});

describe('reading an IPN', () => {
  it('keeps the fields in order and the body as received', () => {
    const raw = 'txn_type=cart&item_name1=Big+mug&payer_email=a%40example.com&charset=utf-8&empty=';
    const ipn = parseIpn(raw);
    expect(ipn.raw).toBe(raw);
    expect(ipn.entries).toEqual([
      ['txn_type', 'cart'],
      ['item_name1', 'Big mug'],
      ['payer_email', 'a@example.com'],
      ['charset', 'utf-8'],
      ['empty', ''],
    ]);
    expect(ipn.fields.payer_email).toBe('a@example.com');
  });

  it('decodes UTF-8 when the IPN says so', () => {
    const raw = `charset=UTF-8&first_name=${encodeURIComponent('Анна')}`;
    expect(parseIpn(raw)).toMatchObject({ charset: 'UTF-8', fields: { first_name: 'Анна' } });
  });

  it('decodes windows-1252, also when no charset is named (PayPal default)', () => {
    expect(
      parseIpn('charset=windows-1252&first_name=Ren%E9e&item_name1=5%80+%93mug%94').fields,
    ).toMatchObject({
      first_name: 'Renée',
      item_name1: '5€ “mug”',
    });
    expect(parseIpn('first_name=Ren%E9e')).toMatchObject({
      charset: 'windows-1252',
      fields: { first_name: 'Renée' },
    });
  });
});

describe('the merchant checks of an IPN', () => {
  const completed = {
    txn_type: 'cart',
    txn_id: '61E67681CH3238416',
    payment_status: 'Completed',
    mc_gross: '32.50',
    mc_currency: 'USD',
    invoice: '42',
    receiver_email: 'Shop-Facilitator@Vitrina.example',
    receiver_id: 'S8XGHLYDW9T3S',
    test_ipn: '1',
  };
  const expected = { invoice: '42', amount: '32.50', currency: 'USD' };

  it('accepts a completed payment of the order amount to us', () => {
    expect(checkIpnPayment(SETTINGS, completed, expected)).toEqual({
      kind: 'completed',
      txnId: '61E67681CH3238416',
      amountMinor: 3_250,
      currency: 'USD',
    });
  });

  it('refuses a wrong amount, currency or invoice', () => {
    expect(checkIpnPayment(SETTINGS, { ...completed, mc_gross: '3.25' }, expected).kind).toBe('mismatch');
    expect(checkIpnPayment(SETTINGS, { ...completed, mc_currency: 'RUB' }, expected).kind).toBe('mismatch');
    expect(checkIpnPayment(SETTINGS, { ...completed, invoice: '43' }, expected).kind).toBe('mismatch');
    expect(checkIpnPayment(SETTINGS, { ...completed, mc_gross: '32.5' }, expected).kind).toBe('completed');
  });

  it('refuses a payment to another receiver', () => {
    expect(
      checkIpnPayment(SETTINGS, { ...completed, receiver_email: 'fraud@example.com' }, expected).kind,
    ).toBe('foreign-receiver');
    const withId = { ...SETTINGS, receiverId: 'S8XGHLYDW9T3S' };
    expect(checkIpnPayment(withId, completed, expected).kind).toBe('completed');
    expect(checkIpnPayment(withId, { ...completed, receiver_id: 'OTHER0000000' }, expected).kind).toBe(
      'foreign-receiver',
    );
  });

  it('does not count a pending payment', () => {
    expect(
      checkIpnPayment(
        SETTINGS,
        { ...completed, payment_status: 'Pending', pending_reason: 'echeck' },
        expected,
      ),
    ).toEqual({ kind: 'pending', status: 'Pending', txnId: '61E67681CH3238416', detail: 'Pending: echeck' });
  });

  it('reports a refund with its negative amount and parent transaction', () => {
    const refund = {
      ...completed,
      payment_status: 'Refunded',
      txn_id: '9XY12345AB678901C',
      parent_txn_id: '61E67681CH3238416',
      mc_gross: '-32.50',
      reason_code: 'refund',
    };
    expect(checkIpnPayment(SETTINGS, refund, expected)).toMatchObject({
      kind: 'refunded',
      status: 'Refunded',
      txnId: '9XY12345AB678901C',
      parentTxnId: '61E67681CH3238416',
      amountMinor: -3_250,
    });
    expect(checkIpnPayment(SETTINGS, { ...refund, payment_status: 'Reversed' }, expected).kind).toBe(
      'refunded',
    );
  });

  it('treats denied, failed and unknown statuses as failed', () => {
    for (const status of ['Denied', 'Failed', 'Voided', 'Expired', 'Something_New']) {
      expect(checkIpnPayment(SETTINGS, { ...completed, payment_status: status }, expected).kind).toBe(
        'failed',
      );
    }
  });

  it('refuses a sandbox IPN in production', () => {
    const production = { ...SETTINGS, sandbox: false };
    expect(checkIpnPayment(production, completed, expected).kind).toBe('test-in-production');
    const { test_ipn: _, ...live } = completed;
    expect(checkIpnPayment(production, live, expected).kind).toBe('completed');
  });

  it('reads signed two-decimal amounts', () => {
    expect(paypalAmountToMinor('-12.5')).toBe(-1_250);
    expect(paypalAmountToMinor('0.01')).toBe(1);
    expect(paypalAmountToMinor('1.001')).toBeNull();
  });
});

describe('IPN round trip through the PayPal simulator over HTTP', () => {
  let shop: FastifyInstance;
  let provider: FastifyInstance;
  let simulator: PaypalSimulator;
  let settings: PaypalSettings;
  let shopBase: string;
  const rawBodies: string[] = [];

  beforeAll(async () => {
    // A stand-in shop: @fastify/formbody for its other routes, the raw body for the IPN route.
    shop = Fastify();
    await shop.register(fastifyFormbody);
    await shop.register(async (ipn) => {
      ipn.removeContentTypeParser('application/x-www-form-urlencoded');
      ipn.addContentTypeParser(
        'application/x-www-form-urlencoded',
        { parseAs: 'string' },
        (_request, body, done) => done(null, body),
      );
      ipn.post('/api/paypal/ipn', async (request, reply) => {
        rawBodies.push(request.body as string);
        return reply.code(200).send();
      });
    });
    shopBase = await shop.listen({ port: 0, host: '127.0.0.1' });

    simulator = createPaypalSimulator(
      {
        business: SETTINGS.business,
        shopUrl: shopBase,
        api: { user: SETTINGS.apiUser, password: SETTINGS.apiPassword, signature: SETTINGS.apiSignature },
      },
      { retryDelaysMs: [], refundIpnDelayMs: 0 },
    );
    provider = Fastify();
    await provider.register(fastifyFormbody);
    await provider.register(simulator.plugin);
    const base = await provider.listen({ port: 0, host: '127.0.0.1' });
    settings = {
      ...SETTINGS,
      paymentUrl: `${base}/sandbox/paypal`,
      ipnVerifyUrl: `${base}/sandbox/paypal/ipn-verify`,
      apiUrl: `${base}/sandbox/paypal/nvp`,
    };
  });

  afterAll(async () => {
    await provider?.close();
    await shop?.close();
  });

  async function pay(id: number) {
    const fields = paypalFormFields(
      settings,
      order({
        id,
        notifyUrl: `${shopBase}/api/paypal/ipn`,
        returnUrl: `${shopBase}/order/result/paypal?order=${id}`,
        cancelUrl: `${shopBase}/order/cancel/paypal`,
      }),
    );
    const page = await fetch(settings.paymentUrl, { method: 'POST', body: new URLSearchParams(fields) });
    expect(page.status).toBe(200);
    const html = await page.text();
    const hidden = new URLSearchParams({
      cart: /name="cart" value="([^"]+)"/.exec(html)?.[1] ?? '',
      mac: /name="mac" value="([^"]+)"/.exec(html)?.[1] ?? '',
    });
    const paid = await fetch(`${settings.paymentUrl}/pay`, {
      method: 'POST',
      body: hidden,
      redirect: 'manual',
    });
    expect(paid.status).toBe(303);
    return rawBodies.at(-1) as string;
  }

  it('verifies the IPN the simulator sent, and the merchant checks pass', async () => {
    const raw = await pay(501);
    expect(await verifyIpn(settings, raw)).toBe('VERIFIED');
    const ipn = parseIpn(raw);
    expect(
      checkIpnPayment(settings, ipn.fields, { invoice: '501', amount: '32.50', currency: 'USD' }),
    ).toMatchObject({ kind: 'completed', amountMinor: 3_250 });
  });

  it('answers INVALID for the same IPN altered, reordered or forged', async () => {
    const raw = await pay(502);
    expect(await verifyIpn(settings, raw.replace('mc_gross=32.50', 'mc_gross=0.50'))).toBe('INVALID');
    const [first, ...rest] = raw.split('&');
    expect(await verifyIpn(settings, [...rest, first].join('&'))).toBe('INVALID');
    const forged = await simulator.state.sendIpn('502', { txn_id: 'FORGED00000000000' }, { forge: true });
    expect(rawBodies.at(-1)).toBe(forged.body);
    expect(await verifyIpn(settings, forged.body)).toBe('INVALID');
  });

  it('verifies a duplicate of a genuine IPN: idempotency is the shop’s job', async () => {
    const raw = await pay(503);
    const duplicate = await simulator.state.sendIpn('503');
    expect(duplicate.body).toBe(raw);
    expect(await verifyIpn(settings, rawBodies.at(-1) as string)).toBe('VERIFIED');
  });

  it('lets a test send a genuine refund, which the checks report as such', async () => {
    await pay(504);
    const refund = await simulator.state.sendRefund('504');
    expect(await verifyIpn(settings, refund.body)).toBe('VERIFIED');
    expect(
      checkIpnPayment(settings, parseIpn(refund.body).fields, {
        invoice: '504',
        amount: '32.50',
        currency: 'USD',
      }),
    ).toMatchObject({ kind: 'refunded', amountMinor: -3_250 });
  });

  const paymentOf = (invoice: string) =>
    simulator.state.sentIpns.find(
      (ipn) => ipn.invoice === invoice && ipn.fields.payment_status === 'Completed',
    )?.fields.txn_id as string;

  it('refunds part of a payment by its txn_id, then the rest; each refund comes back as a verified Refunded IPN', async () => {
    await pay(505);
    const transactionId = paymentOf('505');
    const part = await refundTransaction(settings, { transactionId, currency: 'USD', amount: '10.00' });
    expect(part).toMatchObject({ ok: true, status: 'Instant', grossMinor: 1_000 });
    const rest = await refundTransaction(settings, { transactionId, currency: 'USD', amount: '22.50' });
    expect(rest).toMatchObject({ ok: true, grossMinor: 2_250 });
    await simulator.state.settled();
    const refundIpns = simulator.state.sentIpns.filter(
      (ipn) => ipn.invoice === '505' && ipn.fields.payment_status === 'Refunded',
    );
    expect(
      refundIpns.map((ipn) => [ipn.fields.mc_gross, ipn.fields.parent_txn_id, ipn.fields.txn_id]),
    ).toEqual([
      ['-10.00', transactionId, part.ok ? part.refundTransactionId : ''],
      ['-22.50', transactionId, rest.ok ? rest.refundTransactionId : ''],
    ]);
    for (const ipn of refundIpns) expect(await verifyIpn(settings, ipn.body)).toBe('VERIFIED');
  });

  it('refuses more than is left, a full refund after a partial one, and wrong API credentials', async () => {
    await pay(506);
    const transactionId = paymentOf('506');
    expect(
      await refundTransaction(settings, { transactionId, currency: 'USD', amount: '32.51' }),
    ).toMatchObject({
      ok: false,
      code: '10009',
    });
    expect(
      await refundTransaction({ ...settings, apiSignature: 'guess' }, { transactionId, currency: 'USD' }),
    ).toMatchObject({ ok: false, code: '10002' });
    expect(
      await refundTransaction(settings, { transactionId, currency: 'USD', amount: '1.00' }),
    ).toMatchObject({
      ok: true,
    });
    expect(await refundTransaction(settings, { transactionId, currency: 'USD' })).toMatchObject({
      ok: false,
      code: '10009',
    });
    expect(await refundTransaction(settings, { transactionId: 'NOSUCHTXN', currency: 'USD' })).toMatchObject({
      ok: false,
      code: '10004',
    });
    expect(simulator.state.refunds.filter((refund) => refund.invoice === '506')).toHaveLength(1);
  });
});

describe('IPN verification failures', () => {
  let server: Server;
  let base: string;

  beforeAll(async () => {
    server = createServer((request, response) => {
      if (request.url === '/slow') return; // never answers
      if (request.url === '/weird') {
        response.writeHead(200, { 'content-type': 'text/html' }).end('<html>maintenance</html>');
        return;
      }
      response.writeHead(503).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('throws on an HTTP error, an unexpected answer and a time-out, so PayPal retries', async () => {
    await expect(verifyIpn({ ipnVerifyUrl: `${base}/down` }, 'a=1')).rejects.toThrow(/HTTP 503/);
    await expect(verifyIpn({ ipnVerifyUrl: `${base}/weird` }, 'a=1')).rejects.toThrow(/unexpected answer/);
    await expect(verifyIpn({ ipnVerifyUrl: `${base}/slow` }, 'a=1', fetch, 200)).rejects.toThrow();
  });
});
