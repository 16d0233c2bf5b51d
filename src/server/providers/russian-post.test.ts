import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  parseRussianPostTariff,
  RussianPostDown,
  RussianPostRefusal,
  russianPostTariff,
  russianPostTariffUrl,
} from './russian-post.ts';
import { createRussianPostSimulator, type RussianPostSimulator } from './simulators/russian-post.ts';

/** A domestic answer as the calculator gives it (trimmed of fields we do not read). */
const DOMESTIC_ANSWER = {
  version: '2.16.1.604',
  id: 27030,
  name: 'Посылка стандарт',
  weight: 1200,
  from: 101000,
  to: 190000,
  items: [{ id: '2703001', name: 'Пересылка', tariff: { val: 27500, valnds: 33000 } }],
  pay: 27500,
  paynds: 33000,
  nds: 5500,
  ndsrate: 20,
  delivery: { min: 2, max: 4, deadline: '20261125T200000' },
};

const refusalOf = (body: unknown) => {
  try {
    parseRussianPostTariff(body);
  } catch (error) {
    return error;
  }
  throw new Error('expected a refusal');
};

describe('reading a calculator answer', () => {
  it('takes paynds (kopecks, VAT included) as the price and delivery min/max as days', () => {
    expect(parseRussianPostTariff(DOMESTIC_ANSWER)).toEqual({ cost: 33000, days: { min: 2, max: 4 } });
  });

  it('gives no days when the answer has no delivery block, as international answers may', () => {
    const { delivery: _delivery, ...international } = DOMESTIC_ANSWER;
    expect(parseRussianPostTariff({ ...international, paynds: '185000' })).toEqual({
      cost: 185000,
      days: null,
    });
  });

  it('blames the postcode for code 1321 and for a wrong "to" parameter', () => {
    const unknown = refusalOf({
      errors: [{ msg: 'Индекс места назначения 000000 не существует.', code: 1321, type: 1 }],
    });
    expect(unknown).toBeInstanceOf(RussianPostRefusal);
    expect((unknown as RussianPostRefusal).reason).toBe('zip-unknown');
    const malformed = refusalOf({
      errors: [
        {
          msg: 'Неверное значение параметра "Индекс места назначения" (to). значение "test" не является параметром почтового объекта.',
          code: 1301,
        },
      ],
    });
    expect((malformed as RussianPostRefusal).reason).toBe('zip-unknown');
  });

  it('reports other refusals, including a wrong sender postcode, as refused with their codes', () => {
    const tooHeavy = refusalOf({
      errors: [{ msg: 'Превышен максимально допустимый вес отправления: 20000 г.', code: 1203 }],
    }) as RussianPostRefusal;
    expect(tooHeavy.reason).toBe('refused');
    expect(tooHeavy.errors).toEqual([
      { msg: 'Превышен максимально допустимый вес отправления: 20000 г.', code: 1203 },
    ]);
    expect(tooHeavy.message).toMatch(/1203/);
    const sender = refusalOf({
      errors: [{ msg: 'Индекс места отправления 000000 не существует.', code: 1320 }],
    });
    expect((sender as RussianPostRefusal).reason).toBe('refused');
  });

  it('treats an answer without a price or not an object as the service being down', () => {
    expect(refusalOf({ version: '2', caption: 'x' })).toBeInstanceOf(RussianPostDown);
    expect(refusalOf([DOMESTIC_ANSWER])).toBeInstanceOf(RussianPostDown);
    expect(refusalOf({ ...DOMESTIC_ANSWER, paynds: 0, pay: 0 })).toBeInstanceOf(RussianPostDown);
  });
});

describe('the request', () => {
  const settings = { url: 'https://tariff.pochta.ru/', fromZip: '101000' };

  it('asks for a standard parcel between two postcodes with the declared value in kopecks', () => {
    const url = new URL(
      russianPostTariffUrl(settings, {
        toZip: '190000',
        weightGrams: 1234.2,
        declaredValueKopecks: 5_990_00,
      }),
    );
    expect(url.origin + url.pathname).toBe('https://tariff.pochta.ru/v2/calculate/tariff/delivery');
    expect(url.search.startsWith('?json&')).toBe(true);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      json: '',
      object: '27030',
      from: '101000',
      to: '190000',
      weight: '1235',
      sumoc: '599000',
      errorcode: '1',
    });
  });

  it('asks abroad for an ordinary international parcel by air with the numeric country code', () => {
    const url = new URL(
      russianPostTariffUrl(settings, { countryNumeric: 840, weightGrams: 800, declaredValueKopecks: 100 }),
    );
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      object: '4031',
      'country-to': '840',
      weight: '800',
      isavia: '1',
    });
    expect(url.searchParams.has('to')).toBe(false);
  });
});

describe('talking to the calculator', () => {
  let simulator: RussianPostSimulator;
  let app: FastifyInstance;
  let settings: { url: string; fromZip: string };
  let broken: Server;
  let brokenUrl: string;

  beforeAll(async () => {
    simulator = createRussianPostSimulator();
    app = Fastify();
    await app.register(simulator.plugin);
    settings = {
      url: `${await app.listen({ port: 0, host: '127.0.0.1' })}/sandbox/russian-post`,
      fromZip: '101000',
    };
    broken = createServer((request, response) => {
      if (request.url?.startsWith('/slow/')) return; // never answers
      response.writeHead(200, { 'content-type': 'text/html' }).end('<html>Технические работы</html>');
    });
    await new Promise<void>((resolve) => broken.listen(0, '127.0.0.1', resolve));
    brokenUrl = `http://127.0.0.1:${(broken.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await app.close();
    broken.closeAllConnections();
    await new Promise((resolve) => broken.close(resolve));
  });
  beforeEach(() => {
    simulator.setMode('normal');
    simulator.clearRequests();
  });

  const parcel = { toZip: '190000', weightGrams: 500, declaredValueKopecks: 2_000_00 };

  it('gets a price and a delivery time for a domestic parcel', async () => {
    const quote = await russianPostTariff(settings, parcel);
    expect(quote.cost).toBeGreaterThan(250_00);
    expect(quote.days).toEqual({ min: expect.any(Number), max: expect.any(Number) });
  });

  it('refuses a malformed Russian postcode without asking', async () => {
    for (const toZip of ['1900', '19000a', '', '1900000']) {
      await expect(russianPostTariff(settings, { ...parcel, toZip })).rejects.toMatchObject({
        reason: 'zip-invalid',
      });
    }
    expect(simulator.requests()).toEqual([]);
  });

  it('says the postcode is unknown when the calculator says so', async () => {
    await expect(russianPostTariff(settings, { ...parcel, toZip: '000000' })).rejects.toMatchObject({
      name: 'RussianPostRefusal',
      reason: 'zip-unknown',
    });
  });

  it('reports HTTP errors, dropped connections, non-JSON answers and time-outs as down', async () => {
    simulator.setMode('down');
    await expect(russianPostTariff(settings, parcel)).rejects.toThrow(/HTTP 503/);
    simulator.setMode('reset');
    await expect(russianPostTariff(settings, parcel)).rejects.toBeInstanceOf(RussianPostDown);
    await expect(russianPostTariff({ ...settings, url: brokenUrl }, parcel)).rejects.toThrow(
      /other than JSON/,
    );
    const started = Date.now();
    await expect(
      russianPostTariff({ ...settings, url: `${brokenUrl}/slow` }, parcel, fetch, 150),
    ).rejects.toBeInstanceOf(RussianPostDown);
    expect(Date.now() - started).toBeLessThan(3_000);
  });
});
