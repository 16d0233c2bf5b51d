/**
 * The Boxberry simulator against Boxberry's json.php protocol as iamwildtuna/boxberry-sdk calls it:
 * src/Client.php (GET with `token` and `method`; ParselCreate as a POST of `sdata`; refusals as
 * `{"err":"…"}` or `[{"err":"…"}]` with HTTP 200; ListPoints, PointsByPostCode, ZipCheck,
 * ListStatuses, ParselCheck) and src/Entity/CalculateParams.php (DeliveryCosts' `weight`,
 * `targetstart`, `target` or `zip`, `ordersum`, `deliverysum`, `paysum`, `height`, `width`,
 * `depth`). UNCONFIRMED: the city and point codes, the prices, the volume divisor and the Russian
 * texts of refusals and statuses (the simulator's own).
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SANDBOX_BOXBERRY_TOKEN } from '../boxberry.ts';
import {
  BOXBERRY_SIMULATOR_PATH,
  type BoxberrySimulator,
  createBoxberrySimulator,
  SIMULATED_POINTS,
} from './boxberry.ts';

let app: FastifyInstance;
let simulator: BoxberrySimulator;

beforeAll(async () => {
  simulator = createBoxberrySimulator();
  app = Fastify();
  await app.register(simulator.plugin);
  await app.ready();
});
afterAll(() => app.close());
beforeEach(() => {
  simulator.setMode('normal');
  simulator.clearRequests();
});

async function call(method: string, parameters: Record<string, string> = {}, token = SANDBOX_BOXBERRY_TOKEN) {
  const query = new URLSearchParams({ token, method, ...parameters });
  const response = await app.inject({ method: 'GET', url: `${BOXBERRY_SIMULATOR_PATH}?${query}` });
  // Boxberry answers refusals with HTTP 200 as well.
  expect(response.statusCode).toBe(200);
  return response.json();
}

const costs = (parameters: Record<string, string>) =>
  call('DeliveryCosts', {
    weight: '500',
    targetstart: '010',
    ordersum: '3000',
    deliverysum: '0',
    paysum: '0',
    ...parameters,
  });

describe('Boxberry simulator', () => {
  it('refuses a missing or wrong token with {"err"} and HTTP 200', async () => {
    expect(await call('ListCities', {}, 'wrong')).toEqual({ err: expect.stringMatching(/token/) });
    expect(await call('ListCities', {}, '')).toEqual({ err: expect.any(String) });
    expect(await call('NoSuchMethod')).toEqual({ err: expect.stringMatching(/NoSuchMethod/) });
  });

  it('lists a dozen pickup points in five cities, with addresses that split into zip, city and street', async () => {
    const all = await call('ListPoints', { prepaid: '1' });
    expect(all.length).toBeGreaterThanOrEqual(12);
    expect(new Set(all.map((point: { CityName: string }) => point.CityName))).toEqual(
      new Set(['Москва', 'Санкт-Петербург', 'Казань', 'Новосибирск', 'Екатеринбург']),
    );
    for (const point of all) {
      expect(point).toMatchObject({
        Code: expect.stringMatching(/^\d+$/),
        Name: expect.any(String),
        Phone: expect.stringMatching(/^\+7 \(\d{3}\) /),
        WorkShedule: expect.stringMatching(/пн-пт/),
        DeliveryPeriod: expect.any(Number),
        GPS: expect.stringMatching(/^\d+\.\d+,\d+\.\d+$/),
      });
      const [zip, city, ...street] = point.Address.split(', ');
      expect(zip).toMatch(/^\d{6}$/);
      expect(city).toBe(`${point.CityName} г`);
      expect(street.join(', ')).toBe(point.AddressReduce);
    }
    const kazan = await call('ListPoints', { CityCode: '17', prepaid: '1' });
    expect(kazan.map((point: { Code: string }) => point.Code)).toEqual(['16004', '16017']);
    expect(await call('ListPoints', { CityCode: '99999' })).toEqual([]);
    const cities = await call('ListCities');
    expect(cities.find((city: { Name: string }) => city.Name === 'Москва')).toMatchObject({ Code: '68' });
  });

  it('finds the pickup point nearest a postcode, and none where it has no points', async () => {
    expect(await call('PointsByPostCode', { zip: '125047' })).toEqual({ Code: '10014' });
    expect(await call('PointsByPostCode', { zip: '141001' })).toMatchObject({ Code: expect.any(String) });
    expect(await call('PointsByPostCode', { zip: '443000' })).toEqual({ err: expect.any(String) });
    expect(await call('PointsByPostCode', { zip: '000000' })).toEqual({ err: expect.any(String) });
    const description = await call('PointsDescription', { code: '66012' });
    expect(description).toMatchObject({
      CityCode: '63',
      Address: '620014, Екатеринбург г, Малышева ул, д.36',
    });
    expect(await call('PointsDescription', { code: '1' })).toEqual({ err: expect.any(String) });
  });

  it('checks courier postcodes', async () => {
    expect(await call('ZipCheck', { Zip: '190000' })).toEqual([
      { ExpressDelivery: 1, ZoneExpressDelivery: 1, Remoteness: 0 },
    ]);
    expect(await call('ZipCheck', { Zip: '683000' })).toEqual([
      { ExpressDelivery: 0, ZoneExpressDelivery: null, Remoteness: 0 },
    ]);
    expect(await call('ZipCheck', { Zip: '999999' })).toEqual({ err: expect.any(String) });
  });

  it('prices pickup at about 200–400 ₽ and courier at about 350–700 ₽, in roubles', async () => {
    for (const point of SIMULATED_POINTS) {
      const answer = await costs({ target: point.code });
      expect(answer.price).toBe(answer.price_base + answer.price_service);
      expect(answer.price).toBeGreaterThanOrEqual(200);
      expect(answer.price).toBeLessThanOrEqual(400);
      expect(answer.delivery_period).toBe(point.deliveryPeriod);
    }
    const moscow = await costs({ zip: '125009', target: '10014' });
    const novosibirsk = await costs({ zip: '630099' });
    expect(moscow.price).toBeGreaterThanOrEqual(350);
    expect(novosibirsk.price).toBeLessThanOrEqual(700);
    expect(novosibirsk.price).toBeGreaterThan(moscow.price);
    expect(novosibirsk.delivery_period).toBeGreaterThan(moscow.delivery_period);
    const heavier = await costs({ zip: '125009', weight: '4500' });
    expect(heavier.price).toBeGreaterThan(moscow.price);
    const dearer = await costs({ zip: '125009', ordersum: '30000' });
    expect(dearer.price_service).toBeGreaterThan(moscow.price_service);
  });

  it('refuses what the real one refuses', async () => {
    expect(await costs({ target: '404' })).toEqual({ err: expect.any(String) });
    expect(await costs({})).toEqual({ err: expect.stringMatching(/target/) });
    expect(await costs({ target: '10014', weight: '0' })).toEqual({ err: expect.stringMatching(/вес/) });
    expect(await costs({ target: '10014', weight: '16000' })).toEqual({ err: expect.stringMatching(/вес/) });
    expect(await costs({ target: '10014', targetstart: '999' })).toEqual({ err: expect.any(String) });
    expect(await costs({ zip: '683000' })).toEqual({ err: expect.stringMatching(/683000/) });
  });

  it('can be down or drop connections, and counts every request', async () => {
    simulator.setMode('down');
    const response = await app.inject({ method: 'GET', url: `${BOXBERRY_SIMULATOR_PATH}?method=ListCities` });
    expect(response.statusCode).toBe(503);
    expect(simulator.requests()).toEqual([{ method: 'ListCities' }]);
  });
});
