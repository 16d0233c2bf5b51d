import { createHash } from 'node:crypto';
import fastifyFormbody from '@fastify/formbody';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { resultAnswer, verifyResultCallback } from '../robokassa.ts';
import { createRobokassaSimulator, formatRobokassaSum, type RobokassaSimulator } from './robokassa.ts';

const md5 = (text: string) => createHash('md5').update(text, 'utf8').digest('hex');
const LOGIN = 'vitrina-test';
const PASSWORD1 = 'sim-pass-1';
const PASSWORD2 = 'sim-pass-2';
const NOW = new Date('2026-11-21T12:00:00Z');

/** The form a shop posts, signed by hand (not with the shop's client). */
function form(overrides: Record<string, string> = {}, password = PASSWORD1) {
  const fields: Record<string, string> = {
    MrchLogin: LOGIN,
    OutSum: '1500.00',
    OutSumCurrency: '',
    InvId: '7',
    Desc: 'Shop. Order #7 Invoice',
    Encoding: 'utf-8',
    ExpirationDate: '2026-11-22T15:00:00.0000000+03:00',
    IsTest: '1',
    ...overrides,
  };
  const currency = fields.OutSumCurrency ? `:${fields.OutSumCurrency}` : '';
  fields.SignatureValue ??= md5(
    `${fields.MrchLogin}:${fields.OutSum}:${fields.InvId}${currency}:${password}`,
  );
  return fields;
}

function hiddenFields(html: string) {
  return new URLSearchParams({
    invoice: /name="invoice" value="([^"]+)"/.exec(html)?.[1] ?? '',
    mac: /name="mac" value="([^"]+)"/.exec(html)?.[1] ?? '',
  });
}

describe('Robokassa simulator', () => {
  let shop: FastifyInstance;
  let provider: FastifyInstance;
  let simulator: RobokassaSimulator;
  let base: string;
  let shopAnswers: 'verify' | 'garbage' = 'verify';
  const notifications: Array<Record<string, string>> = [];

  beforeAll(async () => {
    shop = Fastify();
    await shop.register(fastifyFormbody);
    shop.post('/api/robokassa/result', async (request, reply) => {
      const params = request.body as Record<string, string>;
      notifications.push(params);
      if (shopAnswers === 'garbage') return reply.code(500).send('oops');
      const check = verifyResultCallback({ password2: PASSWORD2, hashAlgorithm: 'md5' }, params);
      return check.ok
        ? reply.type('text/plain').send(resultAnswer(check.invoiceId))
        : reply.code(400).send(check.reason);
    });
    const shopBase = await shop.listen({ port: 0, host: '127.0.0.1' });

    simulator = createRobokassaSimulator(
      {
        merchantLogin: LOGIN,
        password1: PASSWORD1,
        password2: PASSWORD2,
        password3: 'pass-three',
        hashAlgorithm: 'md5',
        resultUrl: `${shopBase}/api/robokassa/result`,
        successUrl: 'http://shop.example/order/result/robokassa',
        failUrl: 'http://shop.example/order/cancel/robokassa?from=robokassa',
      },
      { clock: () => NOW, retryDelaysMs: [5, 5] },
    );
    provider = Fastify();
    await provider.register(fastifyFormbody);
    await provider.register(simulator.plugin);
    base = await provider.listen({ port: 0, host: '127.0.0.1' });
  });

  afterAll(async () => {
    await provider?.close();
    await shop?.close();
  });

  beforeEach(() => {
    shopAnswers = 'verify';
  });

  const post = (path: string, body: Record<string, string> | URLSearchParams) =>
    fetch(`${base}${path}`, { method: 'POST', body: new URLSearchParams(body), redirect: 'manual' });

  it('shows an invoice page with the order, amount, expiry and three buttons', async () => {
    const response = await post('/sandbox/robokassa', form());
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/text\/html/);
    const html = await response.text();
    expect(html).toContain('<html lang="ru">');
    expect(html).toContain('SANDBOX — no real money');
    expect(html).toContain('Shop. Order #7 Invoice');
    expect(html).toMatch(/1\s500,00\s₽/);
    expect(html).toContain('22 ноября 2026');
    for (const action of ['pay', 'fail', 'cancel']) {
      expect(html).toContain(`action="/sandbox/robokassa/${action}"`);
    }
    expect(html).toMatch(/<button type="submit" class="pay">Оплатить<\/button>/);
    expect(simulator.state.operations.get(7)).toMatchObject({
      stateCode: 5,
      isTest: true,
      outSum: '1500.00',
    });
  });

  it('speaks English with Culture=en and accepts the form by GET too', async () => {
    const query = new URLSearchParams(
      form({ InvId: '8', OutSum: '12.50', OutSumCurrency: 'USD', Culture: 'en' }),
    );
    const response = await fetch(`${base}/sandbox/robokassa?${query}`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('$12.50');
    expect(html).toMatch(/class="pay">Pay</);
  });

  it('refuses a form with a bad signature, like the real page', async () => {
    const response = await post('/sandbox/robokassa', form({ SignatureValue: md5('forged') }));
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('Invalid signature');
  });

  it('refuses a form whose amount was changed after signing', async () => {
    const signed = form();
    const response = await post('/sandbox/robokassa', { ...signed, OutSum: '1.00' });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('Invalid signature');
  });

  // Source: https://docs.robokassa.ru/ru/fiscalization — Receipt is URL-encoded JSON signed after
  // InvId (MerchantLogin:OutSum:InvId:Receipt:Пароль#1); its items' sums add up to OutSum, in roubles.
  it('takes a Receipt signed after InvId whose items add up to OutSum, and refuses one that does not', async () => {
    const receipt = (sum: number) =>
      encodeURIComponent(
        JSON.stringify({
          sno: 'usn_income',
          items: [
            {
              name: 'Футболка',
              quantity: 2,
              sum,
              payment_method: 'full_prepayment',
              payment_object: 'commodity',
              tax: 'none',
            },
            {
              name: 'Доставка',
              quantity: 1,
              sum: 300,
              payment_method: 'full_prepayment',
              payment_object: 'service',
              tax: 'none',
            },
          ],
        }),
      );
    const withReceipt = (text: string, extra: Record<string, string> = {}) => {
      const currency = extra.OutSumCurrency ? `:${extra.OutSumCurrency}` : '';
      return form({
        InvId: '31',
        Receipt: text,
        ...extra,
        SignatureValue: md5(`${LOGIN}:1500.00:31${currency}:${text}:${PASSWORD1}`),
      });
    };
    expect((await post('/sandbox/robokassa', withReceipt(receipt(1200)))).status).toBe(200);
    expect(simulator.state.operations.get(31)?.receipt?.sno).toBe('usn_income');
    const short = await post('/sandbox/robokassa', withReceipt(receipt(1199.99)));
    expect(short.status).toBe(400);
    expect(await short.text()).toContain('Receipt items do not add up to OutSum');
    const dollars = await post('/sandbox/robokassa', withReceipt(receipt(1200), { OutSumCurrency: 'USD' }));
    expect(dollars.status).toBe(400);
    expect(await dollars.text()).toContain('Receipt sums are roubles');
    // Signed without the receipt: the signature does not cover what is sent.
    const unsigned = form({ InvId: '32', Receipt: receipt(1200) });
    expect(await (await post('/sandbox/robokassa', unsigned)).text()).toContain('Invalid signature');
  });

  it('refuses a form signed with Password#2, another shop, or an expired invoice', async () => {
    expect((await post('/sandbox/robokassa', form({}, PASSWORD2))).status).toBe(400);
    const otherShop = await post('/sandbox/robokassa', form({ MrchLogin: 'someone-else' }));
    expect(otherShop.status).toBe(400);
    expect(await otherShop.text()).toContain('Shop not found');
    const expired = await post('/sandbox/robokassa', form({ ExpirationDate: '2026-11-21T14:59:00+03:00' }));
    expect(expired.status).toBe(400);
    expect(await expired.text()).toContain('The invoice has expired');
  });

  it('pays: notifies ResultURL with a Password#2 signature, then sends the shopper to SuccessURL', async () => {
    const page = await post('/sandbox/robokassa', form({ InvId: '21', OutSum: '99.90' }));
    const answer = await post('/sandbox/robokassa/pay', hiddenFields(await page.text()));

    expect(answer.status).toBe(303);
    const notification = notifications.at(-1) as Record<string, string>;
    expect(Object.keys(notification).sort()).toEqual(
      ['EMail', 'Fee', 'IncCurrLabel', 'InvId', 'OutSum', 'PaymentMethod', 'SignatureValue'].sort(),
    );
    expect(notification.OutSum).toBe('99.900000');
    expect(notification.SignatureValue?.toLowerCase()).toBe(md5(`99.900000:21:${PASSWORD2}`));

    const location = new URL(answer.headers.get('location') ?? '');
    expect(location.pathname).toBe('/order/result/robokassa');
    expect(Object.fromEntries(location.searchParams)).toEqual({
      OutSum: '99.900000',
      InvId: '21',
      SignatureValue: md5(`99.900000:21:${PASSWORD1}`),
      Culture: 'ru',
    });
    expect(simulator.state.operations.get(21)).toMatchObject({ stateCode: 100, outcome: 'paid' });
  });

  it("calls and sends shoppers only to the shop's own URLs, whatever addresses the form names", async () => {
    const elsewhere = {
      ResultUrl2: 'http://evil.example/result',
      SuccessUrl2: 'http://evil.example/success',
      FailUrl2: 'http://evil.example/fail',
    };
    const before = notifications.length;
    const page = await post('/sandbox/robokassa', { ...form({ InvId: '22' }), ...elsewhere });
    const paid = await post('/sandbox/robokassa/pay', hiddenFields(await page.text()));
    expect(notifications.length).toBe(before + 1);
    expect(notifications.at(-1)?.InvId).toBe('22');
    expect(new URL(paid.headers.get('location') ?? '').origin).toBe('http://shop.example');

    const failPage = await post('/sandbox/robokassa', { ...form({ InvId: '23' }), ...elsewhere });
    const failed = await post('/sandbox/robokassa/fail', hiddenFields(await failPage.text()));
    expect(new URL(failed.headers.get('location') ?? '').origin).toBe('http://shop.example');
  });

  it('will not take a second payment for a paid invoice', async () => {
    const again = await post('/sandbox/robokassa', form({ InvId: '21', OutSum: '99.90' }));
    expect(again.status).toBe(400);
    expect(await again.text()).toContain('already been paid');
  });

  it('sends Fail and Cancel to FailURL with OutSum, InvId and Culture, and marks the invoice refused or cancelled', async () => {
    for (const [action, invId] of [
      ['fail', '31'],
      ['cancel', '32'],
    ] as const) {
      const page = await post('/sandbox/robokassa', form({ InvId: invId }));
      const before = notifications.length;
      const answer = await post(`/sandbox/robokassa/${action}`, hiddenFields(await page.text()));
      expect(answer.status).toBe(303);
      const location = new URL(answer.headers.get('location') ?? '');
      expect(location.pathname).toBe('/order/cancel/robokassa');
      expect(Object.fromEntries(location.searchParams)).toEqual({
        from: 'robokassa',
        OutSum: '1500.000000',
        InvId: invId,
        Culture: 'ru',
      });
      expect(notifications.length).toBe(before);
      expect(simulator.state.operations.get(Number(invId))).toMatchObject({
        stateCode: action === 'fail' ? 60 : 10,
        outcome: action === 'fail' ? 'failed' : 'cancelled',
      });
    }
  });

  it('refuses buttons whose hidden invoice was edited', async () => {
    const page = await post('/sandbox/robokassa', form({ InvId: '41' }));
    const hidden = hiddenFields(await page.text());
    const ticket = JSON.parse(Buffer.from(hidden.get('invoice') ?? '', 'base64url').toString('utf8'));
    hidden.set('invoice', Buffer.from(JSON.stringify({ ...ticket, outSum: '1.00' })).toString('base64url'));
    const answer = await post('/sandbox/robokassa/pay', hidden);
    expect(answer.status).toBe(400);
    expect(await answer.text()).toContain('The invoice was altered');
    expect(simulator.state.operations.get(41)?.stateCode).toBe(5);
  });

  it('retries ResultURL until the shop answers OK{InvId}, and still returns the shopper', async () => {
    shopAnswers = 'garbage';
    const page = await post('/sandbox/robokassa', form({ InvId: '51' }));
    const before = simulator.state.callbacks.length;
    const answer = await post('/sandbox/robokassa/pay', hiddenFields(await page.text()));
    expect(answer.status).toBe(303);
    await simulator.state.settled();
    const attempts = simulator.state.callbacks.slice(before);
    expect(attempts).toHaveLength(3);
    expect(attempts.every((attempt) => attempt.status === 500 && !attempt.accepted)).toBe(true);
  });

  it('answers OpStateExt in the Robokassa namespace and checks its signature', async () => {
    const query = (invoiceId: string, password = PASSWORD2) =>
      new URLSearchParams({
        MerchantLogin: LOGIN,
        InvoiceID: invoiceId,
        Signature: md5(`${LOGIN}:${invoiceId}:${password}`),
      });
    const paid = await fetch(`${base}/sandbox/robokassa/opstate?${query('21')}`);
    expect(paid.headers.get('content-type')).toMatch(/text\/xml/);
    const xml = await paid.text();
    expect(xml).toContain('<OperationStateResponse');
    expect(xml).toContain('xmlns="http://auth.robokassa.ru/Merchant/WebService/"');
    expect(xml).toContain('<Result><Code>0</Code></Result><State><Code>100</Code>');
    expect(xml).toContain('<OutSum>99.900000</OutSum>');

    const badSignature = await (await post('/sandbox/robokassa/opstate', query('21', PASSWORD1))).text();
    expect(badSignature).toContain('<Result><Code>1</Code>');
    expect(badSignature).not.toContain('<State>');
    expect(await (await fetch(`${base}/sandbox/robokassa/opstate?${query('424242')}`)).text()).toContain(
      '<Code>3</Code>',
    );
  });

  it('formats sums the way Robokassa writes them', () => {
    expect(formatRobokassaSum('1234.5')).toBe('1234.500000');
    expect(formatRobokassaSum('7')).toBe('7.000000');
    expect(formatRobokassaSum('100.000000')).toBe('100.000000');
  });
});
