/**
 * The Russian Post tariff calculator simulator against the shapes of Russian Post's calculator API
 * (tariff.pochta.ru, "post-calculator-api.pdf": `GET /v2/calculate/tariff/delivery?json&object=
 * &from=&to=&weight=&sumoc=&errorcode=1`, chapter 1.1; refusals as `{"errors":[{"msg","code"}]}`),
 * as restub/PochtaSdk's TariffClient (Calculate, citing that chapter) calls it. Codes 1321 (unknown postcode) and
 * 1301 (wrong value) are the real ones; 1101, 1203 and 1320, the `pack` codes and the prices are the
 * simulator's own (UNCONFIRMED), as `russian-post.ts` says.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createRussianPostSimulator,
  RUSSIAN_POST_SIMULATOR_PATH,
  type RussianPostSimulator,
  russianRegionOf,
} from './russian-post.ts';

let app: FastifyInstance;
let simulator: RussianPostSimulator;

beforeAll(async () => {
  simulator = createRussianPostSimulator({ clock: () => new Date('2026-11-20T09:00:00Z') });
  app = Fastify();
  await app.register(simulator.plugin);
  await app.ready();
});
afterAll(() => app.close());
beforeEach(() => {
  simulator.setMode('normal');
  simulator.clearRequests();
});

async function ask(query: string) {
  const response = await app.inject({ method: 'GET', url: `${RUSSIAN_POST_SIMULATOR_PATH}?json&${query}` });
  return { status: response.statusCode, type: response.headers['content-type'], body: response.json() };
}

const domestic = (to: string, weight = 1000, object = 27030) =>
  ask(`object=${object}&from=101000&to=${to}&weight=${weight}&sumoc=100000&errorcode=1`);

describe('Russian Post calculator simulator', () => {
  it('knows postcodes by region prefix and nothing else', () => {
    expect(russianRegionOf('101000')?.name).toBe('Москва');
    expect(russianRegionOf('190000')?.name).toBe('Санкт-Петербург');
    expect(russianRegionOf('420111')?.name).toBe('Республика Татарстан');
    expect(russianRegionOf('630099')?.name).toBe('Новосибирская область');
    expect(russianRegionOf('620014')?.name).toBe('Свердловская область');
    expect(russianRegionOf('000000')).toBeUndefined();
    expect(russianRegionOf('999999')).toBeUndefined();
    expect(russianRegionOf('10100')).toBeUndefined();
  });

  it('answers a domestic parcel like the calculator: kopecks with VAT, delivery days, deadline', async () => {
    const { status, type, body } = await domestic('190000');
    expect(status).toBe(200);
    expect(type).toMatch(/application\/json/);
    expect(body).toMatchObject({
      id: 27030,
      name: 'Посылка стандарт',
      weight: 1000,
      from: 101000,
      to: 190000,
      ndsrate: 20,
      date: 20261120,
      delivery: {
        min: expect.any(Number),
        max: expect.any(Number),
        deadline: expect.stringMatching(/^\d{8}T\d{6}$/),
      },
    });
    expect(body.pay + body.nds).toBe(body.paynds);
    expect(body.items[0].tariff.valnds).toBe(body.paynds);
  });

  it('charges 250–600 ₽ at home, more for weight and for distance', async () => {
    const near = (await domestic('125009', 200)).body;
    const far = (await domestic('690000', 200)).body;
    const heavy = (await domestic('690000', 3000)).body;
    expect(near.paynds).toBeGreaterThanOrEqual(250_00);
    expect(far.paynds).toBeLessThanOrEqual(600_00);
    expect(far.paynds).toBeGreaterThan(near.paynds);
    expect(heavy.paynds).toBeGreaterThan(far.paynds);
    expect(far.delivery.max).toBeGreaterThan(near.delivery.max);
    const firstClass = (await domestic('125009', 200, 47030)).body;
    expect(firstClass.paynds).toBeGreaterThan(near.paynds);
  });

  it('charges 1,200–4,000 ₽ abroad by country group, with no delivery block', async () => {
    const international = (country: number, weight: number) =>
      ask(`object=4031&from=101000&country-to=${country}&weight=${weight}&isavia=1&errorcode=1`);
    const belarus = (await international(112, 500)).body;
    const germany = (await international(276, 500)).body;
    const usa = (await international(840, 500)).body;
    const kazakhstan = (await international(398, 500)).body;
    expect(belarus.paynds).toBeGreaterThanOrEqual(1_200_00);
    expect(kazakhstan.paynds).toBe(belarus.paynds);
    expect(germany.paynds).toBeGreaterThan(belarus.paynds);
    expect(usa.paynds).toBeGreaterThan(germany.paynds);
    expect((await international(840, 5000)).body.paynds).toBeLessThanOrEqual(4_000_00);
    expect(usa).toMatchObject({ id: 4031, 'country-to': 840 });
    expect(usa.delivery).toBeUndefined();
  });

  it('refuses bad input with an errors list, codes only when errorcode=1', async () => {
    expect((await domestic('000000')).body).toEqual({
      version: expect.any(String),
      caption: expect.any(String),
      errors: [{ msg: 'Индекс места назначения 000000 не существует.', code: 1321, type: 1 }],
    });
    const withoutCodes = await ask('object=27030&from=101000&to=999999&weight=100');
    expect(withoutCodes.status).toBe(200);
    expect(withoutCodes.body.errors).toEqual([
      { msg: 'Индекс места назначения 999999 не существует.', type: 1 },
    ]);
    expect((await domestic('abc')).body.errors[0]).toMatchObject({
      code: 1301,
      msg: expect.stringContaining('(to)'),
    });
    expect((await domestic('190000', 25_000)).body.errors[0].msg).toMatch(/вес/);
    expect((await ask('object=27030&from=101000&weight=100&errorcode=1')).body.errors[0].msg).toMatch(
      /\(to\)/,
    );
    expect(
      (await ask('object=4031&from=101000&country-to=643&weight=100&errorcode=1')).body.errors[0].msg,
    ).toMatch(/country-to/);
    expect((await ask('object=1&from=101000&to=190000&weight=100&errorcode=1')).body.errors[0].code).toBe(
      1301,
    );
  });

  it('can be down, and counts every request it gets', async () => {
    simulator.setMode('down');
    const down = await app.inject({ method: 'GET', url: `${RUSSIAN_POST_SIMULATOR_PATH}?json&object=27030` });
    expect(down.statusCode).toBe(503);
    expect(down.headers['content-type']).toMatch(/text\/html/);
    expect(simulator.requests()).toEqual([{ json: '', object: '27030' }]);
  });
});
