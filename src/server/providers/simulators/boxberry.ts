import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SANDBOX_BOXBERRY_TOKEN } from '../boxberry.ts';
import { type PostcodeRegion, russianRegionOf } from './russian-post.ts';
import { formPdf } from './shipping-forms.ts';

/**
 * A local stand-in for the Boxberry API, speaking its protocol: `GET /sandbox/boxberry/json.php
 * ?token=…&method=…` (`config.delivery.boxberry.url` points here in test mode). Like the real one it
 * answers every refusal with HTTP 200 and `{"err":"…"}`, and money in roubles.
 *
 * Methods: `ListCities`, `ListPoints` (`CityCode`, `prepaid`), `PointsDescription` (`code`),
 * `PointsByPostCode` (`zip`), `ZipCheck` (`Zip`), `DeliveryCosts` (`weight`, `targetstart`,
 * `target` or `zip`, `ordersum`, `deliverysum`, `paysum`).
 *
 * - The token must be the configured one (`SANDBOX_BOXBERRY_TOKEN` by default).
 * - Postcodes are Russia's (see `RUSSIAN_POSTCODE_REGIONS`); 13 pickup points in Moscow, Saint
 *   Petersburg, Kazan, Novosibirsk and Yekaterinburg serve their regions; couriers serve the larger
 *   cities' regions only (not Kamchatka, Yakutia, Murmansk, …).
 * - Prices: pickup about 200–400 ₽, courier about 350–700 ₽, by weight, by the tariff belt of the
 *   destination and 0.5 % of `ordersum` for insurance; periods 1–7 days. With `height`, `width` and
 *   `depth` (cm) a bulky parcel is billed by its volume weight, L × W × H / 5000 kg (the divisor is
 *   the simulator's own: Boxberry's is UNCONFIRMED).
 * - Addresses are written like Boxberry's own: "620014, Екатеринбург г, Малышева ул, д.36", so
 *   splitting on ", " gives postcode, city and street (spec section 4).
 */

export interface SimulatedCity {
  code: string;
  name: string;
  region: string;
  kladr: string;
}

export interface SimulatedPoint {
  code: string;
  name: string;
  cityCode: string;
  address: string;
  phone: string;
  workSchedule: string;
  tripDescription: string;
  deliveryPeriod: number;
  gps: string;
  metro: string;
}

/** City codes are the simulator's own; Boxberry's real ones come from its ListCities. */
export const SIMULATED_CITIES: readonly SimulatedCity[] = [
  { code: '68', name: 'Москва', region: 'Москва', kladr: '7700000000000' },
  { code: '89', name: 'Санкт-Петербург', region: 'Санкт-Петербург', kladr: '7800000000000' },
  { code: '17', name: 'Казань', region: 'Татарстан', kladr: '1600000100000' },
  { code: '53', name: 'Новосибирск', region: 'Новосибирская', kladr: '5400000100000' },
  { code: '63', name: 'Екатеринбург', region: 'Свердловская', kladr: '6600000100000' },
];

/** Which pickup-point city serves a postcode region. */
const CITY_OF_REGION: Record<string, string> = {
  Москва: '68',
  'Московская область': '68',
  'Санкт-Петербург': '89',
  'Ленинградская область': '89',
  'Республика Татарстан': '17',
  'Новосибирская область': '53',
  'Свердловская область': '63',
};

const COURIER_REGIONS = new Set([
  'Москва',
  'Московская область',
  'Санкт-Петербург',
  'Ленинградская область',
  'Ярославская область',
  'Тверская область',
  'Тульская область',
  'Воронежская область',
  'Нижегородская область',
  'Республика Татарстан',
  'Самарская область',
  'Ростовская область',
  'Краснодарский край',
  'Республика Башкортостан',
  'Пермский край',
  'Свердловская область',
  'Новосибирская область',
  'Омская область',
  'Красноярский край',
]);

const WEEKDAYS_LATE = 'пн-пт:10.00-21.00, сб-вс:10.00-18.00';
const WEEKDAYS = 'пн-пт:10.00-20.00, сб:10.00-16.00';

export const SIMULATED_POINTS: readonly SimulatedPoint[] = [
  {
    code: '10014',
    name: 'Москва Тверская',
    cityCode: '68',
    address: '125009, Москва г, Тверская ул, д.7',
    phone: '+7 (495) 000-10-14',
    workSchedule: WEEKDAYS_LATE,
    tripDescription: 'От метро «Охотный Ряд» пешком 5 минут, вход со двора.',
    deliveryPeriod: 1,
    gps: '55.757893,37.612961',
    metro: 'Охотный Ряд',
  },
  {
    code: '10027',
    name: 'Москва Садовническая',
    cityCode: '68',
    address: '115035, Москва г, Садовническая ул, д.9',
    phone: '+7 (495) 000-10-27',
    workSchedule: WEEKDAYS,
    tripDescription: 'Метро «Новокузнецкая», выход к Пятницкой улице, далее 7 минут пешком.',
    deliveryPeriod: 1,
    gps: '55.745120,37.634571',
    metro: 'Новокузнецкая',
  },
  {
    code: '10045',
    name: 'Москва Профсоюзная',
    cityCode: '68',
    address: '117292, Москва г, Профсоюзная ул, д.12',
    phone: '+7 (495) 000-10-45',
    workSchedule: WEEKDAYS_LATE,
    tripDescription: 'Метро «Академическая», первый этаж жилого дома.',
    deliveryPeriod: 1,
    gps: '55.688612,37.572404',
    metro: 'Академическая',
  },
  {
    code: '10058',
    name: 'Москва Первомайская',
    cityCode: '68',
    address: '105043, Москва г, Первомайская ул, д.42',
    phone: '+7 (495) 000-10-58',
    workSchedule: WEEKDAYS,
    tripDescription: 'Метро «Измайловская», 10 минут пешком по Первомайской улице.',
    deliveryPeriod: 1,
    gps: '55.794401,37.789537',
    metro: 'Первомайская',
  },
  {
    code: '78011',
    name: 'Санкт-Петербург Невский',
    cityCode: '89',
    address: '191025, Санкт-Петербург г, Невский пр-кт, д.88',
    phone: '+7 (812) 000-78-11',
    workSchedule: WEEKDAYS_LATE,
    tripDescription: 'Метро «Маяковская», вход через арку.',
    deliveryPeriod: 2,
    gps: '59.932210,30.352711',
    metro: 'Маяковская',
  },
  {
    code: '78023',
    name: 'Санкт-Петербург Московский',
    cityCode: '89',
    address: '196084, Санкт-Петербург г, Московский пр-кт, д.107',
    phone: '+7 (812) 000-78-23',
    workSchedule: WEEKDAYS,
    tripDescription: 'Метро «Электросила», торговый центр, 1 этаж.',
    deliveryPeriod: 2,
    gps: '59.891205,30.317719',
    metro: 'Электросила',
  },
  {
    code: '78036',
    name: 'Санкт-Петербург Просвещения',
    cityCode: '89',
    address: '194354, Санкт-Петербург г, Просвещения пр-кт, д.19',
    phone: '+7 (812) 000-78-36',
    workSchedule: WEEKDAYS_LATE,
    tripDescription: 'Метро «Проспект Просвещения», 3 минуты пешком.',
    deliveryPeriod: 2,
    gps: '60.051203,30.332905',
    metro: 'Проспект Просвещения',
  },
  {
    code: '16004',
    name: 'Казань Баумана',
    cityCode: '17',
    address: '420111, Казань г, Баумана ул, д.44',
    phone: '+7 (843) 000-16-04',
    workSchedule: WEEKDAYS,
    tripDescription: 'Пешеходная улица, вход с торца здания.',
    deliveryPeriod: 3,
    gps: '55.788711,49.118602',
    metro: 'Площадь Тукая',
  },
  {
    code: '16017',
    name: 'Казань Ямашева',
    cityCode: '17',
    address: '420124, Казань г, Ямашева пр-кт, д.93',
    phone: '+7 (843) 000-16-17',
    workSchedule: WEEKDAYS_LATE,
    tripDescription: 'Торговый центр, цокольный этаж.',
    deliveryPeriod: 3,
    gps: '55.827804,49.136511',
    metro: '',
  },
  {
    code: '54009',
    name: 'Новосибирск Красный',
    cityCode: '53',
    address: '630099, Новосибирск г, Красный пр-кт, д.29',
    phone: '+7 (383) 000-54-09',
    workSchedule: WEEKDAYS,
    tripDescription: 'Метро «Площадь Ленина», 5 минут пешком.',
    deliveryPeriod: 5,
    gps: '55.030204,82.920700',
    metro: 'Площадь Ленина',
  },
  {
    code: '54021',
    name: 'Новосибирск Гоголя',
    cityCode: '53',
    address: '630005, Новосибирск г, Гоголя ул, д.15',
    phone: '+7 (383) 000-54-21',
    workSchedule: WEEKDAYS_LATE,
    tripDescription: 'Метро «Маршала Покрышкина», вход со стороны двора.',
    deliveryPeriod: 5,
    gps: '55.041503,82.934617',
    metro: 'Маршала Покрышкина',
  },
  {
    code: '66012',
    name: 'Екатеринбург Малышева',
    cityCode: '63',
    address: '620014, Екатеринбург г, Малышева ул, д.36',
    phone: '+7 (343) 000-66-12',
    workSchedule: WEEKDAYS,
    tripDescription: 'Метро «Площадь 1905 года», 7 минут пешком.',
    deliveryPeriod: 4,
    gps: '56.836602,60.600301',
    metro: 'Площадь 1905 года',
  },
  {
    code: '66025',
    name: 'Екатеринбург Ленина',
    cityCode: '63',
    address: '620075, Екатеринбург г, Ленина пр-кт, д.50',
    phone: '+7 (343) 000-66-25',
    workSchedule: WEEKDAYS_LATE,
    tripDescription: 'Метро «Динамо», офисный центр, 1 этаж.',
    deliveryPeriod: 4,
    gps: '56.840508,60.626014',
    metro: 'Динамо',
  },
];

/** Drop-off offices the simulator knows; `targetstart` must be one of them. */
export const SIMULATED_TARGET_STARTS: Record<string, string> = { '010': '68' };

const MAX_PICKUP_WEIGHT = 15_000;
const MAX_COURIER_WEIGHT = 31_000;

export type BoxberrySimulatorMode =
  /** Answers as described above. */
  | 'normal'
  /** HTTP 503 with an HTML page. */
  | 'down'
  /** Drops the connection without an answer. */
  | 'reset';

export interface BoxberrySimulator {
  plugin: (app: FastifyInstance) => Promise<void>;
  setMode(mode: BoxberrySimulatorMode): void;
  /** The query (and form fields) of every request received (in any mode), oldest first. */
  requests(): Array<Record<string, string>>;
  /** Parcels made by ParselCreate, oldest first. */
  parcels(): SimulatedParcel[];
  /** The parcel's next status, at `at` (now by default). */
  advance(track: string, at?: Date): void;
  clearRequests(): void;
}

export const BOXBERRY_SIMULATOR_PATH = '/sandbox/boxberry/json.php';
export const BOXBERRY_SIMULATOR_LABELS = '/sandbox/boxberry/labels';

class Refused extends Error {}

const cityByCode = (code: string) => SIMULATED_CITIES.find((city) => city.code === code);
const zipOf = (point: SimulatedPoint) => Number(point.address.slice(0, 6));

function pointRow(point: SimulatedPoint) {
  const city = cityByCode(point.cityCode) as SimulatedCity;
  return {
    Code: point.code,
    Name: point.name,
    Address: point.address,
    Phone: point.phone,
    WorkShedule: point.workSchedule,
    TripDescription: point.tripDescription,
    DeliveryPeriod: point.deliveryPeriod,
    CityCode: point.cityCode,
    CityName: city.name,
    TariffZone: String(Math.min(5, point.deliveryPeriod)),
    Settlement: city.name,
    Area: city.region,
    Country: 'Россия',
    GPS: point.gps,
    AddressReduce: point.address.split(', ').slice(2).join(', '),
    OnlyPrepaidOrders: 'No',
    Acquiring: 'Yes',
    DigitalSignature: 'Yes',
    CountryCode: '643',
    NalKD: 'Yes',
    Metro: point.metro,
    TypeOfOffice: '1',
    VolumeLimit: '0.25',
    LoadLimit: String(MAX_PICKUP_WEIGHT / 1000),
    Postamat: false,
  };
}

function regionOrRefuse(zip: string | undefined): PostcodeRegion {
  if (!zip) throw new Refused('Не указан почтовый индекс');
  const region = russianRegionOf(zip);
  if (!region) throw new Refused(`Почтовый индекс ${zip} не найден`);
  return region;
}

function nearestPoint(zip: string): SimulatedPoint {
  const region = regionOrRefuse(zip);
  const cityCode = CITY_OF_REGION[region.name];
  const points = SIMULATED_POINTS.filter((point) => point.cityCode === cityCode);
  if (points.length === 0) throw new Refused(`Пункты выдачи для индекса ${zip} не найдены`);
  const wanted = Number(zip);
  return points.reduce((best, point) =>
    Math.abs(zipOf(point) - wanted) < Math.abs(zipOf(best) - wanted) ? point : best,
  );
}

function positiveInteger(value: string | undefined, message: string): number {
  if (value === undefined || !/^\d+$/.test(value) || Number(value) <= 0) throw new Refused(message);
  return Number(value);
}

function deliveryCosts(query: Record<string, string>) {
  const weight = positiveInteger(query.weight, 'Не указан или неверно указан вес посылки (weight)');
  if (query.targetstart && !SIMULATED_TARGET_STARTS[query.targetstart]) {
    throw new Refused(`Пункт приёма посылок ${query.targetstart} не найден`);
  }
  const orderSum = query.ordersum ? Number(query.ordersum) : 0;
  if (!Number.isFinite(orderSum) || orderSum < 0) throw new Refused('Неверно указана объявленная стоимость');
  // A bulky parcel is billed by its volume: L × W × H / 5000 kg when that is more than it weighs.
  const sides = ['height', 'width', 'depth'].map((name) => (query[name] ? Number(query[name]) : 0));
  if (sides.some((side) => !Number.isFinite(side) || side < 0)) throw new Refused('Неверно указаны габариты');
  const volumeGrams = sides.every((side) => side > 0)
    ? ((sides[0] ?? 0) * (sides[1] ?? 0) * (sides[2] ?? 0)) / 5
    : 0;
  const extraKilograms = Math.max(0, Math.ceil(Math.max(weight, volumeGrams) / 1000) - 1);
  const insurance = Math.round(20 + orderSum * 0.005);

  if (query.zip) {
    const region = regionOrRefuse(query.zip);
    if (!COURIER_REGIONS.has(region.name)) {
      throw new Refused(`Курьерская доставка по индексу ${query.zip} не осуществляется`);
    }
    if (weight > MAX_COURIER_WEIGHT) throw new Refused('Превышен максимальный вес посылки');
    const base = 320 + 60 * (region.belt - 1) + 30 * extraKilograms;
    return {
      price: base + insurance,
      price_base: base,
      price_service: insurance,
      delivery_period: [1, 2, 4, 5, 7][region.belt - 1] as number,
    };
  }
  if (!query.target) throw new Refused('Не указан код пункта выдачи (target)');
  const point = SIMULATED_POINTS.find((candidate) => candidate.code === query.target);
  if (!point) throw new Refused(`Пункт выдачи ${query.target} не найден`);
  if (weight > MAX_PICKUP_WEIGHT) throw new Refused('Превышен максимальный вес посылки для пункта выдачи');
  const belt = russianRegionOf(point.address.slice(0, 6))?.belt ?? 1;
  const base = 170 + 45 * (belt - 1) + 25 * extraKilograms;
  return {
    price: base + insurance,
    price_base: base,
    price_service: insurance,
    delivery_period: point.deliveryPeriod,
  };
}

/** A parcel made by ParselCreate: its track code and what was sent. */
export interface SimulatedParcel {
  track: string;
  data: Record<string, unknown>;
  /** `ListStatuses` rows, oldest first. */
  statuses: Array<{ Date: string; Name: string; Comment: string }>;
}

/** A parcel's statuses after it is created, one per `advance` (Boxberry's wording, UNCONFIRMED). */
const NEXT_STATUSES = ['Принято к доставке', 'Поступило в пункт выдачи', 'Выдано'];

/**
 * `ParselCreate` (a POST with `sdata`, ADR 0057): refuses a parcel without `order_id`, without a
 * pickup point (vid 1) the simulator knows or a courier address (vid 2), without items or weight,
 * with Boxberry-like texts (UNCONFIRMED wording); else a track code and the label's link.
 */
function parselCreate(query: Record<string, string>, parcels: SimulatedParcel[], origin: string) {
  let data: unknown;
  try {
    data = JSON.parse(query.sdata ?? '');
  } catch {
    throw new Refused('Не переданы данные посылки (sdata)');
  }
  if (typeof data !== 'object' || data === null) throw new Refused('Не переданы данные посылки (sdata)');
  const parcel = data as Record<string, unknown>;
  const shop = (parcel.shop ?? {}) as Record<string, unknown>;
  const delivery = (parcel.kurdost ?? {}) as Record<string, unknown>;
  const weights = (parcel.weights ?? {}) as Record<string, unknown>;
  if (!parcel.order_id) throw new Refused('Не указан номер заказа (order_id)');
  if (String(parcel.vid) === '1' && !SIMULATED_POINTS.some((point) => point.code === String(shop.name)))
    throw new Refused(`Пункт выдачи ${String(shop.name ?? '')} не найден`);
  if (String(parcel.vid) === '2') regionOrRefuse(String(delivery.index ?? ''));
  if (!Array.isArray(parcel.items) || parcel.items.length === 0)
    throw new Refused('Не указаны товары (items)');
  if (!(Number(weights.weight) > 0)) throw new Refused('Не указан вес посылки');
  const track = `BB${String(70_000_000 + parcels.length + 1)}`;
  parcels.push({
    track,
    data: parcel,
    statuses: [{ Date: new Date().toISOString(), Name: 'Загружен реестр ИМ', Comment: '' }],
  });
  return { track, label: `${origin}${BOXBERRY_SIMULATOR_LABELS}/${track}.pdf` };
}

function respond(query: Record<string, string>, parcels: SimulatedParcel[], origin: string): unknown {
  switch (query.method) {
    case 'ParselCreate':
      return parselCreate(query, parcels, origin);
    case 'ListStatuses': {
      const parcel = parcels.find((candidate) => candidate.track === query.ImId);
      if (!parcel) throw new Refused(`Посылка ${query.ImId ?? ''} не найдена`);
      return parcel.statuses;
    }
    case 'ParselCheck': {
      const parcel = parcels.find((candidate) => candidate.track === query.ImId);
      if (!parcel) throw new Refused(`Посылка ${query.ImId ?? ''} не найдена`);
      return { label: `${origin}${BOXBERRY_SIMULATOR_LABELS}/${parcel.track}.pdf` };
    }
    case 'ListCities':
      return SIMULATED_CITIES.map((city) => ({
        Code: city.code,
        Name: city.name,
        ReceptionLaP: '1',
        DeliveryLaP: '1',
        Reception: '1',
        CourierDelivery: '1',
        ForeignReceptionReturns: '0',
        Terminal: '1',
        Kladr: city.kladr,
        Region: city.region,
        CountryCode: '643',
        UniqName: city.name,
        District: '',
        Prefix: 'г',
        CourierReception: '1',
      }));
    case 'ListPoints': {
      const points = query.CityCode
        ? SIMULATED_POINTS.filter((point) => point.cityCode === query.CityCode)
        : SIMULATED_POINTS;
      return points.map(pointRow);
    }
    case 'PointsDescription': {
      const point = SIMULATED_POINTS.find((candidate) => candidate.code === query.code);
      if (!point) throw new Refused(`Пункт выдачи ${query.code ?? ''} не найден`);
      const { Code: _code, ...description } = pointRow(point);
      return description;
    }
    case 'PointsByPostCode':
      return { Code: nearestPoint(query.zip ?? '').code };
    case 'ZipCheck': {
      const region = regionOrRefuse(query.Zip);
      const courier = COURIER_REGIONS.has(region.name);
      return [
        {
          ExpressDelivery: courier ? 1 : 0,
          ZoneExpressDelivery: courier ? region.belt : null,
          Remoteness: 0,
        },
      ];
    }
    case 'DeliveryCosts':
      return deliveryCosts(query);
    default:
      throw new Refused(`Метод ${query.method ?? ''} не найден`);
  }
}

export function createBoxberrySimulator(options: { token?: string } = {}): BoxberrySimulator {
  const token = options.token ?? SANDBOX_BOXBERRY_TOKEN;
  let mode: BoxberrySimulatorMode = 'normal';
  const received: Array<Record<string, string>> = [];
  const parcels: SimulatedParcel[] = [];

  async function handle(request: FastifyRequest, reply: FastifyReply) {
    const form =
      typeof request.body === 'string'
        ? Object.fromEntries(new URLSearchParams(request.body))
        : ((request.body as Record<string, unknown> | undefined) ?? {});
    const query = Object.fromEntries(
      Object.entries({ ...(request.query as Record<string, unknown>), ...form }).map(([name, value]) => [
        name,
        String(Array.isArray(value) ? value[0] : value),
      ]),
    );
    received.push(query);
    if (mode === 'reset') {
      reply.hijack();
      request.raw.socket.destroy();
      return;
    }
    if (mode === 'down') {
      return reply
        .code(503)
        .type('text/html; charset=utf-8')
        .send('<html><body><h1>503 Service Unavailable</h1></body></html>');
    }
    let body: unknown;
    if (query.token !== token) {
      body = { err: 'Ключ интеграции (token) не найден или не активен' };
    } else {
      try {
        body = respond(query, parcels, `${request.protocol}://${request.headers.host ?? '127.0.0.1'}`);
      } catch (error) {
        if (!(error instanceof Refused)) throw error;
        body = { err: error.message };
      }
    }
    return reply.type('application/json; charset=utf-8').send(JSON.stringify(body));
  }

  async function plugin(app: FastifyInstance): Promise<void> {
    if (!app.hasContentTypeParser('application/x-www-form-urlencoded')) {
      app.addContentTypeParser(
        'application/x-www-form-urlencoded',
        { parseAs: 'string' },
        (_request, body, done) => done(null, body),
      );
    }
    app.get(BOXBERRY_SIMULATOR_PATH, handle);
    app.post(BOXBERRY_SIMULATOR_PATH, handle);
    app.get<{ Params: { track: string } }>(
      `${BOXBERRY_SIMULATOR_LABELS}/:track.pdf`,
      async (request, reply) => {
        const parcel = parcels.find((candidate) => candidate.track === request.params.track);
        if (!parcel) return reply.code(404).send('Not found');
        const customer = (parcel.data.customer ?? {}) as Record<string, unknown>;
        const shop = (parcel.data.shop ?? {}) as Record<string, unknown>;
        const items = Array.isArray(parcel.data.items)
          ? (parcel.data.items as Array<Record<string, unknown>>)
          : [];
        const pdf = await formPdf('Boxberry label', [
          `Track: ${parcel.track}`,
          `Order: ${String(parcel.data.order_id)}`,
          `To: ${String(customer.fio ?? '')}, ${String(customer.phone ?? '')}`,
          String(parcel.data.vid) === '1' ? `Pickup point: ${String(shop.name ?? '')}` : 'Courier delivery',
          ...items.map((item) => `${String(item.id)} x ${String(item.quantity)}`),
        ]);
        return reply.type('application/pdf').send(Buffer.from(pdf));
      },
    );
  }

  return {
    plugin,
    setMode(next) {
      mode = next;
    },
    requests: () => received.map((query) => ({ ...query })),
    parcels: () => parcels.map((parcel) => ({ ...parcel })),
    advance(track, at = new Date()) {
      const parcel = parcels.find((candidate) => candidate.track === track);
      if (!parcel) throw new Error(`no parcel ${track}`);
      const name = NEXT_STATUSES[parcel.statuses.length - 1];
      const point = SIMULATED_POINTS.find(
        (candidate) =>
          candidate.code === String((parcel.data.shop as Record<string, unknown> | undefined)?.name),
      );
      if (name) parcel.statuses.push({ Date: at.toISOString(), Name: name, Comment: point?.address ?? '' });
    },
    clearRequests() {
      received.length = 0;
    },
  };
}

/** The simulator in normal mode with the sandbox token, as the shop mounts it in test mode. */
export async function boxberrySimulator(app: FastifyInstance): Promise<void> {
  await createBoxberrySimulator().plugin(app);
}
