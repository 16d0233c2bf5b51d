import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  BoxberryDown,
  BoxberryRefusal,
  boxberryCost,
  boxberryError,
  boxberryPoints,
  parseDeliveryCosts,
  parseListPoints,
  parsePointsByPostCode,
  parseZipCheck,
  SANDBOX_BOXBERRY_TOKEN,
} from './boxberry.ts';
import { type BoxberrySimulator, createBoxberrySimulator } from './simulators/boxberry.ts';

const failureOf = (read: () => unknown) => {
  try {
    read();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a failure');
};

describe('reading Boxberry answers', () => {
  it('finds an error in {"err"} and in [{"err"}], and none in a normal answer', () => {
    expect(boxberryError({ err: 'Не найден пункт выдачи' })).toBe('Не найден пункт выдачи');
    expect(boxberryError([{ err: 'Индекс не найден' }])).toBe('Индекс не найден');
    expect(boxberryError({ err: '' })).toBeNull();
    expect(boxberryError({ price: 224 })).toBeNull();
    expect(boxberryError([])).toBeNull();
  });

  it('turns a DeliveryCosts answer in roubles into kopecks and days', () => {
    expect(
      parseDeliveryCosts({ price: 224, price_base: 147, price_service: 77, delivery_period: 1 }),
    ).toEqual({ cost: 22400, days: { min: 1, max: 1 } });
    expect(parseDeliveryCosts({ price: '312.5', delivery_period: '0' })).toEqual({ cost: 31250, days: null });
    const refused = failureOf(() => parseDeliveryCosts({ err: 'Превышен максимальный вес посылки' }));
    expect(refused).toBeInstanceOf(BoxberryRefusal);
    expect((refused as BoxberryRefusal).reason).toBe('refused');
    expect(failureOf(() => parseDeliveryCosts({ price: 0 }))).toBeInstanceOf(BoxberryDown);
  });

  it('reads ZipCheck: couriers or not, and an unknown postcode', () => {
    expect(parseZipCheck([{ ExpressDelivery: 1, ZoneExpressDelivery: 2 }])).toEqual({
      courier: true,
      zone: 2,
    });
    expect(parseZipCheck([{ ExpressDelivery: 0, ZoneExpressDelivery: null }])).toEqual({
      courier: false,
      zone: null,
    });
    expect(parseZipCheck({ ExpressDelivery: '1', ZoneExpressDelivery: '3' }).courier).toBe(true);
    const unknown = failureOf(() => parseZipCheck({ err: 'Почтовый индекс 000000 не найден' }));
    expect((unknown as BoxberryRefusal).reason).toBe('zip-unknown');
  });

  it('reads the nearest pickup point of a postcode', () => {
    expect(parsePointsByPostCode({ Code: '10014' })).toBe('10014');
    expect(parsePointsByPostCode([{ Code: 77961 }])).toBe('77961');
    expect((failureOf(() => parsePointsByPostCode({ err: 'нет' })) as BoxberryRefusal).reason).toBe(
      'no-pickup-point',
    );
    expect((failureOf(() => parsePointsByPostCode({ Code: '' })) as BoxberryRefusal).reason).toBe(
      'no-pickup-point',
    );
  });

  it('reads ListPoints rows with their spelling of WorkShedule and GPS as "lat,lon"', () => {
    const [point] = parseListPoints([
      {
        Code: '66012',
        Name: 'Екатеринбург Малышева',
        Address: '620014, Екатеринбург г, Малышева ул, д.36',
        Phone: '+7 (343) 000-66-12',
        WorkShedule: 'пн-пт:10.00-20.00',
        DeliveryPeriod: '4',
        CityCode: '63',
        CityName: 'Екатеринбург',
        GPS: '56.836602,60.600301',
      },
    ]);
    expect(point).toEqual({
      code: '66012',
      name: 'Екатеринбург Малышева',
      address: '620014, Екатеринбург г, Малышева ул, д.36',
      phone: '+7 (343) 000-66-12',
      workSchedule: 'пн-пт:10.00-20.00',
      period: 4,
      cityCode: '63',
      cityName: 'Екатеринбург',
      gps: { lat: 56.836602, lon: 60.600301 },
    });
    expect(parseListPoints([{ Code: '1', GPS: '' }])[0]?.gps).toBeNull();
    expect(failureOf(() => parseListPoints({ price: 1 }))).toBeInstanceOf(BoxberryDown);
  });
});

describe('talking to Boxberry', () => {
  let simulator: BoxberrySimulator;
  let app: FastifyInstance;
  let settings: { url: string; token: string; targetStart: string };

  beforeAll(async () => {
    simulator = createBoxberrySimulator();
    app = Fastify();
    await app.register(simulator.plugin);
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    settings = {
      url: `${base}/sandbox/boxberry/json.php`,
      token: SANDBOX_BOXBERRY_TOKEN,
      targetStart: '010',
    };
  });
  afterAll(() => app.close());
  beforeEach(() => {
    simulator.setMode('normal');
    simulator.clearRequests();
  });

  const parcel = { zip: '420111', weightGrams: 700, orderSumKopecks: 3_500_00 };

  it('prices a pickup parcel to the point nearest the postcode', async () => {
    const quote = await boxberryCost(settings, { ...parcel, kind: 'pickup' });
    expect(quote.pickupPointCode).toBe('16004');
    expect(quote.cost).toBeGreaterThanOrEqual(200_00);
    expect(quote.cost).toBeLessThanOrEqual(400_00);
    expect(quote.days).toEqual({ min: 3, max: 3 });
    const [nearest, costs] = simulator.requests();
    expect(nearest).toMatchObject({
      method: 'PointsByPostCode',
      zip: '420111',
      token: SANDBOX_BOXBERRY_TOKEN,
    });
    expect(costs).toMatchObject({
      method: 'DeliveryCosts',
      target: '16004',
      weight: '700',
      targetstart: '010',
      ordersum: '3500.00',
      paysum: '0',
    });
  });

  it('checks a courier postcode first, then prices door delivery', async () => {
    const quote = await boxberryCost(settings, { ...parcel, kind: 'courier' });
    expect(quote.cost).toBeGreaterThanOrEqual(350_00);
    expect(quote.cost).toBeLessThanOrEqual(700_00);
    expect(simulator.requests().map((query) => query.method)).toEqual(['ZipCheck', 'DeliveryCosts']);
    expect(simulator.requests()[1]).toMatchObject({ zip: '420111' });
    expect(simulator.requests()[1]?.target).toBeUndefined();
  });

  it('says when couriers do not serve a postcode or Boxberry does not know it', async () => {
    await expect(boxberryCost(settings, { ...parcel, kind: 'courier', zip: '683000' })).rejects.toMatchObject(
      {
        reason: 'no-courier',
      },
    );
    await expect(boxberryCost(settings, { ...parcel, kind: 'courier', zip: '999999' })).rejects.toMatchObject(
      {
        reason: 'zip-unknown',
      },
    );
    await expect(boxberryCost(settings, { ...parcel, kind: 'pickup', zip: '683000' })).rejects.toMatchObject({
      reason: 'no-pickup-point',
    });
    await expect(boxberryCost(settings, { ...parcel, kind: 'pickup', zip: '4201' })).rejects.toMatchObject({
      reason: 'zip-invalid',
    });
  });

  it('treats a refused token as the service being unusable, not as the shopper’s postcode', async () => {
    await expect(
      boxberryCost({ ...settings, token: 'wrong' }, { ...parcel, kind: 'courier' }),
    ).rejects.toBeInstanceOf(BoxberryDown);
  });

  it('reports HTTP errors and dropped connections as down', async () => {
    simulator.setMode('down');
    await expect(boxberryCost(settings, { ...parcel, kind: 'pickup' })).rejects.toThrow(/HTTP 503/);
    simulator.setMode('reset');
    await expect(boxberryCost(settings, { ...parcel, kind: 'pickup' })).rejects.toBeInstanceOf(BoxberryDown);
  });

  it('lists pickup points of a city by code, by name, and around a postcode (nearest first)', async () => {
    const byCode = await boxberryPoints(settings, { cityCode: '89' });
    expect(byCode.map((point) => point.cityName)).toEqual([
      'Санкт-Петербург',
      'Санкт-Петербург',
      'Санкт-Петербург',
    ]);
    const byName = await boxberryPoints(settings, { cityName: 'новосибирск' });
    expect(byName.map((point) => point.code)).toEqual(['54009', '54021']);
    expect(await boxberryPoints(settings, { cityName: 'Урюпинск' })).toEqual([]);
    const aroundZip = await boxberryPoints(settings, { zip: '194300' });
    expect(aroundZip[0]?.code).toBe('78036');
    expect(aroundZip).toHaveLength(3);
    for (const point of aroundZip) {
      const [zip, city, ...street] = point.address.split(', ');
      expect(zip).toMatch(/^\d{6}$/);
      expect(city).toBe('Санкт-Петербург г');
      expect(street.length).toBeGreaterThan(0);
    }
  });
});
