import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  capturePaypalOrder,
  createPaypalOrder,
  forgetPaypalTokens,
  getPaypalOrder,
  PaypalRefusal,
  type PaypalSettings,
  paypalApproveOrigins,
  paypalOrderRequest,
  readOrder,
  readPaypalEvent,
  refundPaypalCapture,
  verifyPaypalWebhook,
} from './paypal.ts';
import { createPaypalSimulator, type PaypalSimulator } from './simulators/paypal.ts';

/**
 * The PayPal REST client and its simulator, both against PayPal's published material:
 * - SPEC = paypal/paypal-rest-api-specifications (commit ec4d8f3), openapi/checkout_orders_v2.json,
 *   openapi/payments_payment_v2.json, openapi/notifications_webhooks_v1.json: request examples,
 *   schema property names, enums and error issues;
 * - the response samples of https://developer.paypal.com/docs/api/orders/v2/ (capture) and the
 *   event shapes of https://developer.paypal.com/api/rest/webhooks/event-names/.
 */

const SHOP = 'https://shop.example';

const order = {
  orderId: 17,
  currency: 'USD',
  locale: 'en' as const,
  brandName: 'Vitrina',
  items: [
    { name: 'Mug', sku: 'MUG-1', unitMinor: 13_95, quantity: 2 },
    { name: 'Hoodie, Size: M', sku: 'HOOD-M', unitMinor: 64_76, quantity: 4 },
  ],
  discountMinor: 0,
  shippingMinor: 16_26,
  returnUrl: `${SHOP}/order/result/paypal?order=17`,
  cancelUrl: `${SHOP}/order/cancel/paypal?order=17`,
};

// SPEC checkout_orders_v2.json, components.schemas: the property names of the objects we send.
const DOCUMENTED = {
  order_request: ['application_context', 'intent', 'payer', 'payment_source', 'purchase_units'],
  purchase_unit_request: [
    'amount',
    'custom_id',
    'description',
    'invoice_id',
    'items',
    'payee',
    'payment_instruction',
    'reference_id',
    'shipping',
    'soft_descriptor',
    'supplementary_data',
  ],
  amount_breakdown: [
    'discount',
    'handling',
    'insurance',
    'item_total',
    'shipping',
    'shipping_discount',
    'tax_total',
  ],
  item: ['category', 'description', 'name', 'quantity', 'sku', 'tax', 'unit_amount'],
  paypal_wallet_experience_context: [
    'brand_name',
    'cancel_url',
    'landing_page',
    'locale',
    'payment_method_preference',
    'return_url',
    'shipping_preference',
    'user_action',
  ],
};

describe('the create-order request', () => {
  // SPEC checkout_orders_v2.json, POST /v2/checkout/orders, request example "order_request".
  const documentedExample = {
    intent: 'CAPTURE',
    purchase_units: [
      {
        reference_id: 'd9f80740-38f0-11e8-b467-0ed5f89f718b',
        amount: { currency_code: 'USD', value: '100.00' },
      },
    ],
    payment_source: {
      paypal: {
        experience_context: {
          payment_method_preference: 'IMMEDIATE_PAYMENT_REQUIRED',
          payment_method_selected: 'PAYPAL',
          brand_name: 'EXAMPLE INC',
          locale: 'en-US',
          landing_page: 'LOGIN',
          user_action: 'PAY_NOW',
          return_url: 'https://example.com/returnUrl',
          cancel_url: 'https://example.com/cancelUrl',
        },
      },
    },
  };

  it('has the documented example’s shape, with only documented fields (SPEC checkout_orders_v2.json)', () => {
    const body = paypalOrderRequest(order);
    expect(body.intent).toBe(documentedExample.intent);
    expect(Object.keys(body).every((key) => DOCUMENTED.order_request.includes(key))).toBe(true);
    const [unit] = body.purchase_units;
    expect(Object.keys(unit ?? {}).every((key) => DOCUMENTED.purchase_unit_request.includes(key))).toBe(true);
    expect(
      Object.keys(unit?.amount.breakdown ?? {}).every((key) => DOCUMENTED.amount_breakdown.includes(key)),
    ).toBe(true);
    for (const item of unit?.items ?? []) {
      expect(Object.keys(item).every((key) => DOCUMENTED.item.includes(key))).toBe(true);
      // item.quantity: "^[1-9][0-9]{0,9}$"; item.category enum includes PHYSICAL_GOODS.
      expect(item.quantity).toMatch(/^[1-9][0-9]{0,9}$/);
    }
    const context = body.payment_source.paypal.experience_context;
    expect(
      Object.keys(context).every((key) => DOCUMENTED.paypal_wallet_experience_context.includes(key)),
    ).toBe(true);
    const documented = documentedExample.payment_source.paypal.experience_context;
    expect(context).toMatchObject({
      locale: documented.locale,
      landing_page: 'LOGIN',
      user_action: 'PAY_NOW',
    });
    // shipping_preference enum: GET_FROM_FILE, NO_SHIPPING, SET_PROVIDED_ADDRESS.
    expect(context.shipping_preference).toBe('NO_SHIPPING');
  });

  it('breaks the amount down into lines of unit × quantity and shipping, with our order as invoice_id', () => {
    const [unit] = paypalOrderRequest(order).purchase_units;
    expect(unit).toMatchObject({
      invoice_id: '17',
      custom_id: '17',
      amount: {
        currency_code: 'USD',
        value: '303.20',
        breakdown: {
          item_total: { currency_code: 'USD', value: '286.94' },
          shipping: { currency_code: 'USD', value: '16.26' },
        },
      },
      items: [
        { name: 'Mug', sku: 'MUG-1', unit_amount: { currency_code: 'USD', value: '13.95' }, quantity: '2' },
        {
          name: 'Hoodie, Size: M',
          sku: 'HOOD-M',
          unit_amount: { currency_code: 'USD', value: '64.76' },
          quantity: '4',
        },
      ],
    });
    expect(
      paypalOrderRequest({ ...order, locale: 'ru' }).payment_source.paypal.experience_context.locale,
    ).toBe('ru-RU');
    const discounted = paypalOrderRequest({ ...order, discountMinor: 5_00 }).purchase_units[0]?.amount;
    expect(discounted).toMatchObject({ value: '298.20', breakdown: { discount: { value: '5.00' } } });
  });
});

describe('reading PayPal’s answers', () => {
  // https://developer.paypal.com/docs/api/orders/v2/#orders_capture, sample response (abridged to
  // the fields the shop reads; links and seller figures as published).
  const documentedCapture = {
    id: '24F22464WC842504J',
    status: 'COMPLETED',
    purchase_units: [
      {
        reference_id: 'default',
        payments: {
          captures: [
            {
              id: '7KY78659SG487110K',
              status: 'COMPLETED',
              amount: { currency_code: 'USD', value: '100.00' },
              final_capture: true,
              seller_receivable_breakdown: {
                gross_amount: { currency_code: 'USD', value: '100.00' },
                paypal_fee: { currency_code: 'USD', value: '3.98' },
                net_amount: { currency_code: 'USD', value: '96.02' },
              },
              links: [
                {
                  href: 'https://api.sandbox.paypal.com/v2/payments/captures/7KY78659SG487110K',
                  rel: 'self',
                  method: 'GET',
                },
                {
                  href: 'https://api.sandbox.paypal.com/v2/payments/captures/7KY78659SG487110K/refund',
                  rel: 'refund',
                  method: 'POST',
                },
              ],
              create_time: '2021-11-14T23:38:52Z',
              update_time: '2021-11-14T23:38:52Z',
            },
          ],
        },
      },
    ],
    payer: { payer_id: 'QYR5Z8XDVJNXQ', email_address: 'foobuyer@gmail.com' },
    links: [
      {
        href: 'https://api.sandbox.paypal.com/v2/checkout/orders/24F22464WC842504J',
        rel: 'self',
        method: 'GET',
      },
    ],
  };

  it('reads the capture of the documented capture response (developer.paypal.com orders_capture sample)', () => {
    expect(readOrder(documentedCapture)).toEqual({
      id: '24F22464WC842504J',
      status: 'COMPLETED',
      invoiceId: '',
      approveUrl: undefined,
      captures: [
        { id: '7KY78659SG487110K', status: 'COMPLETED', amountMinor: 100_00, currency: 'USD', invoiceId: '' },
      ],
    });
  });

  // https://developer.paypal.com/docs/api/orders/v2/#orders_create, sample response with
  // payment_source.paypal.experience_context: status PAYER_ACTION_REQUIRED, link rel "payer-action".
  it('finds where the shopper approves: the payer-action link (developer.paypal.com orders_create sample)', () => {
    expect(
      readOrder({
        id: '5O190127TN364715T',
        status: 'PAYER_ACTION_REQUIRED',
        payment_source: { paypal: {} },
        links: [
          {
            href: 'https://api-m.paypal.com/v2/checkout/orders/5O190127TN364715T',
            rel: 'self',
            method: 'GET',
          },
          {
            href: 'https://www.paypal.com/checkoutnow?token=5O190127TN364715T',
            rel: 'payer-action',
            method: 'GET',
          },
        ],
      }).approveUrl,
    ).toBe('https://www.paypal.com/checkoutnow?token=5O190127TN364715T');
  });

  // https://developer.paypal.com/api/rest/webhooks/event-names/ ("Payments V2"): the event's
  // resource is a capture whose order is in supplementary_data.related_ids; the sample event itself
  // could not be retrieved here, so this one is assembled from that page's fields and the capture
  // sample above.
  it('reads PAYMENT.CAPTURE.COMPLETED and PAYMENT.CAPTURE.REFUNDED events (webhooks event-names page)', () => {
    const completed = readPaypalEvent(
      JSON.stringify({
        id: 'WH-58D329510W468432D-8HN650336L201105X',
        event_version: '1.0',
        create_time: '2019-02-14T21:50:07.940Z',
        resource_type: 'capture',
        resource_version: '2.0',
        event_type: 'PAYMENT.CAPTURE.COMPLETED',
        summary: 'Payment completed for $ 2.51 USD',
        resource: {
          id: '27M47624FP291604U',
          status: 'COMPLETED',
          amount: { currency_code: 'USD', value: '2.51' },
          invoice_id: '17',
          supplementary_data: { related_ids: { order_id: '1AB234567A1234567' } },
        },
      }),
    );
    expect(completed).toEqual({
      kind: 'capture',
      eventId: 'WH-58D329510W468432D-8HN650336L201105X',
      type: 'PAYMENT.CAPTURE.COMPLETED',
      orderId: '1AB234567A1234567',
      capture: {
        id: '27M47624FP291604U',
        status: 'COMPLETED',
        amountMinor: 2_51,
        currency: 'USD',
        invoiceId: '17',
      },
    });
    const refunded = readPaypalEvent(
      JSON.stringify({
        id: 'WH-1GE84257G0350133W-6RW800890C634293G',
        resource_type: 'refund',
        event_type: 'PAYMENT.CAPTURE.REFUNDED',
        resource: {
          id: '1Y107995YT783435V',
          status: 'COMPLETED',
          amount: { currency_code: 'USD', value: '1.00' },
          links: [
            {
              href: 'https://api.paypal.com/v2/payments/refunds/1Y107995YT783435V',
              rel: 'self',
              method: 'GET',
            },
            {
              href: 'https://api.paypal.com/v2/payments/captures/0KG12345D2345678X',
              rel: 'up',
              method: 'GET',
            },
          ],
        },
      }),
    );
    expect(refunded).toMatchObject({
      kind: 'refund',
      refundId: '1Y107995YT783435V',
      captureId: '0KG12345D2345678X',
      amountMinor: 1_00,
    });
  });

  it('knows where PayPal’s approve pages are, for the shop’s form-action (developer.paypal.com/api/rest/requests)', () => {
    expect(paypalApproveOrigins('https://api-m.paypal.com')).toEqual(['https://www.paypal.com']);
    expect(paypalApproveOrigins('https://api-m.sandbox.paypal.com')).toEqual([
      'https://www.sandbox.paypal.com',
    ]);
    expect(paypalApproveOrigins('http://127.0.0.1:3000/sandbox/paypal')).toEqual([]);
  });
});

/** A fetch that records what the client sent and answers as PayPal documents. */
function recorder(answers: Array<{ status: number; body: unknown }>) {
  const sent: Array<{ url: string; headers: Headers; body: string }> = [];
  const fetchImpl: typeof fetch = async (input, init) => {
    sent.push({ url: String(input), headers: new Headers(init?.headers), body: String(init?.body ?? '') });
    const answer = answers.shift();
    if (!answer) throw new Error(`unexpected request ${String(input)}`);
    return new Response(JSON.stringify(answer.body), {
      status: answer.status,
      headers: { 'content-type': 'application/json' },
    });
  };
  return { sent, fetchImpl };
}

const TOKEN_ANSWER = {
  status: 200,
  // https://developer.paypal.com/api/rest/authentication/, sample response.
  body: {
    scope: 'https://uri.paypal.com/services/invoicing',
    access_token:
      'A21AAFEpH4PsADK7qSS7pSRsgzfENtu-Q1ysgEDVDESseMHBYXVJYE8ovjj68elIDy8nF26AwPhfXTIeWAZHSLIsQkSYz9ifg',
    token_type: 'Bearer',
    app_id: 'APP-80W284485P519543T',
    expires_in: 31668,
    nonce: '2020-04-03T15:35:36ZaYZlGvEkV4yVSz8g6bAKFoGSEzuy3CQcz3ljhibkOHg',
  },
};

describe('requests as PayPal documents them', () => {
  const settings: PaypalSettings = {
    clientId: 'client',
    clientSecret: 'secret',
    webhookId: '1JE4291016473214C',
    apiUrl: 'https://api-m.sandbox.paypal.com',
  };
  beforeEach(forgetPaypalTokens);

  // SPEC notifications_webhooks_v1.json, POST /v1/notifications/verify-webhook-signature, request
  // example "verify_webhook_signature" (its webhook_event abridged to its first fields).
  it('sends verify-webhook-signature exactly as the documented example, with the event as received', async () => {
    const example = {
      transmission_id: '69cd13f0-d67a-11e5-baa3-778b53f4ae55',
      transmission_time: '2016-02-18T20:01:35Z',
      cert_url: 'cert_url',
      auth_algo: 'SHA256withRSA',
      transmission_sig:
        'lmI95Jx3Y9nhR5SJWlHVIWpg4AgFk7n9bCHSRxbrd8A9zrhdu2rMyFrmz+Zjh3s3boXB07VXCXUZy/UFzUlnGJn0wDugt7FlSvdKeIJenLRemUxYCPVoEZzg9VFNqOa48gMkvF+XTpxBeUx/kWy6B5cp7GkT2+pOowfRK7OaynuxUoKW3JcMWw272VKjLTtTAShncla7tGF+55rxyt2KNZIIqxNMJ48RDZheGU5w1npu9dZHnPgTXB9iomeVRoD8O/jhRpnKsGrDschyNdkeh81BJJMH4Ctc6lnCCquoP/GzCzz33MMsNdid7vL/NIWaCsekQpW26FpWPi/tfj8nLA==',
      webhook_id: '1JE4291016473214C',
      webhook_event: {
        id: '8PT597110X687430LKGECATA',
        create_time: '2013-06-25T21:41:28Z',
        resource_type: 'authorization',
        event_type: 'PAYMENT.AUTHORIZATION.CREATED',
        summary: 'A payment authorization was created',
      },
    };
    const { sent, fetchImpl } = recorder([
      TOKEN_ANSWER,
      { status: 200, body: { verification_status: 'SUCCESS' } },
    ]);
    const raw = JSON.stringify(example.webhook_event, null, 1);
    const headers = {
      'paypal-transmission-id': example.transmission_id,
      'paypal-transmission-time': example.transmission_time,
      'paypal-cert-url': example.cert_url,
      'paypal-auth-algo': example.auth_algo,
      'paypal-transmission-sig': example.transmission_sig,
    };
    expect(await verifyPaypalWebhook(settings, headers, raw, fetchImpl)).toBe(true);
    const [token, verify] = sent;
    // https://developer.paypal.com/api/rest/authentication/: basic auth, grant_type=client_credentials.
    expect(token?.url).toBe('https://api-m.sandbox.paypal.com/v1/oauth2/token');
    expect(token?.headers.get('authorization')).toBe(
      `Basic ${Buffer.from('client:secret').toString('base64')}`,
    );
    expect(token?.body).toBe('grant_type=client_credentials');
    expect(verify?.url).toBe('https://api-m.sandbox.paypal.com/v1/notifications/verify-webhook-signature');
    expect(verify?.headers.get('authorization')).toBe(`Bearer ${TOKEN_ANSWER.body.access_token}`);
    expect(JSON.parse(verify?.body ?? '')).toEqual(example);
    // The event's bytes are passed on unchanged.
    expect(verify?.body).toContain(raw);
    // Without its transmission headers a webhook is not verified at all.
    expect(await verifyPaypalWebhook(settings, {}, raw, fetchImpl)).toBe(false);
  });

  // SPEC payments_payment_v2.json, POST /v2/payments/captures/{capture_id}/refund, request example
  // "refund_request" (amount, invoice_id, note_to_payer; platform fees are not ours) and the
  // PayPal-Request-Id header of its parameters.
  it('sends the captures refund as the documented example, and tells a refusal from an outage', async () => {
    const { sent, fetchImpl } = recorder([
      TOKEN_ANSWER,
      {
        status: 201,
        body: {
          id: '1JU08902781691411',
          status: 'COMPLETED',
          amount: { value: '10.00', currency_code: 'USD' },
        },
      },
      {
        status: 422,
        body: {
          name: 'UNPROCESSABLE_ENTITY',
          message:
            'The requested action could not be performed, semantically incorrect, or failed business validation.',
          details: [
            { issue: 'CAPTURE_FULLY_REFUNDED', description: 'The capture has already been fully refunded' },
          ],
          debug_id: 'b2c8f7d9e0a1',
        },
      },
      { status: 503, body: { name: 'SERVICE_UNAVAILABLE' } },
    ]);
    const refund = {
      amountMinor: 10_00,
      currency: 'USD',
      invoiceId: 'INVOICE-123',
      note: 'DefectiveProduct',
    };
    expect(await refundPaypalCapture(settings, '2GG279541U471931P', refund, 'refund-1', fetchImpl)).toEqual({
      id: '1JU08902781691411',
      status: 'COMPLETED',
      amountMinor: 10_00,
    });
    expect(sent[1]?.url).toBe(
      'https://api-m.sandbox.paypal.com/v2/payments/captures/2GG279541U471931P/refund',
    );
    expect(sent[1]?.headers.get('paypal-request-id')).toBe('refund-1');
    expect(JSON.parse(sent[1]?.body ?? '')).toEqual({
      amount: { value: '10.00', currency_code: 'USD' },
      invoice_id: 'INVOICE-123',
      note_to_payer: 'DefectiveProduct',
    });
    const refused = await refundPaypalCapture(settings, 'X', refund, 'refund-2', fetchImpl).catch(
      (error) => error,
    );
    expect(refused).toBeInstanceOf(PaypalRefusal);
    expect(refused).toMatchObject({ status: 422, issue: 'CAPTURE_FULLY_REFUNDED', debugId: 'b2c8f7d9e0a1' });
    const outage = await refundPaypalCapture(settings, 'X', refund, 'refund-3', fetchImpl).catch(
      (error) => error,
    );
    expect(outage).not.toBeInstanceOf(PaypalRefusal);
    expect(String(outage)).toMatch(/HTTP 503/);
  });
});

describe('the client against the simulator', () => {
  let app: FastifyInstance;
  let simulator: PaypalSimulator;
  let settings: PaypalSettings;
  let base: string;
  const received: Array<{ headers: Record<string, string>; body: string }> = [];
  let tokenCalls = 0;
  const counting: typeof fetch = (input, init) => {
    if (String(input).endsWith('/v1/oauth2/token')) tokenCalls++;
    return fetch(input, init);
  };

  beforeAll(async () => {
    app = Fastify();
    simulator = createPaypalSimulator(
      {
        clientId: 'sandbox-client',
        clientSecret: 'sandbox-secret',
        webhookId: 'WEBHOOK-1',
        shopUrl: SHOP,
        webhookUrl: `${SHOP}/api/paypal/webhook`,
      },
      {
        retryDelaysMs: [],
        // The shop's end of the webhooks: kept as received.
        fetchImpl: async (_input, init) => {
          received.push({
            headers: Object.fromEntries(new Headers(init?.headers).entries()),
            body: String(init?.body ?? ''),
          });
          return new Response('', { status: 200 });
        },
      },
    );
    await app.register(simulator.plugin);
    base = await app.listen({ port: 0, host: '127.0.0.1' });
    settings = {
      clientId: 'sandbox-client',
      clientSecret: 'sandbox-secret',
      webhookId: 'WEBHOOK-1',
      apiUrl: `${base}/sandbox/paypal`,
    };
  });
  afterAll(async () => {
    await app?.close();
  });
  beforeEach(forgetPaypalTokens);

  const approve = (token: string) =>
    fetch(`${base}/sandbox/paypal/checkoutnow/approve`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token }),
      redirect: 'manual',
    });

  it('creates, approves, captures (idempotently) and refunds an order, with one token for all', async () => {
    tokenCalls = 0;
    const created = await createPaypalOrder(settings, paypalOrderRequest(order), 'create-17', counting);
    expect(created).toMatchObject({ status: 'PAYER_ACTION_REQUIRED', invoiceId: '17', captures: [] });
    expect(created.approveUrl).toBe(`${SHOP}/sandbox/paypal/checkoutnow?token=${created.id}`);
    // The same PayPal-Request-Id answers the same order.
    expect((await createPaypalOrder(settings, paypalOrderRequest(order), 'create-17', counting)).id).toBe(
      created.id,
    );

    const page = await fetch(`${base}/sandbox/paypal/checkoutnow?token=${created.id}`);
    const html = await page.text();
    expect(html).toContain('2 × $13.95');
    expect(html).toContain('$27.90');
    expect(html).toContain('4 × $64.76');
    expect(html).toContain('$259.04');
    expect(html).toContain('$303.20');

    const notApproved = await capturePaypalOrder(settings, created.id, 'capture-a', counting).catch(
      (error) => error,
    );
    expect(notApproved).toMatchObject({ status: 422, issue: 'ORDER_NOT_APPROVED' });

    const back = await approve(created.id);
    expect(back.status).toBe(303);
    const returned = new URL(back.headers.get('location') ?? '');
    expect(`${returned.origin}${returned.pathname}`).toBe(`${SHOP}/order/result/paypal`);
    expect(returned.searchParams.get('order')).toBe('17');
    expect(returned.searchParams.get('token')).toBe(created.id);
    expect(JSON.parse(received.at(-1)?.body ?? '{}')).toMatchObject({
      event_type: 'CHECKOUT.ORDER.APPROVED',
      resource: { id: created.id, status: 'APPROVED' },
    });

    const captured = await capturePaypalOrder(settings, created.id, 'capture-b', counting);
    expect(captured.status).toBe('COMPLETED');
    expect(captured.captures).toEqual([
      { id: expect.any(String), status: 'COMPLETED', amountMinor: 303_20, currency: 'USD', invoiceId: '17' },
    ]);
    // Again with the same request id, and with another one (ORDER_ALREADY_CAPTURED is read as the order).
    expect((await capturePaypalOrder(settings, created.id, 'capture-b', counting)).captures).toEqual(
      captured.captures,
    );
    expect((await capturePaypalOrder(settings, created.id, 'capture-c', counting)).captures).toEqual(
      captured.captures,
    );
    expect((await getPaypalOrder(settings, created.id, counting)).status).toBe('COMPLETED');

    const captureId = captured.captures[0]?.id as string;
    const part = await refundPaypalCapture(
      settings,
      captureId,
      { amountMinor: 3_20, currency: 'USD', invoiceId: '17', note: 'x' },
      'r1',
      counting,
    );
    expect(part).toMatchObject({ status: 'COMPLETED', amountMinor: 3_20 });
    const tooMuch = await refundPaypalCapture(
      settings,
      captureId,
      { amountMinor: 300_01, currency: 'USD', invoiceId: '17', note: 'x' },
      'r2',
      counting,
    ).catch((error) => error);
    expect(tooMuch).toMatchObject({ status: 422, issue: 'REFUND_AMOUNT_EXCEEDED' });
    expect(
      await refundPaypalCapture(
        settings,
        captureId,
        { currency: 'USD', invoiceId: '17', note: 'x' },
        'r3',
        counting,
      ),
    ).toMatchObject({ amountMinor: 300_00 });
    const again = await refundPaypalCapture(
      settings,
      captureId,
      { currency: 'USD', invoiceId: '17', note: 'x' },
      'r4',
      counting,
    ).catch((error) => error);
    expect(again).toMatchObject({ status: 422, issue: 'CAPTURE_FULLY_REFUNDED' });
    expect(tokenCalls).toBe(1);
  });

  // SPEC checkout_orders_v2.json, orders.create-422 issues and their descriptions.
  it('refuses what PayPal refuses: roubles, item_total ≠ Σ unit × quantity, a wrong total, bad credentials', async () => {
    const refusal = (body: unknown) =>
      createPaypalOrder(settings, body as ReturnType<typeof paypalOrderRequest>, `r-${Math.random()}`).catch(
        (error) => error,
      );
    expect(await refusal(paypalOrderRequest({ ...order, currency: 'RUB' }))).toMatchObject({
      status: 422,
      issue: 'INVALID_CURRENCY_CODE',
    });
    const body = paypalOrderRequest(order);
    const unit = body.purchase_units[0] as (typeof body.purchase_units)[number];
    unit.amount.breakdown.item_total = { currency_code: 'USD', value: '286.93' };
    unit.amount.value = '303.19';
    expect(await refusal(body)).toMatchObject({
      status: 422,
      issue: 'ITEM_TOTAL_MISMATCH',
      message: expect.stringContaining('Should equal sum of (unit_amount * quantity)'),
    });
    const wrongTotal = paypalOrderRequest(order);
    (wrongTotal.purchase_units[0] as typeof unit).amount.value = '300.00';
    expect(await refusal(wrongTotal)).toMatchObject({ status: 422, issue: 'AMOUNT_MISMATCH' });
    const elsewhere = paypalOrderRequest({ ...order, returnUrl: 'https://evil.example/order/result/paypal' });
    expect(await refusal(elsewhere)).toMatchObject({ status: 400 });
    const stranger = await createPaypalOrder(
      { ...settings, clientSecret: 'guess' },
      paypalOrderRequest(order),
      'x',
    ).catch((error) => error);
    // https://developer.paypal.com/api/rest/authentication/: 401 invalid_client.
    expect(stranger).toMatchObject({
      status: 401,
      issue: 'invalid_client',
      message: 'Client Authentication failed',
    });
    const unauthenticated = await fetch(`${settings.apiUrl}/v2/checkout/orders`, {
      method: 'POST',
      headers: { authorization: 'Bearer forged', 'content-type': 'application/json' },
      body: JSON.stringify(paypalOrderRequest(order)),
    });
    expect(unauthenticated.status).toBe(401);
    expect(await unauthenticated.json()).toMatchObject({ name: 'AUTHENTICATION_FAILURE' });
  });

  it('accepts the documented create example (SPEC order_request, with the shop’s return and cancel URLs)', async () => {
    const created = await createPaypalOrder(
      settings,
      {
        intent: 'CAPTURE',
        purchase_units: [
          {
            reference_id: 'd9f80740-38f0-11e8-b467-0ed5f89f718b',
            amount: { currency_code: 'USD', value: '100.00' },
          },
        ],
        payment_source: {
          paypal: {
            experience_context: {
              payment_method_preference: 'IMMEDIATE_PAYMENT_REQUIRED',
              brand_name: 'EXAMPLE INC',
              locale: 'en-US',
              landing_page: 'LOGIN',
              user_action: 'PAY_NOW',
              return_url: `${SHOP}/returnUrl`,
              cancel_url: `${SHOP}/cancelUrl`,
            },
          },
        },
      } as unknown as ReturnType<typeof paypalOrderRequest>,
      'documented-example',
    );
    expect(created.status).toBe('PAYER_ACTION_REQUIRED');
    expect(created.approveUrl).toContain(created.id);
  });

  it('signs its webhooks so that only unaltered ones verify, through its own verify-webhook-signature', async () => {
    const created = await createPaypalOrder(settings, paypalOrderRequest(order), 'create-webhook');
    await approve(created.id);
    await capturePaypalOrder(settings, created.id, 'capture-webhook');
    await simulator.state.settled();
    const completed = received.find(
      (webhook) =>
        JSON.parse(webhook.body).event_type === 'PAYMENT.CAPTURE.COMPLETED' &&
        webhook.body.includes(created.id),
    );
    expect(completed?.headers).toMatchObject({
      'paypal-auth-algo': 'SHA256withRSA',
      'content-type': 'application/json',
    });
    expect(await verifyPaypalWebhook(settings, completed?.headers ?? {}, completed?.body ?? '')).toBe(true);
    const altered = (completed?.body ?? '').replace('"303.20"', '"3.20"');
    expect(await verifyPaypalWebhook(settings, completed?.headers ?? {}, altered)).toBe(false);
    expect(
      await verifyPaypalWebhook(
        { ...settings, webhookId: 'OTHER' },
        completed?.headers ?? {},
        completed?.body ?? '',
      ),
    ).toBe(false);
    const forged = await simulator.state.sendWebhook('PAYMENT.CAPTURE.COMPLETED', {}, { forge: true });
    expect(await verifyPaypalWebhook(settings, forged.headers, forged.body)).toBe(false);
  });
});
