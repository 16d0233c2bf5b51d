import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Invalid, Unavailable } from '../errors.ts';
import { SANDBOX_BOXBERRY_TOKEN } from '../providers/boxberry.ts';
import { type BoxberrySimulator, createBoxberrySimulator } from '../providers/simulators/boxberry.ts';
import {
  createRussianPostSimulator,
  type RussianPostSimulator,
} from '../providers/simulators/russian-post.ts';
import {
  billableWeight,
  createDeliveryQuotes,
  type DeliveryQuoteInput,
  type DeliverySettings,
  QUOTE_TTL_MS,
  quoteDelivery,
} from './service.ts';

let app: FastifyInstance;
let russianPost: RussianPostSimulator;
let boxberry: BoxberrySimulator;
let settings: DeliverySettings;

beforeAll(async () => {
  russianPost = createRussianPostSimulator();
  boxberry = createBoxberrySimulator();
  app = Fastify();
  await app.register(russianPost.plugin);
  await app.register(boxberry.plugin);
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  settings = {
    russianPost: { url: `${base}/sandbox/russian-post`, fromZip: '101000' },
    boxberry: { url: `${base}/sandbox/boxberry/json.php`, token: SANDBOX_BOXBERRY_TOKEN, targetStart: '010' },
  };
});
afterAll(() => app.close());
beforeEach(() => {
  for (const simulator of [russianPost, boxberry]) {
    simulator.setMode('normal');
    simulator.clearRequests();
  }
});

const parcel = (overrides: Partial<DeliveryQuoteInput>): DeliveryQuoteInput => ({
  method: 'russian_post',
  country: 'RU',
  zip: '190000',
  weightGrams: 650,
  orderSumKopecks: 4_480_00,
  ...overrides,
});

async function refusal(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    return error as Invalid | Unavailable;
  }
  throw new Error('expected the quote to be refused');
}

describe('quoting delivery', () => {
  it('quotes Russian Post in Russia in kopecks with delivery days', async () => {
    const quote = await quoteDelivery(settings, parcel({}));
    expect(quote).toEqual({
      method: 'russian_post',
      cost: expect.any(Number),
      days: { min: expect.any(Number), max: expect.any(Number) },
    });
    expect(quote.cost).toBeGreaterThanOrEqual(250_00);
    expect(quote.cost).toBeLessThanOrEqual(600_00);
    expect(russianPost.requests()[0]).toMatchObject({
      object: '27030',
      from: '101000',
      to: '190000',
      weight: '700',
    });
  });

  it('quotes Russian Post abroad by the numeric country code', async () => {
    const costs: Record<string, number> = {};
    for (const [country, numeric] of [
      ['US', '840'],
      ['de', '276'],
      ['KZ', '398'],
      ['BY', '112'],
    ] as const) {
      russianPost.clearRequests();
      const quote = await quoteDelivery(settings, parcel({ country, zip: '10115' }));
      expect(quote.days).toBeNull();
      expect(quote.cost).toBeGreaterThanOrEqual(1_200_00);
      expect(quote.cost).toBeLessThanOrEqual(4_000_00);
      expect(russianPost.requests()[0]).toMatchObject({ object: '4031', 'country-to': numeric, isavia: '1' });
      costs[country.toUpperCase()] = quote.cost;
    }
    expect(costs.KZ).toBe(costs.BY);
    expect(costs.US).toBeGreaterThan(costs.DE as number);
    expect(costs.DE).toBeGreaterThan(costs.KZ as number);
  });

  it('quotes a Boxberry pickup point and a Boxberry courier in Russia', async () => {
    const pickup = await quoteDelivery(settings, parcel({ method: 'boxberry', zip: '620075' }));
    expect(pickup).toEqual({ method: 'boxberry', cost: expect.any(Number), days: { min: 4, max: 4 } });
    expect(pickup.cost).toBeGreaterThanOrEqual(200_00);
    expect(pickup.cost).toBeLessThanOrEqual(400_00);
    const courier = await quoteDelivery(settings, parcel({ method: 'boxberry.courier', zip: '620075' }));
    expect(courier.method).toBe('boxberry.courier');
    expect(courier.cost).toBeGreaterThan(pickup.cost);
    expect(courier.cost).toBeLessThanOrEqual(700_00);
    expect(boxberry.requests().find((query) => query.method === 'DeliveryCosts')?.ordersum).toBe('4480.00');
  });

  it('prices a Boxberry parcel to the chosen pickup point rather than the one nearest the postcode', async () => {
    const nearest = await quoteDelivery(settings, parcel({ method: 'boxberry', zip: '620075' }));
    boxberry.clearRequests();
    // A Moscow point for a Yekaterinburg postcode: Moscow's price and one day, not Yekaterinburg's four.
    const chosen = await quoteDelivery(
      settings,
      parcel({ method: 'boxberry', zip: '620075', pickupPointCode: '10014' }),
    );
    expect(chosen.days).toEqual({ min: 1, max: 1 });
    expect(chosen.cost).not.toBe(nearest.cost);
    expect(boxberry.requests().map((query) => [query.method, query.target])).toEqual([
      ['DeliveryCosts', '10014'],
    ]);
    // A courier goes to the door whatever point is sent along.
    boxberry.clearRequests();
    await quoteDelivery(
      settings,
      parcel({ method: 'boxberry.courier', zip: '620075', pickupPointCode: '10014' }),
    );
    expect(boxberry.requests().find((query) => query.method === 'DeliveryCosts')).toMatchObject({
      zip: '620075',
    });
    expect(boxberry.requests().find((query) => query.method === 'DeliveryCosts')?.target).toBeUndefined();
  });

  it('accepts a Russian postcode typed with a space', async () => {
    const quote = await quoteDelivery(settings, parcel({ zip: ' 190 000 ' }));
    expect(quote.cost).toBeGreaterThan(0);
  });

  it('refuses Boxberry outside Russia without asking anyone', async () => {
    for (const method of ['boxberry', 'boxberry.courier']) {
      const error = await refusal(quoteDelivery(settings, parcel({ method, country: 'KZ', zip: '050000' })));
      expect(error).toBeInstanceOf(Invalid);
      expect(error).toMatchObject({
        message: 'delivery-not-available',
        errors: { method: ['delivery-not-available'] },
      });
    }
    expect(boxberry.requests()).toEqual([]);
  });

  it('names the postcode when it is malformed or unknown to the carrier', async () => {
    expect(await refusal(quoteDelivery(settings, parcel({ zip: '19000' })))).toMatchObject({
      message: 'zip-invalid',
      errors: { zip: ['zip-invalid'] },
    });
    expect(await refusal(quoteDelivery(settings, parcel({ zip: '000000' })))).toMatchObject({
      message: 'zip-unknown',
      errors: { zip: ['zip-unknown'] },
    });
    expect(
      await refusal(quoteDelivery(settings, parcel({ method: 'boxberry.courier', zip: '999999' }))),
    ).toMatchObject({ message: 'zip-unknown' });
    expect(
      await refusal(quoteDelivery(settings, parcel({ method: 'boxberry.courier', zip: '683000' }))),
    ).toMatchObject({ message: 'delivery-not-available', errors: { zip: ['delivery-not-available'] } });
  });

  it('refuses an unknown method, an unknown country and an empty basket', async () => {
    expect(await refusal(quoteDelivery(settings, parcel({ method: 'dhl' })))).toMatchObject({
      message: 'delivery-method-unknown',
    });
    expect(await refusal(quoteDelivery(settings, parcel({ country: 'XX' })))).toMatchObject({
      message: 'country-invalid',
    });
    expect(await refusal(quoteDelivery(settings, parcel({ weightGrams: 0 })))).toMatchObject({
      message: 'basket-empty',
      errors: { basket: ['basket-empty'] },
    });
  });

  it('says a weight over the carrier’s limit cannot go by that method', async () => {
    expect(await refusal(quoteDelivery(settings, parcel({ weightGrams: 25_000 })))).toMatchObject({
      message: 'delivery-not-available',
      errors: { method: ['delivery-not-available'] },
    });
  });

  it('bills at least 100 g, rounded up to the next 100 g', async () => {
    expect([1, 99, 100, 101, 650, 1000].map(billableWeight)).toEqual([100, 100, 100, 200, 700, 1000]);
    await quoteDelivery(settings, parcel({ weightGrams: 20 }));
    expect(russianPost.requests()[0]?.weight).toBe('100');
  });

  it('answers Unavailable when a carrier is down or drops the connection', async () => {
    russianPost.setMode('down');
    const down = await refusal(quoteDelivery(settings, parcel({})));
    expect(down).toBeInstanceOf(Unavailable);
    expect(down).toMatchObject({ status: 503, message: 'delivery-provider-down' });
    expect((down as Error).cause).toBeInstanceOf(Error);
    boxberry.setMode('reset');
    expect(await refusal(quoteDelivery(settings, parcel({ method: 'boxberry' })))).toBeInstanceOf(
      Unavailable,
    );
    boxberry.setMode('normal');
    const wrongToken = { ...settings, boxberry: { ...settings.boxberry, token: 'expired' } };
    expect(await refusal(quoteDelivery(wrongToken, parcel({ method: 'boxberry' })))).toBeInstanceOf(
      Unavailable,
    );
  });
});

describe('the quote cache', () => {
  it('answers the same parcel from memory without asking the carrier again', async () => {
    const quotes = createDeliveryQuotes(settings);
    const first = await quotes.quote(parcel({}));
    const again = await quotes.quote(parcel({ weightGrams: 690, country: 'ru' }));
    expect(again).toEqual(first);
    expect(russianPost.requests()).toHaveLength(1);

    await quotes.quote(parcel({ weightGrams: 750 }));
    await quotes.quote(parcel({ zip: '101000' }));
    expect(russianPost.requests()).toHaveLength(3);
  });

  it('keeps the quotes for two pickup points of one postcode apart', async () => {
    const quotes = createDeliveryQuotes(settings);
    const first = await quotes.quote(parcel({ method: 'boxberry', zip: '620075', pickupPointCode: '10014' }));
    const second = await quotes.quote(
      parcel({ method: 'boxberry', zip: '620075', pickupPointCode: '66025' }),
    );
    expect(boxberry.requests().filter((query) => query.method === 'DeliveryCosts')).toHaveLength(2);
    expect([first.days, second.days]).toEqual([
      { min: 1, max: 1 },
      { min: 4, max: 4 },
    ]);
  });

  it('shares one carrier call between concurrent identical requests', async () => {
    const quotes = createDeliveryQuotes(settings);
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => quotes.quote(parcel({ method: 'boxberry' }))),
    );
    expect(new Set(answers.map((answer) => answer.cost)).size).toBe(1);
    expect(boxberry.requests().filter((query) => query.method === 'DeliveryCosts')).toHaveLength(1);
  });

  it('keeps Boxberry quotes per order sum, since its price includes insurance', async () => {
    const quotes = createDeliveryQuotes(settings);
    const cheap = await quotes.quote(parcel({ method: 'boxberry', orderSumKopecks: 1_000_00 }));
    const dear = await quotes.quote(parcel({ method: 'boxberry', orderSumKopecks: 50_000_00 }));
    expect(dear.cost).toBeGreaterThan(cheap.cost);
  });

  it('asks again after ten minutes, and never keeps refusals or failures', async () => {
    let now = 1_000_000;
    const quotes = createDeliveryQuotes(settings, { now: () => now });
    await quotes.quote(parcel({}));
    now += QUOTE_TTL_MS - 1_000;
    await quotes.quote(parcel({}));
    expect(russianPost.requests()).toHaveLength(1);
    now += 2_000;
    await quotes.quote(parcel({}));
    expect(russianPost.requests()).toHaveLength(2);

    russianPost.setMode('down');
    await expect(quotes.quote(parcel({ zip: '630099' }))).rejects.toBeInstanceOf(Unavailable);
    russianPost.setMode('normal');
    expect((await quotes.quote(parcel({ zip: '630099' }))).cost).toBeGreaterThan(0);
    await expect(quotes.quote(parcel({ zip: '000000' }))).rejects.toBeInstanceOf(Invalid);
    await expect(quotes.quote(parcel({ zip: '000000' }))).rejects.toBeInstanceOf(Invalid);
    expect(russianPost.requests().filter((query) => query.to === '000000')).toHaveLength(2);
  });
});
