import { eq } from 'drizzle-orm';
import Fastify, { type FastifyInstance, type LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { deliveryResponse } from '../../contract/delivery.ts';
import { products } from '../db/schema.ts';
import { SESSION_COOKIE } from '../http/session.ts';
import { SANDBOX_BOXBERRY_TOKEN } from '../providers/boxberry.ts';
import { type BoxberrySimulator, createBoxberrySimulator } from '../providers/simulators/boxberry.ts';
import {
  createRussianPostSimulator,
  type RussianPostSimulator,
} from '../providers/simulators/russian-post.ts';
import { createTestApp } from '../testing/app.ts';
import { insertCatalogue } from '../testing/catalog-fixtures.ts';

let providers: FastifyInstance;
let russianPost: RussianPostSimulator;
let boxberry: BoxberrySimulator;
let shop: Awaited<ReturnType<typeof createTestApp>>;
let fixtures: Awaited<ReturnType<typeof insertCatalogue>>;

beforeAll(async () => {
  russianPost = createRussianPostSimulator();
  boxberry = createBoxberrySimulator();
  providers = Fastify();
  await providers.register(russianPost.plugin);
  await providers.register(boxberry.plugin);
  const base = await providers.listen({ port: 0, host: '127.0.0.1' });
  shop = await createTestApp({
    env: {
      RUSSIAN_POST_URL: `${base}/sandbox/russian-post`,
      BOXBERRY_URL: `${base}/sandbox/boxberry/json.php`,
      BOXBERRY_TOKEN: SANDBOX_BOXBERRY_TOKEN,
    },
  });
  fixtures = await insertCatalogue(shop.db);
});
afterAll(async () => {
  await shop?.close();
  await providers?.close();
});
beforeEach(() => {
  for (const simulator of [russianPost, boxberry]) {
    simulator.setMode('normal');
    simulator.clearRequests();
  }
  shop.services.delivery.clear();
});

const sidOf = (response: LightMyRequestResponse) =>
  response.cookies.find((cookie) => cookie.name === SESSION_COOKIE)?.value;

/** A browser-like visitor: keeps the session cookie between calls. */
function visitor() {
  let sid: string | undefined;
  const send = async (method: 'GET' | 'POST', url: string, form?: Record<string, string | number>) => {
    const response = await shop.app.inject({
      method,
      url,
      headers: form ? { 'content-type': 'application/x-www-form-urlencoded' } : {},
      payload: form
        ? new URLSearchParams(Object.entries(form).map(([k, v]) => [k, String(v)])).toString()
        : undefined,
      cookies: sid ? { [SESSION_COOKIE]: sid } : {},
    });
    sid = sidOf(response) ?? sid;
    return { status: response.statusCode, body: response.json() as Record<string, unknown> };
  };
  return {
    send,
    delivery: (query: Record<string, string>) => send('GET', `/api/delivery?${new URLSearchParams(query)}`),
  };
}

/** A guest with two wolf shirts and an outlaw shirt: 600 g, 2 × 1,990 + 3,100 = 7,080 ₽. */
async function shopperWithBasket() {
  const guest = visitor();
  await guest.send('POST', '/api/basket', { product: fixtures.id('wolf-shirt') });
  await guest.send('POST', '/api/basket', { product: fixtures.id('wolf-shirt') });
  await guest.send('POST', '/api/basket', { product: fixtures.id('outlaw-shirt') });
  return guest;
}

describe('GET /api/delivery', () => {
  it('answers the cost of the visitor’s basket in roubles with the delivery days', async () => {
    const guest = await shopperWithBasket();
    const answer = await guest.delivery({ method: 'russian_post', country: 'RU', zip: '630099' });
    expect(answer.status).toBe(200);
    expect(deliveryResponse.parse(answer.body)).toEqual({
      success: true,
      method: 'russian_post',
      cost: expect.any(Number),
      days: { min: expect.any(Number), max: expect.any(Number) },
    });
    expect(answer.body.cost).toBeGreaterThanOrEqual(250);
    expect(answer.body.cost).toBeLessThanOrEqual(600);
    expect(russianPost.requests()[0]).toMatchObject({ weight: '600', to: '630099', sumoc: '708000' });
  });

  it('quotes Boxberry pickup and courier with the basket total as the order sum', async () => {
    const guest = await shopperWithBasket();
    const pickup = await guest.delivery({ method: 'boxberry', country: 'ru', zip: '125009' });
    expect(pickup.body).toMatchObject({ success: true, method: 'boxberry', days: { min: 1, max: 1 } });
    const courier = await guest.delivery({ method: 'boxberry.courier', country: 'RU', zip: '125009' });
    expect(courier.body).toMatchObject({ success: true, method: 'boxberry.courier' });
    expect(courier.body.cost as number).toBeGreaterThan(pickup.body.cost as number);
    expect(boxberry.requests().find((query) => query.method === 'DeliveryCosts')).toMatchObject({
      weight: '600',
      ordersum: '7080.00',
    });
  });

  it('quotes Russian Post abroad, without days', async () => {
    const guest = await shopperWithBasket();
    const answer = await guest.delivery({ method: 'russian_post', country: 'us', zip: '10001' });
    expect(answer.body).toMatchObject({ success: true, method: 'russian_post', days: null });
    expect(answer.body.cost as number).toBeGreaterThanOrEqual(1_200);
  });

  it('answers the spec’s error shape for a bad method, a missing country or zip, in the visitor’s language', async () => {
    const guest = await shopperWithBasket();
    const unknown = await guest.delivery({ method: 'dhl', country: 'RU', zip: '190000', locale: 'en' });
    expect(unknown.status).toBe(422);
    expect(unknown.body).toEqual({
      success: false,
      errors: { method: ['Shipping method not recognized. Please contact support.'] },
      message: 'Please check the form.',
    });
    const missing = await guest.delivery({ method: 'russian_post', locale: 'ru' });
    expect(missing.body).toEqual({
      success: false,
      errors: { country: ['Выберите страну.'], zip: ['Введите почтовый индекс.'] },
      message: 'Проверьте форму.',
    });
    const nowhere = await guest.delivery({ method: 'russian_post', country: 'ZZ', zip: '1', locale: 'en' });
    expect(nowhere.body.errors).toEqual({ country: ['Choose a country.'] });
    expect(russianPost.requests()).toEqual([]);
  });

  it('refuses Boxberry outside Russia and unknown postcodes, naming the field', async () => {
    const guest = await shopperWithBasket();
    const abroad = await guest.delivery({ method: 'boxberry', country: 'BY', zip: '220000', locale: 'en' });
    expect(abroad.status).toBe(422);
    expect(abroad.body).toMatchObject({
      success: false,
      errors: { method: [expect.stringMatching(/not available/)] },
    });
    const unknownZip = await guest.delivery({
      method: 'russian_post',
      country: 'RU',
      zip: '000000',
      locale: 'en',
    });
    expect(unknownZip.body).toMatchObject({
      success: false,
      errors: { zip: [expect.stringMatching(/postcode/)] },
    });
    const shortZip = await guest.delivery({
      method: 'boxberry.courier',
      country: 'RU',
      zip: '1900',
      locale: 'ru',
    });
    expect(shortZip.body).toMatchObject({ errors: { zip: [expect.stringMatching(/шести цифр/)] } });
  });

  it('refuses to quote an empty basket', async () => {
    const answer = await visitor().delivery({
      method: 'russian_post',
      country: 'RU',
      zip: '190000',
      locale: 'en',
    });
    expect(answer.status).toBe(422);
    expect(answer.body).toMatchObject({ success: false, errors: { basket: ['Your cart is empty.'] } });
  });

  it('answers 503 when the carrier is down, and quotes again once it is back', async () => {
    const guest = await shopperWithBasket();
    russianPost.setMode('down');
    const down = await guest.delivery({ method: 'russian_post', country: 'RU', zip: '190000', locale: 'en' });
    expect(down.status).toBe(503);
    expect(down.body).toMatchObject({
      success: false,
      errors: { delivery: [expect.stringMatching(/try again/)] },
    });
    russianPost.setMode('normal');
    const back = await guest.delivery({ method: 'russian_post', country: 'RU', zip: '190000' });
    expect(back.body.success).toBe(true);
  });

  it('answers a repeated question from the cache', async () => {
    const guest = await shopperWithBasket();
    const first = await guest.delivery({ method: 'russian_post', country: 'RU', zip: '420111' });
    const second = await guest.delivery({ method: 'russian_post', country: 'RU', zip: '420111' });
    expect(second.body).toEqual(first.body);
    expect(russianPost.requests()).toHaveLength(1);
  });
});

/*
 * Sources: Boxberry's DeliveryCosts takes the box as `height`, `width` and `depth` in cm
 * (iamwildtuna/boxberry-sdk src/Entity/CalculateParams.php); Russian Post's calculator takes the box
 * as `pack` (tariff.pochta.ru post-calculator-api.pdf), whose code list is UNCONFIRMED: the codes
 * come from the RUSSIAN_POST_PACKS setting. Boxberry's volume divisor is UNCONFIRMED (the
 * simulator's own).
 */
describe('prices that match the parcel (ADR 0057)', () => {
  const setBox = (link: string, box: [number, number, number] | null) =>
    shop.db
      .update(products)
      .set({ boxLength: box?.[0] ?? null, boxWidth: box?.[1] ?? null, boxHeight: box?.[2] ?? null })
      .where(eq(products.link, link));

  it('asks both carriers with the basket’s weight and box, so a bulky parcel costs more', async () => {
    const guest = await shopperWithBasket();
    // Products without a box: the default parcel size (30×20×15 cm), Russian Post's box M (pack 20).
    const small = await guest.delivery({ method: 'boxberry', country: 'RU', zip: '125009' });
    const smallPost = await guest.delivery({ method: 'russian_post', country: 'RU', zip: '630099' });
    expect(boxberry.requests().find((query) => query.method === 'DeliveryCosts')).toMatchObject({
      weight: '600',
      height: '15',
      width: '20',
      depth: '30',
    });
    expect(russianPost.requests()[0]).toMatchObject({ weight: '600', pack: '20' });

    await setBox('outlaw-shirt', [50, 35, 20]);
    shop.services.delivery.clear();
    boxberry.clearRequests();
    russianPost.clearRequests();
    const bulky = await guest.delivery({ method: 'boxberry', country: 'RU', zip: '125009' });
    const bulkyPost = await guest.delivery({ method: 'russian_post', country: 'RU', zip: '630099' });
    expect(boxberry.requests().find((query) => query.method === 'DeliveryCosts')).toMatchObject({
      weight: '600',
      height: '20',
      width: '35',
      depth: '50',
    });
    expect(russianPost.requests()[0]).toMatchObject({ weight: '600', pack: '40' });
    expect(bulky.body.cost as number).toBeGreaterThan(small.body.cost as number);
    expect(bulkyPost.body.cost as number).toBeGreaterThan(smallPost.body.cost as number);
    await setBox('outlaw-shirt', null);
  });
});
