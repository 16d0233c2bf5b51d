import fastifyFormbody from '@fastify/formbody';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { checkIpnPayment, parseIpn } from '../paypal.ts';
import { createPaypalSimulator, type PaypalSimulator } from './paypal.ts';

const BUSINESS = 'shop-facilitator@vitrina.example';
const RECEIVER_ID = 'S8XGHLYDW9T3S';

describe('PayPal simulator', () => {
  let shop: FastifyInstance;
  let provider: FastifyInstance;
  let simulator: PaypalSimulator;
  let base: string;
  let shopUrl: string;
  let notifyUrl: string;
  let shopStatus = 200;
  const received: string[] = [];

  beforeAll(async () => {
    shop = Fastify();
    await shop.register(async (ipn) => {
      ipn.addContentTypeParser(
        'application/x-www-form-urlencoded',
        { parseAs: 'string' },
        (_request, body, done) => done(null, body),
      );
      ipn.post('/api/paypal/ipn', async (request, reply) => {
        received.push(request.body as string);
        return reply.code(shopStatus).send();
      });
    });
    shopUrl = await shop.listen({ port: 0, host: '127.0.0.1' });
    notifyUrl = `${shopUrl}/api/paypal/ipn`;

    simulator = createPaypalSimulator(
      {
        business: BUSINESS,
        receiverId: RECEIVER_ID,
        shopUrl,
        api: { user: 'api-user', password: 'api-password', signature: 'api-signature' },
      },
      { retryDelaysMs: [5, 5] },
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
    shopStatus = 200;
  });

  const cartForm = (overrides: Record<string, string> = {}) => ({
    cmd: '_cart',
    upload: '1',
    lc: 'RU',
    currency_code: 'RUB',
    business: BUSINESS,
    notify_url: notifyUrl,
    return: `${shopUrl}/order/result/paypal?order=1`,
    cancel_return: `${shopUrl}/order/cancel/paypal?order=1`,
    rm: '0',
    charset: 'utf-8',
    invoice: '1',
    item_name_1: 'Магазин. Заказ №1',
    amount_1: '2400.00',
    quantity_1: '1',
    no_shipping: '1',
    shipping_1: '350.50',
    email: 'anna@example.com',
    first_name: 'Анна',
    last_name: 'Иванова',
    night_phone_a: '+7 900 000-00-00',
    country: 'RU',
    city: 'Москва',
    address1: 'ул. Тверская, 1',
    zip: '125009',
    ...overrides,
  });

  const post = (path: string, body: Record<string, string> | URLSearchParams) =>
    fetch(`${base}${path}`, { method: 'POST', body: new URLSearchParams(body), redirect: 'manual' });

  const verify = (body: string) =>
    fetch(`${base}/sandbox/paypal/ipn-verify`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body,
    }).then((response) => response.text());

  const buttons = (html: string) =>
    new URLSearchParams({
      cart: /name="cart" value="([^"]+)"/.exec(html)?.[1] ?? '',
      mac: /name="mac" value="([^"]+)"/.exec(html)?.[1] ?? '',
    });

  it('shows a checkout page with the items, shipping, total and Pay / Cancel', async () => {
    const response = await post('/sandbox/paypal', cartForm());
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('<html lang="ru">');
    expect(html).toContain('SANDBOX — no real money');
    expect(html).toContain('Магазин. Заказ №1');
    expect(html).toMatch(/2\s400,00\s₽/);
    expect(html).toMatch(/350,50\s₽/);
    expect(html).toMatch(/2\s750,50\s₽/);
    expect(html).toMatch(/class="pay">Оплатить</);
    expect(html).toMatch(/class="cancel">Отменить</);
  });

  it("refuses another merchant's business and a form with missing fields", async () => {
    const foreign = await post('/sandbox/paypal', cartForm({ business: 'someone@else.example', lc: 'US' }));
    expect(foreign.status).toBe(400);
    expect(await foreign.text()).toContain('problem with the PayPal email address');

    const { notify_url: _, amount_1: __, ...incomplete } = cartForm({ lc: 'US' });
    const missing = await post('/sandbox/paypal', incomplete);
    expect(missing.status).toBe(400);
    expect(await missing.text()).toContain('Missing fields: notify_url, amount_1');

    expect((await post('/sandbox/paypal', cartForm({ amount_1: '12,00' }))).status).toBe(400);
    expect((await post('/sandbox/paypal', cartForm({ cmd: '_xclick' }))).status).toBe(400);
  });

  it('calls and sends shoppers only to the shop: a notify_url, return or cancel_return elsewhere is refused', async () => {
    const port = new URL(shopUrl).port;
    const elsewhere = [
      'http://evil.example/api/paypal/ipn',
      `http://localhost:${port}/api/paypal/ipn`,
      `http://127.0.0.1:${port}@evil.example/api/paypal/ipn`,
      `http://user@127.0.0.1:${port}/api/paypal/ipn`,
      `https://127.0.0.1:${port}/api/paypal/ipn`,
      '/api/paypal/ipn',
      'javascript:alert(1)',
    ];
    const before = received.length;
    for (const name of ['notify_url', 'return', 'cancel_return']) {
      for (const url of elsewhere) {
        const answer = await post('/sandbox/paypal', cartForm({ invoice: '21', lc: 'US', [name]: url }));
        expect(answer.status, `${name}=${url}`).toBe(400);
        expect(await answer.text()).toContain(`${name} must be an address of the shop (${shopUrl})`);
      }
    }
    expect(simulator.state.carts.has('21')).toBe(false);
    expect(received.length).toBe(before);
  });

  it('accepts the business case-insensitively or as the merchant id', async () => {
    expect((await post('/sandbox/paypal', cartForm({ business: BUSINESS.toUpperCase() }))).status).toBe(200);
    expect((await post('/sandbox/paypal', cartForm({ business: RECEIVER_ID }))).status).toBe(200);
  });

  it('pays: posts a genuine IPN to notify_url, then sends the shopper to return', async () => {
    const page = await post('/sandbox/paypal', cartForm({ invoice: '11' }));
    const answer = await post('/sandbox/paypal/pay', buttons(await page.text()));
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toBe(`${shopUrl}/order/result/paypal?order=1`);

    const raw = received.at(-1) as string;
    const { fields } = parseIpn(raw);
    expect(fields).toMatchObject({
      txn_type: 'cart',
      payment_status: 'Completed',
      mc_gross: '2750.50',
      mc_currency: 'RUB',
      invoice: '11',
      custom: '',
      receiver_email: BUSINESS,
      receiver_id: RECEIVER_ID,
      payer_email: 'anna@example.com',
      first_name: 'Анна',
      num_cart_items: '1',
      item_name1: 'Магазин. Заказ №1',
      quantity1: '1',
      mc_gross_1: '2750.50',
      test_ipn: '1',
      charset: 'utf-8',
    });
    expect(fields.txn_id).toMatch(/^[A-Z0-9]{17}$/);
    expect(fields.verify_sign).toBeTruthy();
    expect(Number(fields.mc_fee)).toBeGreaterThan(0);

    expect(await verify(`cmd=_notify-validate&${raw}`)).toBe('VERIFIED');
    expect(
      checkIpnPayment({ business: BUSINESS, receiverId: RECEIVER_ID, sandbox: true }, fields, {
        invoice: '11',
        amount: '2750.50',
        currency: 'RUB',
      }).kind,
    ).toBe('completed');
  });

  it('verifies only the exact bytes it sent', async () => {
    const raw = received.at(-1) as string;
    expect(await verify(`cmd=_notify-validate&${raw}`)).toBe('VERIFIED');
    expect(await verify(raw)).toBe('INVALID');
    expect(await verify(`cmd=_notify-validate&${raw}&extra=1`)).toBe('INVALID');
    expect(await verify(`cmd=_notify-validate&${raw.replace('Completed', 'Completes')}`)).toBe('INVALID');
    expect(await verify(`cmd=_notify-validate&${raw.replace('payment_status', 'payment%5Fstatus')}`)).toBe(
      'INVALID',
    );
  });

  it('will not take a second payment for a paid invoice', async () => {
    const again = await post('/sandbox/paypal', cartForm({ invoice: '11' }));
    expect(again.status).toBe(400);
    expect(await again.text()).toContain('already been paid');
  });

  it('sends Cancel to cancel_return without any IPN', async () => {
    const page = await post('/sandbox/paypal', cartForm({ invoice: '12' }));
    const before = received.length;
    const answer = await post('/sandbox/paypal/cancel', buttons(await page.text()));
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toBe(`${shopUrl}/order/cancel/paypal?order=1`);
    expect(received.length).toBe(before);
  });

  it('refuses a cart edited on the page', async () => {
    const page = await post('/sandbox/paypal', cartForm({ invoice: '13' }));
    const hidden = buttons(await page.text());
    const cart = JSON.parse(Buffer.from(hidden.get('cart') ?? '', 'base64url').toString('utf8'));
    hidden.set('cart', Buffer.from(JSON.stringify({ ...cart, total: '1.00' })).toString('base64url'));
    const answer = await post('/sandbox/paypal/pay', hidden);
    expect(answer.status).toBe(400);
    expect(await answer.text()).toContain('The cart was altered');
  });

  it('retries the IPN while the shop answers an error', async () => {
    shopStatus = 500;
    const page = await post('/sandbox/paypal', cartForm({ invoice: '14' }));
    const answer = await post('/sandbox/paypal/pay', buttons(await page.text()));
    expect(answer.status).toBe(303);
    await simulator.state.settled();
    const ipn = simulator.state.sentIpns.at(-1);
    expect(ipn?.attempts.map((attempt) => attempt.status)).toEqual([500, 500, 500]);
  });

  it('lets a test send wrong-amount, foreign-receiver and forged IPNs', async () => {
    const wrongAmount = await simulator.state.sendIpn('11', { mc_gross: '1.00', mc_gross_1: '1.00' });
    expect(wrongAmount.genuine).toBe(true);
    expect(
      checkIpnPayment({ business: BUSINESS, receiverId: RECEIVER_ID, sandbox: true }, wrongAmount.fields, {
        invoice: '11',
        amount: '2750.50',
        currency: 'RUB',
      }).kind,
    ).toBe('mismatch');

    const foreign = await simulator.state.sendIpn('11', {
      receiver_email: 'other@example.com',
      receiver_id: 'X',
    });
    expect(
      checkIpnPayment({ business: BUSINESS, receiverId: RECEIVER_ID, sandbox: true }, foreign.fields, {
        invoice: '11',
        amount: '2750.50',
        currency: 'RUB',
      }).kind,
    ).toBe('foreign-receiver');

    const forged = await simulator.state.sendIpn('11', { custom: 'x' }, { forge: true });
    expect(received.at(-1)).toBe(forged.body);
    expect(await verify(`cmd=_notify-validate&${forged.body}`)).toBe('INVALID');
    await expect(simulator.state.sendIpn('999')).rejects.toThrow(/has not seen invoice 999/);
  });
});
