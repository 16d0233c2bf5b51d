import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * A local stand-in for the Russian Post tariff calculator, speaking its protocol:
 * `GET /sandbox/russian-post/v2/calculate/tariff/delivery?json&object=…&from=…&to=…&weight=…`
 * (`config.delivery.russianPost.url` points at `/sandbox/russian-post` in test mode).
 *
 * - Objects: 27030 standard parcel and 47030 first class in Russia, 4031 ordinary international
 *   parcel (`country-to`, `isavia`). Anything else is refused like an unknown parameter value.
 * - Postcodes: six digits whose first three belong to a region in `RUSSIAN_POSTCODE_REGIONS`;
 *   000000 and 999999, say, are refused with code 1321 "Индекс места назначения … не существует."
 * - Prices (kopecks, VAT 20 % included in `paynds`) grow with weight and with the distance between
 *   the tariff belts of the two regions: about 250–600 ₽ at home, 1,200–4,000 ₽ abroad by country
 *   group. Domestic answers carry `delivery: { min, max, deadline }`; international ones do not
 *   (whether the real one does is UNCONFIRMED, so the client must cope with both).
 * - `pack` (the box, ADR 0057): 10 and 20 (boxes S and M) cost nothing more, 30 (L) 10 % and 40 (XL)
 *   25 % more; another code is refused as a wrong value. The codes are the shop's setting
 *   (`RUSSIAN_POST_PACKS`): the real calculator's list is UNCONFIRMED.
 * - Refusals: `{"errors":[{"msg","code","type"}]}` with HTTP 200; the `code` only with `errorcode=1`.
 *   Codes 1321 (unknown postcode) and 1301 (wrong parameter value) are the real ones; 1101 (missing
 *   parameter), 1203 (weight over the limit) and 1320 (unknown sender postcode) are UNCONFIRMED.
 */

export interface PostcodeRegion {
  /** First three digits, inclusive range. */
  from: number;
  to: number;
  name: string;
  /** Tariff belt 1 (centre) … 5 (Far East); distance between belts drives prices and days. */
  belt: 1 | 2 | 3 | 4 | 5;
}

/** Russian postcode regions by their first three digits (a representative part of the real table). */
export const RUSSIAN_POSTCODE_REGIONS: readonly PostcodeRegion[] = [
  { from: 101, to: 129, name: 'Москва', belt: 1 },
  { from: 140, to: 144, name: 'Московская область', belt: 1 },
  { from: 150, to: 152, name: 'Ярославская область', belt: 1 },
  { from: 160, to: 162, name: 'Вологодская область', belt: 2 },
  { from: 163, to: 165, name: 'Архангельская область', belt: 3 },
  { from: 170, to: 172, name: 'Тверская область', belt: 1 },
  { from: 180, to: 182, name: 'Псковская область', belt: 2 },
  { from: 183, to: 184, name: 'Мурманская область', belt: 3 },
  { from: 185, to: 186, name: 'Республика Карелия', belt: 2 },
  { from: 187, to: 188, name: 'Ленинградская область', belt: 1 },
  { from: 190, to: 199, name: 'Санкт-Петербург', belt: 1 },
  { from: 236, to: 238, name: 'Калининградская область', belt: 2 },
  { from: 300, to: 301, name: 'Тульская область', belt: 1 },
  { from: 344, to: 347, name: 'Ростовская область', belt: 2 },
  { from: 350, to: 354, name: 'Краснодарский край', belt: 2 },
  { from: 355, to: 357, name: 'Ставропольский край', belt: 2 },
  { from: 394, to: 397, name: 'Воронежская область', belt: 1 },
  { from: 400, to: 404, name: 'Волгоградская область', belt: 2 },
  { from: 420, to: 423, name: 'Республика Татарстан', belt: 2 },
  { from: 443, to: 446, name: 'Самарская область', belt: 2 },
  { from: 450, to: 453, name: 'Республика Башкортостан', belt: 3 },
  { from: 460, to: 462, name: 'Оренбургская область', belt: 3 },
  { from: 603, to: 607, name: 'Нижегородская область', belt: 1 },
  { from: 614, to: 619, name: 'Пермский край', belt: 3 },
  { from: 620, to: 624, name: 'Свердловская область', belt: 3 },
  { from: 625, to: 627, name: 'Тюменская область', belt: 3 },
  { from: 630, to: 633, name: 'Новосибирская область', belt: 4 },
  { from: 644, to: 646, name: 'Омская область', belt: 4 },
  { from: 650, to: 654, name: 'Кемеровская область', belt: 4 },
  { from: 656, to: 659, name: 'Алтайский край', belt: 4 },
  { from: 660, to: 663, name: 'Красноярский край', belt: 4 },
  { from: 664, to: 666, name: 'Иркутская область', belt: 5 },
  { from: 670, to: 671, name: 'Республика Бурятия', belt: 5 },
  { from: 677, to: 678, name: 'Республика Саха (Якутия)', belt: 5 },
  { from: 680, to: 682, name: 'Хабаровский край', belt: 5 },
  { from: 683, to: 684, name: 'Камчатский край', belt: 5 },
  { from: 690, to: 692, name: 'Приморский край', belt: 5 },
  { from: 693, to: 694, name: 'Сахалинская область', belt: 5 },
];

/** The region of a six-digit postcode, or undefined when it is malformed or belongs to none. */
export function russianRegionOf(zip: string): PostcodeRegion | undefined {
  if (!/^\d{6}$/.test(zip)) return undefined;
  const prefix = Number(zip.slice(0, 3));
  return RUSSIAN_POSTCODE_REGIONS.find((region) => prefix >= region.from && prefix <= region.to);
}

/** ISO 3166-1 numeric codes by Russian Post's international price group. */
const NEIGHBOURS = new Set([31, 51, 112, 268, 398, 417, 496, 498, 762, 795, 860]);
const EUROPE = new Set([
  8, 20, 40, 56, 70, 100, 191, 196, 203, 208, 233, 246, 250, 276, 300, 348, 352, 372, 380, 428, 438, 440, 442,
  470, 492, 499, 528, 578, 616, 620, 642, 674, 688, 703, 705, 724, 752, 756, 792, 807, 826,
]);
/** Every ISO 3166-1 numeric code in use is accepted as a destination; a few reserved ones are not. */
const NOT_A_COUNTRY = new Set([0, 643, 999]);

export type RussianPostSimulatorMode =
  /** Answers as described above. */
  | 'normal'
  /** HTTP 503 with an HTML page, as a proxy in front of a down service. */
  | 'down'
  /** Drops the connection without an answer. */
  | 'reset';

export interface RussianPostSimulator {
  plugin: (app: FastifyInstance) => Promise<void>;
  setMode(mode: RussianPostSimulatorMode): void;
  /** The query of every calculation request received (in any mode), oldest first. */
  requests(): Array<Record<string, string>>;
  clearRequests(): void;
}

export const RUSSIAN_POST_SIMULATOR_PATH = '/sandbox/russian-post/v2/calculate/tariff/delivery';

const OBJECTS = {
  27030: { name: 'Посылка стандарт', mailtype: 27, maxWeight: 20_000, international: false },
  47030: { name: 'Посылка 1 класса', mailtype: 47, maxWeight: 2_500, international: false },
  4031: { name: 'Посылка международная обыкновенная', mailtype: 4, maxWeight: 20_000, international: true },
} as const;

interface CalculatorError {
  msg: string;
  code: number;
}

class Refused extends Error {
  constructor(readonly errors: CalculatorError[]) {
    super(errors.map((error) => error.msg).join('; '));
  }
}

const yyyymmdd = (date: Date) => date.toISOString().slice(0, 10).replaceAll('-', '');

function requireParameter(query: Record<string, string>, name: string, caption: string): string {
  const value = query[name];
  if (value === undefined || value === '') {
    throw new Refused([{ msg: `Не задан обязательный параметр "${caption}" (${name}).`, code: 1101 }]);
  }
  return value;
}

function wrongValue(caption: string, name: string, value: string): Refused {
  return new Refused([
    {
      msg: `Неверное значение параметра "${caption}" (${name}). значение "${value}" не является параметром почтового объекта.`,
      code: 1301,
    },
  ]);
}

function postcode(query: Record<string, string>, name: 'from' | 'to') {
  const caption = name === 'from' ? 'Индекс места отправления' : 'Индекс места назначения';
  const value = requireParameter(query, name, caption);
  if (!/^\d{6}$/.test(value)) throw wrongValue(caption, name, value);
  const region = russianRegionOf(value);
  if (!region)
    throw new Refused([{ msg: `${caption} ${value} не существует.`, code: name === 'to' ? 1321 : 1320 }]);
  return { value: Number(value), region };
}

/** What a bigger box adds to the price, by `pack` code. */
const PACK_MARKUP: Record<string, number> = { '10': 1, '20': 1, '30': 1.1, '40': 1.25 };

/** Prices in kopecks with VAT; `days` for domestic parcels only. */
function calculate(query: Record<string, string>, now: Date) {
  const markup = query.pack === undefined ? 1 : PACK_MARKUP[query.pack];
  if (markup === undefined) throw wrongValue('Упаковка', 'pack', query.pack ?? '');
  const objectText = requireParameter(query, 'object', 'Объект');
  const objectCode = Number(objectText) as keyof typeof OBJECTS;
  const object = OBJECTS[objectCode];
  if (!object) throw wrongValue('Объект', 'object', objectText);
  const weightText = requireParameter(query, 'weight', 'Вес');
  const weight = Number(weightText);
  if (!/^\d+$/.test(weightText) || weight <= 0) throw wrongValue('Вес', 'weight', weightText);
  if (weight > object.maxWeight) {
    throw new Refused([
      { msg: `Превышен максимально допустимый вес отправления: ${object.maxWeight} г.`, code: 1203 },
    ]);
  }
  const steps = Math.ceil(weight / 500);
  const from = postcode(query, 'from');

  if (object.international) {
    const countryText = requireParameter(query, 'country-to', 'Страна назначения');
    const country = Number(countryText);
    if (!/^\d{1,3}$/.test(countryText) || NOT_A_COUNTRY.has(country)) {
      throw wrongValue('Страна назначения', 'country-to', countryText);
    }
    const [base, perStep] = NEIGHBOURS.has(country)
      ? [1_150, 110]
      : EUROPE.has(country)
        ? [1_450, 150]
        : [1_850, 200];
    const byAir = query.isavia !== '0';
    const roubles = Math.round((base + perStep * steps) * (byAir ? 1 : 0.85) * markup);
    return {
      object: objectCode,
      name: object.name,
      mailtype: object.mailtype,
      weight,
      route: { from: from.value, 'country-to': country },
      paynds: roubles * 100,
      days: null,
      now,
    };
  }

  const to = postcode(query, 'to');
  const distance = Math.abs(to.region.belt - from.region.belt) + (to.region === from.region ? 0 : 1);
  const firstClass = objectCode === 47030;
  const roubles = Math.round((240 + 50 * distance + 30 * steps) * (firstClass ? 1.6 : 1) * markup);
  const days = firstClass
    ? { min: 1 + Math.ceil(distance / 2), max: 2 + distance }
    : { min: 1 + distance, max: 3 + 2 * distance };
  return {
    object: objectCode,
    name: object.name,
    mailtype: object.mailtype,
    weight,
    route: { from: from.value, to: to.value },
    paynds: roubles * 100,
    days,
    now,
  };
}

function answer(result: ReturnType<typeof calculate>) {
  const pay = Math.round(result.paynds / 1.2);
  const nds = result.paynds - pay;
  const deadline = result.days
    ? `${yyyymmdd(new Date(result.now.getTime() + result.days.max * 86_400_000))}T200000`
    : undefined;
  return {
    version: '2.16.1.604',
    caption: 'Расчёт стоимости и сроков доставки',
    id: result.object,
    name: result.name,
    mailtype: result.mailtype,
    mailctg: 0,
    directctg: 1,
    weight: result.weight,
    ...result.route,
    date: Number(yyyymmdd(result.now)),
    items: [
      {
        id: `${result.object}01`,
        name: 'Пересылка',
        serviceon: [],
        tariff: { val: pay, valnds: result.paynds, valmark: 0 },
      },
    ],
    pay,
    paynds: result.paynds,
    paymark: 0,
    ground: { val: pay, valnds: result.paynds },
    nds,
    ndsrate: 20,
    ...(result.days ? { delivery: { min: result.days.min, max: result.days.max, deadline } } : {}),
  };
}

export function createRussianPostSimulator(options: { clock?: () => Date } = {}): RussianPostSimulator {
  const clock = options.clock ?? (() => new Date());
  let mode: RussianPostSimulatorMode = 'normal';
  const received: Array<Record<string, string>> = [];

  async function handle(request: FastifyRequest, reply: FastifyReply) {
    const query = Object.fromEntries(
      Object.entries(request.query as Record<string, unknown>).map(([name, value]) => [
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
        .send('<html><body><h1>503 Service Temporarily Unavailable</h1></body></html>');
    }
    try {
      return reply
        .type('application/json; charset=utf-8')
        .send(JSON.stringify(answer(calculate(query, clock()))));
    } catch (error) {
      if (!(error instanceof Refused)) throw error;
      const withCodes = query.errorcode === '1';
      return reply.type('application/json; charset=utf-8').send(
        JSON.stringify({
          version: '2.16.1.604',
          caption: 'Ошибка расчёта',
          errors: error.errors.map((entry) =>
            withCodes ? { msg: entry.msg, code: entry.code, type: 1 } : { msg: entry.msg, type: 1 },
          ),
        }),
      );
    }
  }

  async function plugin(app: FastifyInstance): Promise<void> {
    app.get(RUSSIAN_POST_SIMULATOR_PATH, handle);
  }

  return {
    plugin,
    setMode(next) {
      mode = next;
    },
    requests: () => received.map((query) => ({ ...query })),
    clearRequests() {
      received.length = 0;
    },
  };
}

/** The simulator in normal mode, as the shop mounts it in test mode. */
export async function russianPostSimulator(app: FastifyInstance): Promise<void> {
  await createRussianPostSimulator().plugin(app);
}
