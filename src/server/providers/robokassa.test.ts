import { createHash, createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fastifyFormbody from '@fastify/formbody';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  amountToMinor,
  attachSecondReceipt,
  checkOperationState,
  checkRobokassaRefund,
  createRobokassaRefund,
  fiscalBody,
  invoiceItems,
  parseOperationState,
  type RobokassaReceipt,
  type RobokassaSettings,
  readFailRedirect,
  resultAnswer,
  robokassaFormFields,
  robokassaJwt,
  robokassaSignature,
  secondReceiptPayload,
  verifyResultCallback,
  verifySuccessRedirect,
} from './robokassa.ts';
import { createRobokassaSimulator, type RobokassaSimulator } from './simulators/robokassa.ts';

const md5 = (text: string) => createHash('md5').update(text, 'utf8').digest('hex');
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

const SETTINGS: RobokassaSettings = {
  merchantLogin: 'vitrina-test',
  password1: 'pass-one',
  password2: 'pass-two',
  password3: 'pass-three',
  hashAlgorithm: 'md5',
  paymentUrl: 'http://127.0.0.1:1/sandbox/robokassa',
  opStateUrl: 'http://127.0.0.1:1/sandbox/robokassa/opstate',
  refundCreateUrl: 'http://127.0.0.1:1/sandbox/robokassa/refund/create',
  refundStateUrl: 'http://127.0.0.1:1/sandbox/robokassa/refund/state',
  isTest: false,
  secondReceiptUrl: 'http://127.0.0.1:1/sandbox/robokassa/receipt/attach',
};

/** Spec section 7, "Robokassa-style hidden fields". */
const SPEC_FIELDS = [
  'MrchLogin',
  'OutSum',
  'OutSumCurrency',
  'InvId',
  'Desc',
  'Encoding',
  'SignatureValue',
  'ExpirationDate',
];

const invoice = (overrides: Partial<Parameters<typeof robokassaFormFields>[1]> = {}) => ({
  id: 42,
  outSum: '1234.50',
  currency: '' as const,
  description: 'Shop. Order #42 Invoice',
  expiresAt: new Date('2026-11-21T15:30:00Z'),
  culture: 'ru' as const,
  ...overrides,
});

describe('Robokassa signatures', () => {
  it('is the lowercase hex md5 of the parts joined with colons', () => {
    const signature = robokassaSignature('md5', ['vitrina-test', '1234.50', '42', 'pass-one']);
    expect(signature).toBe(md5('vitrina-test:1234.50:42:pass-one'));
    expect(signature).toBe('c94fb589150308f7b4fea7fad699d050');
  });

  it('uses the algorithm chosen in the shop settings, such as sha256', () => {
    const signature = robokassaSignature('sha256', ['vitrina-test', '1234.50', '42', 'pass-one']);
    expect(signature).toBe(sha256('vitrina-test:1234.50:42:pass-one'));
    expect(signature).toBe('7787ab41a6278911a6f83ce727ed889f0de1d50ba26a7034ddc15b725f5e502e');
  });

  it('appends Shp_ parameters as name=value, sorted by name', () => {
    const signature = robokassaSignature('md5', ['100.000000', '5', 'pass-two'], {
      Shp_order: '5',
      Shp_lang: 'en',
      Culture: 'ru',
    });
    expect(signature).toBe(md5('100.000000:5:pass-two:Shp_lang=en:Shp_order=5'));
    expect(signature).toBe('05471d75d909c2cccd5a66707466bd44');
  });

  it('offers every algorithm Robokassa does', () => {
    const lengths = { md5: 32, ripemd160: 40, sha1: 40, sha256: 64, sha384: 96, sha512: 128 } as const;
    for (const [algorithm, length] of Object.entries(lengths)) {
      expect(robokassaSignature(algorithm as keyof typeof lengths, ['a', 'b'])).toMatch(
        new RegExp(`^[0-9a-f]{${length}}$`),
      );
    }
  });
});

describe('Robokassa payment form', () => {
  it("has exactly the hidden fields of the spec and the shopper's Culture", () => {
    const fields = robokassaFormFields(SETTINGS, invoice());
    expect(Object.keys(fields).sort()).toEqual([...SPEC_FIELDS, 'Culture'].sort());
  });

  it("sends the shopper's language as Culture, outside the signature", () => {
    const ru = robokassaFormFields(SETTINGS, invoice());
    const en = robokassaFormFields(SETTINGS, invoice({ outSum: '13.35', currency: 'USD', culture: 'en' }));
    expect(ru.Culture).toBe('ru');
    expect(en.Culture).toBe('en');
    expect(en.SignatureValue).toBe(md5('vitrina-test:13.35:42:USD:pass-one'));
  });

  it("adds Robokassa's IsTest flag only in test mode", () => {
    const fields = robokassaFormFields({ ...SETTINGS, isTest: true }, invoice());
    expect(Object.keys(fields).sort()).toEqual([...SPEC_FIELDS, 'Culture', 'IsTest'].sort());
    expect(fields.IsTest).toBe('1');
  });

  it('bills roubles for ru with an empty OutSumCurrency left out of the signature', () => {
    const fields = robokassaFormFields(SETTINGS, invoice());
    expect(fields).toMatchObject({
      MrchLogin: 'vitrina-test',
      OutSum: '1234.50',
      OutSumCurrency: '',
      InvId: '42',
      Desc: 'Shop. Order #42 Invoice',
      Encoding: 'utf-8',
      ExpirationDate: '2026-11-21T18:30:00+03:00',
    });
    expect(fields.SignatureValue).toBe(md5('vitrina-test:1234.50:42:pass-one'));
  });

  it('bills dollars for en and signs the currency', () => {
    const fields = robokassaFormFields(
      SETTINGS,
      invoice({ outSum: '13.35', currency: 'USD', culture: 'en' }),
    );
    expect(fields.OutSumCurrency).toBe('USD');
    expect(fields.SignatureValue).toBe(md5('vitrina-test:13.35:42:USD:pass-one'));
  });

  it('prefills the e-mail only when one is given', () => {
    const fields = robokassaFormFields(SETTINGS, invoice({ email: 'anna@example.com' }));
    expect(fields.Email).toBe('anna@example.com');
    expect(Object.keys(fields)).toHaveLength(SPEC_FIELDS.length + 2);
  });

  it('refuses an invoice Robokassa would refuse or the spec forbids', () => {
    expect(() => robokassaFormFields(SETTINGS, invoice({ outSum: '1234,50' }))).toThrow(/OutSum/);
    expect(() => robokassaFormFields(SETTINGS, invoice({ outSum: '0.00' }))).toThrow(/OutSum/);
    expect(() => robokassaFormFields(SETTINGS, invoice({ id: 0 }))).toThrow(/InvId/);
    expect(() => robokassaFormFields(SETTINGS, invoice({ description: 'x'.repeat(101) }))).toThrow(/Desc/);
  });
});

const GOODS: RobokassaReceipt = {
  items: [
    {
      name: 'Товар',
      quantity: 1,
      sum: 1234_50,
      tax: 'none',
      paymentMethod: 'full_payment',
      paymentObject: 'commodity',
    },
  ],
};

// Source: https://docs.robokassa.ru/ru/fiscalization ("Receipt … включается в контрольную подпись
// после номера счета: MerchantLogin:OutSum:InvId:Receipt:Пароль#1", URL-encoded, sent by POST) and
// robokassa/sdk-php src/Signature/SignatureService.php (`login:OutSum:InvoiceID[:Receipt]:password1`).
describe('Robokassa Receipt in the payment form', () => {
  // The receipt's JSON URL-encoded by hand: {"items":[{"name":"Товар","quantity":1,"sum":1234.5,…}]}.
  const ENCODED =
    '%7B%22items%22%3A%5B%7B%22name%22%3A%22%D0%A2%D0%BE%D0%B2%D0%B0%D1%80%22%2C%22quantity%22%3A1%2C%22sum%22%3A1234.5%2C%22payment_method%22%3A%22full_payment%22%2C%22payment_object%22%3A%22commodity%22%2C%22tax%22%3A%22none%22%7D%5D%7D';

  it('sends the receipt URL-encoded and signs it right after InvId, as the fiscalisation page documents', () => {
    const fields = robokassaFormFields(SETTINGS, invoice({ receipt: GOODS }));
    expect(fields.Receipt).toBe(ENCODED);
    expect(fields.SignatureValue).toBe(md5(`vitrina-test:1234.50:42:${ENCODED}:pass-one`));
  });

  it('puts the receipt after OutSumCurrency when one is sent, and refuses a receipt with a currency', () => {
    // The order of the signature's parts with a currency (pay-interface: MerchantLogin:OutSum:InvId:OutSumCurrency:…).
    expect(() =>
      robokassaFormFields(SETTINGS, invoice({ outSum: '13.35', currency: 'USD', receipt: GOODS })),
    ).toThrow(/roubles/);
  });

  it('refuses a receipt whose items miss OutSum by a kopeck or whose name is over 128 characters', () => {
    const item = GOODS.items[0] as RobokassaReceipt['items'][number];
    expect(() =>
      robokassaFormFields(SETTINGS, invoice({ receipt: { items: [{ ...item, sum: 1234_49 }] } })),
    ).toThrow(/add up/);
    expect(() =>
      robokassaFormFields(SETTINGS, invoice({ receipt: { items: [{ ...item, name: 'я'.repeat(129) }] } })),
    ).toThrow(/128/);
  });
});

// Source: robokassa/cms-wordpress classes/Robokassa/Payment/RefundApi.php (the JWT posted as a JSON
// string, application/json, RefundSum a number, InvoiceItems) and https://docs.robokassa.ru/ru/refund-api.
describe('Robokassa refund request', () => {
  const requests: { headers: Headers; body: string }[] = [];
  const answering =
    (status: number, body: string): typeof fetch =>
    async (_url, init) => {
      requests.push({ headers: new Headers(init?.headers), body: String(init?.body) });
      return new Response(body, { status, headers: { 'content-type': 'application/json' } });
    };

  it('posts the JWT as a JSON string with the sum as a number and the refunded items', async () => {
    const answer = await createRobokassaRefund(
      SETTINGS,
      {
        opKey: 'op-1',
        refundSum: 1000_00,
        items: [{ ...(GOODS.items[0] as RobokassaReceipt['items'][number]), quantity: 3, sum: 1000_00 }],
      },
      answering(200, '{"success":true,"requestId":"r-1","message":null}'),
    );
    expect(answer).toEqual({ ok: true, requestId: 'r-1' });
    const sent = requests.at(-1) as { headers: Headers; body: string };
    expect(sent.headers.get('content-type')).toBe('application/json');
    const token = JSON.parse(sent.body) as string;
    const [header, payload, signature] = token.split('.');
    expect(signature).toBe(
      createHmac('sha256', 'pass-three').update(`${header}.${payload}`).digest('base64url'),
    );
    expect(JSON.parse(Buffer.from(payload as string, 'base64url').toString())).toEqual({
      OpKey: 'op-1',
      RefundSum: 1000,
      // 1000.00 over 3 units: two at 333.33 and one at 333.34, so Quantity × Cost adds up exactly.
      InvoiceItems: [
        {
          Name: 'Товар',
          Quantity: 2,
          Cost: 333.33,
          Tax: 'none',
          PaymentMethod: 'full_payment',
          PaymentObject: 'commodity',
        },
        {
          Name: 'Товар',
          Quantity: 1,
          Cost: 333.34,
          Tax: 'none',
          PaymentMethod: 'full_payment',
          PaymentObject: 'commodity',
        },
      ],
    });
  });

  it('reads an HTTP 4xx with a message as a refusal, and an HTTP 5xx or no answer as an outage', async () => {
    expect(
      await createRobokassaRefund(
        SETTINGS,
        { opKey: 'op-1', refundSum: 1_00 },
        answering(400, '{"success":false,"message":"NotEnoughOperationFunds"}'),
      ),
    ).toEqual({ ok: false, message: 'NotEnoughOperationFunds' });
    await expect(
      createRobokassaRefund(SETTINGS, { opKey: 'op-1', refundSum: 1_00 }, answering(503, 'busy')),
    ).rejects.toThrow(/HTTP 503/);
    await expect(
      createRobokassaRefund(SETTINGS, { opKey: 'op-1', refundSum: 1_00 }, async () => {
        throw new TypeError('fetch failed');
      }),
    ).rejects.toThrow(/fetch failed/);
  });

  it('keeps whole lines whole', () => {
    const item = GOODS.items[0] as RobokassaReceipt['items'][number];
    expect(invoiceItems([{ ...item, quantity: 2, sum: 900_00 }])).toEqual([
      {
        Name: 'Товар',
        Quantity: 2,
        Cost: 450,
        Tax: 'none',
        PaymentMethod: 'full_payment',
        PaymentObject: 'commodity',
      },
    ]);
  });
});

// Source: https://docs.robokassa.ru/ru/second-receipt (the request example) and robokassa/sdk-php
// src/Service/ReceiptService.php + src/Signature/SignatureService.php `signFiscal`
// (base64url(JSON) "." base64url(hex H(base64url(JSON) + Password#1))).
describe('Robokassa second receipt request', () => {
  it('is the documentation’s example, item for item', () => {
    expect(
      secondReceiptPayload('robokassa_sell', {
        id: 14,
        originId: 13,
        sno: 'osn',
        url: 'https://www.robokassa.ru/',
        items: [
          {
            name: 'Товар',
            quantity: 1,
            sum: 100_00,
            tax: 'none',
            paymentMethod: 'full_payment',
            paymentObject: 'commodity',
          },
        ],
        email: 'test@test.ru',
        phone: '71234567890',
      }),
    ).toEqual({
      merchantId: 'robokassa_sell',
      id: '14',
      originId: '13',
      operation: 'sell',
      sno: 'osn',
      url: 'https://www.robokassa.ru/',
      total: 100,
      items: [
        {
          name: 'Товар',
          quantity: 1,
          sum: 100,
          tax: 'none',
          payment_method: 'full_payment',
          payment_object: 'commodity',
        },
      ],
      client: { email: 'test@test.ru', phone: '71234567890' },
      payments: [{ type: 2, sum: 100 }],
      vats: [{ type: 'none', sum: 0 }],
    });
  });

  it('signs the base64url JSON with Password#1 as the SDK does', () => {
    const body = fiscalBody(SETTINGS, { id: '1' });
    const encoded = Buffer.from('{"id":"1"}').toString('base64url');
    expect(body).toBe(`${encoded}.${Buffer.from(md5(`${encoded}pass-one`)).toString('base64url')}`);
  });
});

const signedCallback = (outSum: string, invId: string, password = 'pass-two', shp = '') => ({
  OutSum: outSum,
  InvId: invId,
  Fee: '48.145500',
  EMail: 'payer@example.com',
  SignatureValue: md5(`${outSum}:${invId}:${password}${shp}`).toUpperCase(),
  PaymentMethod: 'BankCard',
  IncCurrLabel: 'BankCardPSR',
});

describe('Robokassa ResultURL notification', () => {
  it('accepts a notification signed with Password#2, hashing OutSum as received', () => {
    expect(verifyResultCallback(SETTINGS, signedCallback('1234.500000', '42'))).toEqual({
      ok: true,
      invoiceId: 42,
      outSum: '1234.500000',
      amountMinor: 123_450,
      fee: '48.145500',
      email: 'payer@example.com',
      paymentMethod: 'BankCard',
      currencyLabel: 'BankCardPSR',
      shp: {},
    });
  });

  it('refuses a notification whose OutSum was changed after signing', () => {
    const callback = { ...signedCallback('1234.500000', '42'), OutSum: '1.000000' };
    expect(verifyResultCallback(SETTINGS, callback)).toEqual({
      ok: false,
      reason: 'SignatureValue does not match',
    });
    // Same amount, other spelling: Robokassa signs the string it sends, so this is not ours either.
    const respelled = { ...signedCallback('1234.500000', '42'), OutSum: '1234.50' };
    expect(verifyResultCallback(SETTINGS, respelled).ok).toBe(false);
  });

  it('refuses a notification signed with another password (Password#1 or a guess)', () => {
    expect(verifyResultCallback(SETTINGS, signedCallback('1234.500000', '42', 'pass-one')).ok).toBe(false);
    expect(verifyResultCallback(SETTINGS, signedCallback('1234.500000', '42', 'guess')).ok).toBe(false);
  });

  it('includes Shp_ parameters in the check', () => {
    const callback = { ...signedCallback('10.000000', '7', 'pass-two', ':Shp_lang=en'), Shp_lang: 'en' };
    expect(verifyResultCallback(SETTINGS, callback)).toMatchObject({ ok: true, shp: { Shp_lang: 'en' } });
    expect(verifyResultCallback(SETTINGS, { ...callback, Shp_lang: 'ru' }).ok).toBe(false);
  });

  it('refuses incomplete or malformed notifications', () => {
    const { SignatureValue: _, ...unsigned } = signedCallback('1.000000', '1');
    expect(verifyResultCallback(SETTINGS, unsigned).ok).toBe(false);
    expect(verifyResultCallback(SETTINGS, signedCallback('1.000000', '-1')).ok).toBe(false);
    expect(verifyResultCallback(SETTINGS, signedCallback('1.000000', '2147483648')).ok).toBe(false);
    expect(verifyResultCallback(SETTINGS, signedCallback('1,00', '1')).ok).toBe(false);
    expect(
      verifyResultCallback(SETTINGS, { ...signedCallback('1.000000', '1'), OutSum: ['1.000000'] }).ok,
    ).toBe(false);
  });

  it('answers OK followed by the invoice number', () => {
    expect(resultAnswer(5)).toBe('OK5');
  });

  it('reads amounts in kopecks and refuses fractions of a kopeck', () => {
    expect(amountToMinor('100.000000')).toBe(10_000);
    expect(amountToMinor('0.5')).toBe(50);
    expect(amountToMinor('7')).toBe(700);
    expect(amountToMinor('1.005000')).toBeNull();
    expect(amountToMinor('-1.00')).toBeNull();
  });
});

describe('Robokassa browser redirects', () => {
  it('trusts a SuccessURL redirect only with a Password#1 signature', () => {
    const params = {
      OutSum: '1234.500000',
      InvId: '42',
      SignatureValue: md5('1234.500000:42:pass-one'),
      Culture: 'en',
    };
    expect(verifySuccessRedirect(SETTINGS, params)).toEqual({
      ok: true,
      invoiceId: 42,
      outSum: '1234.500000',
      culture: 'en',
      shp: {},
    });
    expect(verifySuccessRedirect(SETTINGS, { ...params, InvId: '43' }).ok).toBe(false);
    expect(
      verifySuccessRedirect(SETTINGS, { ...params, SignatureValue: md5('1234.500000:42:pass-two') }).ok,
    ).toBe(false);
  });

  it('reads a FailURL redirect without pretending it is signed', () => {
    expect(readFailRedirect({ OutSum: '10.000000', InvId: '9', Culture: 'ru' })).toEqual({
      ok: true,
      invoiceId: 9,
      outSum: '10.000000',
      culture: 'ru',
      shp: {},
    });
    expect(readFailRedirect({ OutSum: '10.000000' }).ok).toBe(false);
  });
});

const NS = 'http://auth.robokassa.ru/Merchant/WebService/';

describe('Robokassa OpStateExt answer', () => {
  it('reads the result, the state and the sum in the default namespace', () => {
    const xml = `<?xml version="1.0" encoding="utf-8"?><OperationStateResponse xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns="${NS}"><Result><Code>0</Code></Result><State><Code>100</Code><RequestDate>2026-11-21T18:30:00+03:00</RequestDate><StateDate>2026-11-21T18:31:00+03:00</StateDate></State><Info><IncCurrLabel>BankCardPSR</IncCurrLabel><OutSum>1234.500000</OutSum></Info></OperationStateResponse>`;
    expect(parseOperationState(xml)).toEqual({ resultCode: 0, stateCode: 100, outSum: '1234.500000' });
  });

  it('reads the same answer with namespace prefixes', () => {
    const xml = `<?xml version="1.0"?><r:OperationStateResponse xmlns:r="${NS}"><r:Result><r:Code>0</r:Code></r:Result><r:State><r:Code>10</r:Code></r:State><r:Info><r:OutSum>99.000000</r:OutSum></r:Info></r:OperationStateResponse>`;
    expect(parseOperationState(xml)).toEqual({ resultCode: 0, stateCode: 10, outSum: '99.000000' });
  });

  it('reads an error answer, which has no state', () => {
    const xml = `<OperationStateResponse xmlns="${NS}"><Result><Code>3</Code><Description>Operation not found</Description></Result></OperationStateResponse>`;
    expect(parseOperationState(xml)).toEqual({ resultCode: 3, resultDescription: 'Operation not found' });
  });

  it('refuses what is not an OpStateExt answer', () => {
    expect(() => parseOperationState('<OperationStateResponse><Result>')).toThrow(/not well-formed/);
    expect(() => parseOperationState('<html><body>Service Unavailable</body></html>')).toThrow(
      /Result\/Code/,
    );
  });
});

async function listen(app: FastifyInstance): Promise<string> {
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  return address;
}

describe('Robokassa client against the simulator over HTTP', () => {
  let shop: FastifyInstance;
  let provider: FastifyInstance;
  let simulator: RobokassaSimulator;
  let base: string;
  let settings: RobokassaSettings;
  const notifications: Array<Record<string, string>> = [];

  beforeAll(async () => {
    // A stand-in for the shop's ResultURL route: verifies, answers OK{InvId} or refuses.
    shop = Fastify();
    await shop.register(fastifyFormbody);
    shop.post('/api/robokassa/result', async (request, reply) => {
      const params = request.body as Record<string, string>;
      notifications.push(params);
      const check = verifyResultCallback(SETTINGS, params);
      if (!check.ok) return reply.code(400).type('text/plain').send(check.reason);
      return reply.type('text/plain').send(resultAnswer(check.invoiceId));
    });
    const shopBase = await listen(shop);

    simulator = createRobokassaSimulator(
      {
        merchantLogin: SETTINGS.merchantLogin,
        password1: SETTINGS.password1,
        password2: SETTINGS.password2,
        password3: SETTINGS.password3,
        hashAlgorithm: SETTINGS.hashAlgorithm,
        resultUrl: `${shopBase}/api/robokassa/result`,
        successUrl: `${shopBase}/order/result/robokassa`,
        failUrl: `${shopBase}/order/cancel/robokassa`,
      },
      { retryDelaysMs: [] },
    );
    provider = Fastify();
    // Mounted like the shop mounts it: next to @fastify/formbody.
    await provider.register(fastifyFormbody);
    await provider.register(simulator.plugin);
    base = await listen(provider);
    settings = {
      ...SETTINGS,
      isTest: true,
      paymentUrl: `${base}/sandbox/robokassa`,
      opStateUrl: `${base}/sandbox/robokassa/opstate`,
      refundCreateUrl: `${base}/sandbox/robokassa/refund/create`,
      refundStateUrl: `${base}/sandbox/robokassa/refund/state`,
      secondReceiptUrl: `${base}/sandbox/robokassa/receipt/attach`,
    };
  });

  afterAll(async () => {
    await provider?.close();
    await shop?.close();
  });

  async function payInvoice(id: number, outSum = '1234.50', receipt?: RobokassaReceipt) {
    const fields = robokassaFormFields(
      settings,
      invoice({
        id,
        outSum,
        description: `Shop. Order #${id} Invoice`,
        expiresAt: new Date(Date.now() + 3_600_000),
        ...(receipt ? { receipt } : {}),
      }),
    );
    const page = await fetch(settings.paymentUrl, { method: 'POST', body: new URLSearchParams(fields) });
    expect(page.status).toBe(200);
    const html = await page.text();
    const hidden = new URLSearchParams({
      invoice: /name="invoice" value="([^"]+)"/.exec(html)?.[1] ?? '',
      mac: /name="mac" value="([^"]+)"/.exec(html)?.[1] ?? '',
    });
    return fetch(`${base}/sandbox/robokassa/pay`, { method: 'POST', body: hidden, redirect: 'manual' });
  }

  it('reports an invoice Robokassa has never seen as operation not found', async () => {
    expect(await checkOperationState(settings, 9_999)).toEqual({
      resultCode: 3,
      resultDescription: 'Operation not found',
    });
  });

  it('pays: the shop gets a notification it can verify, then the shopper returns to SuccessURL', async () => {
    const answer = await payInvoice(101);
    expect(answer.status).toBe(303);

    const notification = notifications.at(-1) as Record<string, string>;
    expect(notification).toMatchObject({ OutSum: '1234.500000', InvId: '101' });
    expect(verifyResultCallback(settings, notification)).toMatchObject({
      ok: true,
      invoiceId: 101,
      amountMinor: 123_450,
    });
    expect(simulator.state.callbacks.at(-1)).toMatchObject({ accepted: true, body: 'OK101' });

    const location = new URL(answer.headers.get('location') ?? '');
    expect(`${location.origin}${location.pathname}`).toMatch(/\/order\/result\/robokassa$/);
    expect(verifySuccessRedirect(settings, Object.fromEntries(location.searchParams))).toMatchObject({
      ok: true,
      invoiceId: 101,
      culture: 'ru',
    });
  });

  it('refuses the same notification once its OutSum is altered', async () => {
    await payInvoice(102, '500.00');
    const genuine = notifications.at(-1) as Record<string, string>;
    expect(verifyResultCallback(settings, genuine).ok).toBe(true);
    expect(verifyResultCallback(settings, { ...genuine, OutSum: '5.000000' }).ok).toBe(false);
  });

  it('lets a test replay a notification and forge one, which the shop refuses', async () => {
    await payInvoice(103, '10.00');
    const replay = await simulator.state.sendResultCallback(103, '10.00');
    expect(replay).toMatchObject({ accepted: true, status: 200, body: 'OK103' });
    const forged = await simulator.state.sendResultCallback(103, '10.00', { forge: true });
    expect(forged).toMatchObject({ accepted: false, status: 400, forged: true });
  });

  it('reports a paid invoice as state 100 with its sum', async () => {
    await payInvoice(104, '77.70');
    expect(await checkOperationState(settings, 104)).toEqual({
      resultCode: 0,
      stateCode: 100,
      outSum: '77.700000',
      opKey: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
  });

  it('refunds part of a paid operation by its OpKey, then the rest, and reports each refund finished', async () => {
    await payInvoice(105, '100.00');
    const { opKey } = await checkOperationState(settings, 105);
    const part = await createRobokassaRefund(settings, { opKey: opKey as string, refundSum: 30_00 });
    expect(part).toMatchObject({ ok: true });
    const rest = await createRobokassaRefund(settings, { opKey: opKey as string, refundSum: 70_00 });
    expect(rest).toMatchObject({ ok: true });
    if (!part.ok || !rest.ok) return;
    expect(await checkRobokassaRefund(settings, part.requestId)).toEqual({
      requestId: part.requestId,
      label: 'finished',
      amount: '30.00',
    });
    expect((await checkRobokassaRefund(settings, rest.requestId)).amount).toBe('70.00');
    expect(await createRobokassaRefund(settings, { opKey: opKey as string, refundSum: 1 })).toEqual({
      ok: false,
      message: 'AlreadyRefunded',
    });
  });

  it('refuses a refund above what is left, one signed with another password, and an unknown OpKey', async () => {
    await payInvoice(106, '50.00');
    const { opKey } = await checkOperationState(settings, 106);
    const refund = { opKey: opKey as string, refundSum: 50_01 };
    expect(await createRobokassaRefund(settings, refund)).toEqual({
      ok: false,
      message: 'NotEnoughOperationFunds',
    });
    expect(
      await createRobokassaRefund(
        { ...settings, password3: settings.password2 },
        { ...refund, refundSum: 1_00 },
      ),
    ).toEqual({ ok: false, message: 'InvalidToken' });
    expect(await createRobokassaRefund(settings, { opKey: 'no-such-operation', refundSum: 1_00 })).toEqual({
      ok: false,
      message: 'OperationNotFound',
    });
    expect([...simulator.state.refunds.values()].filter((entry) => entry.invoiceId === 106)).toEqual([]);
  });

  it('reports a refund that is still processing until the provider settles it', async () => {
    await payInvoice(107, '20.00');
    const { opKey } = await checkOperationState(settings, 107);
    simulator.state.newRefundLabel = 'processing';
    const refund = await createRobokassaRefund(settings, { opKey: opKey as string, refundSum: 20_00 });
    simulator.state.newRefundLabel = 'finished';
    if (!refund.ok) throw new Error(refund.message);
    expect((await checkRobokassaRefund(settings, refund.requestId)).label).toBe('processing');
    (simulator.state.refunds.get(refund.requestId) as { label: string }).label = 'finished';
    expect((await checkRobokassaRefund(settings, refund.requestId)).label).toBe('finished');
  });

  it('takes a paid form with its receipt, and refuses one whose receipt was changed after signing', async () => {
    const receipt: RobokassaReceipt = {
      items: [{ ...(GOODS.items[0] as RobokassaReceipt['items'][number]), sum: 300_00 }],
    };
    expect((await payInvoice(108, '300.00', receipt)).status).toBe(303);
    expect(simulator.state.operations.get(108)?.receipt?.items[0]?.sum).toBe(300);
    const fields = robokassaFormFields(
      settings,
      invoice({ id: 109, outSum: '300.00', receipt, expiresAt: new Date(Date.now() + 60_000) }),
    );
    const altered = { ...fields, Receipt: (fields.Receipt as string).replace('300', '299') };
    const page = await fetch(settings.paymentUrl, { method: 'POST', body: new URLSearchParams(altered) });
    expect(page.status).toBe(400);
    expect(await page.text()).toContain('Invalid signature');
  });

  it('registers a second receipt once per paid operation, refusing a wrong signature', async () => {
    await payInvoice(110, '300.00');
    const second = {
      id: 2_147_483_700,
      originId: 110,
      url: 'https://shop.example',
      items: [{ ...(GOODS.items[0] as RobokassaReceipt['items'][number]), sum: 300_00 }],
      email: 'anna@example.com',
    };
    expect(await attachSecondReceipt({ ...settings, password1: 'guess' }, second)).toEqual({
      ok: false,
      message: 'ResultCode 1001: Invalid signature',
    });
    expect(await attachSecondReceipt(settings, second)).toMatchObject({ ok: true, code: '0' });
    expect(simulator.state.secondReceipts.at(-1)?.payload).toMatchObject({ originId: '110', total: 300 });
    expect(await attachSecondReceipt(settings, second)).toMatchObject({ ok: false });
  });

  it('refuses a refund whose InvoiceItems do not add up to RefundSum', async () => {
    await payInvoice(111, '300.00');
    const { opKey } = await checkOperationState(settings, 111);
    const item = { ...(GOODS.items[0] as RobokassaReceipt['items'][number]), sum: 100_00 };
    expect(
      await createRobokassaRefund(settings, { opKey: opKey as string, refundSum: 150_00, items: [item] }),
    ).toEqual({ ok: false, message: 'InvalidInvoiceItems' });
    expect(
      await createRobokassaRefund(settings, { opKey: opKey as string, refundSum: 100_00, items: [item] }),
    ).toMatchObject({ ok: true });
  });

  it('signs refund requests as an HS256 JWT with Password#3', () => {
    const [header, payload, signature] = robokassaJwt({ OpKey: 'key', RefundSum: '1.00' }, 'secret').split(
      '.',
    );
    expect(JSON.parse(Buffer.from(header as string, 'base64url').toString())).toEqual({
      alg: 'HS256',
      typ: 'JWT',
    });
    expect(JSON.parse(Buffer.from(payload as string, 'base64url').toString())).toEqual({
      OpKey: 'key',
      RefundSum: '1.00',
    });
    expect(signature).toBe(createHmac('sha256', 'secret').update(`${header}.${payload}`).digest('base64url'));
  });

  it('gets Result/Code 1 when the status query is signed with a wrong password', async () => {
    expect(await checkOperationState({ ...settings, password2: 'wrong' }, 104)).toMatchObject({
      resultCode: 1,
    });
    expect(await checkOperationState({ ...settings, merchantLogin: 'other-shop' }, 104)).toMatchObject({
      resultCode: 2,
    });
  });
});

describe('Robokassa status query failures', () => {
  let server: Server;
  let base: string;

  beforeAll(async () => {
    server = createServer((request, response) => {
      if (request.url?.startsWith('/slow')) return; // never answers
      response.writeHead(500, { 'content-type': 'text/html' }).end('<h1>Server Error</h1>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('throws on an HTTP error', async () => {
    await expect(checkOperationState({ ...SETTINGS, opStateUrl: `${base}/error` }, 1)).rejects.toThrow(
      /HTTP 500/,
    );
  });

  it('gives up after its time-out', async () => {
    await expect(
      checkOperationState({ ...SETTINGS, opStateUrl: `${base}/slow` }, 1, fetch, 200),
    ).rejects.toThrow();
  });
});
