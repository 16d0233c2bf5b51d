import type { FastifyInstance } from 'fastify';

/**
 * A local stand-in for the two exchange-rate sources, speaking their formats:
 *
 * - `GET /sandbox/rates/moex` — MOEX ISS JSON for USD000UTSTOM on CETS (`iss.meta=off`,
 *   `marketdata` and `securities` blocks, full column lists). LAST and MARKETPRICE are null and
 *   only WAPRICE and the securities' PREVPRICE carry a price. Like the real one since exchange
 *   trading in USD stopped, it answers by default as of 13 June 2024 (`SYSTIME`, `SETTLEDATE`,
 *   `PREVDATE`); `setDates({ moex: null })` makes it trade today.
 * - `GET /sandbox/rates/cbr` — the Central Bank's XML_daily.asp, windows-1251 encoded, comma
 *   decimals, with currencies quoted per 10 and per 100 units next to USD, `ValCurs/@Date` today
 *   (Moscow) by default; `setDates({ cbr: '2026-11-20' })` makes it answer an older document.
 *
 * Register it without a prefix: the paths are the ones `config.rates` points at in test mode.
 */

export type ExchangeRateSimulatorMode =
  /** Both sources answer. */
  | 'normal'
  /** MOEX answers HTTP 503; the CBR answers. */
  | 'moex-down'
  /** The CBR answers HTTP 503; MOEX answers. */
  | 'cbr-down'
  /** MOEX answers, but every price column is null; the CBR answers. */
  | 'moex-empty'
  /** Both answer HTTP 503. */
  | 'all-down';

export interface ExchangeRateSimulator {
  plugin: (app: FastifyInstance) => Promise<void>;
  setMode(mode: ExchangeRateSimulatorMode): void;
  /** Roubles per dollar: MOEX's WAPRICE and the CBR's USD Value. PREVPRICE is kept 0.35 above it. */
  setRate(rate: number): void;
  /**
   * The day each source answers for (`YYYY-MM-DD`); null is today in Moscow by the simulator's
   * clock. A date left out keeps its setting.
   */
  setDates(dates: { cbr?: string | null; moex?: string | null }): void;
}

/** The last day of exchange trading in USD/RUB on MOEX: the real ISS answers with this date since. */
export const MOEX_LAST_USD_TRADE_DATE = '2024-06-13';

export const DEFAULT_SIMULATED_USD_RATE = 92.5012;
/** PREVPRICE = rate + this, so a test can tell which MOEX column was read. */
export const SIMULATED_PREVPRICE_OFFSET = 0.35;

/** Other currencies on the CBR page, in roubles per `nominal` units (fixed; only USD follows setRate). */
const CBR_OTHER_CURRENCIES = [
  { id: 'R01010', numCode: '036', charCode: 'AUD', nominal: 1, name: 'Австралийский доллар', value: 60.1023 },
  {
    id: 'R01035',
    numCode: '826',
    charCode: 'GBP',
    nominal: 1,
    name: 'Фунт стерлингов Соединенного королевства',
    value: 117.4411,
  },
  { id: 'R01239', numCode: '978', charCode: 'EUR', nominal: 1, name: 'Евро', value: 100.0125 },
  {
    id: 'R01335',
    numCode: '398',
    charCode: 'KZT',
    nominal: 100,
    name: 'Казахстанских тенге',
    value: 18.4632,
  },
  { id: 'R01375', numCode: '156', charCode: 'CNY', nominal: 1, name: 'Юань', value: 12.7791 },
  { id: 'R01820', numCode: '392', charCode: 'JPY', nominal: 100, name: 'Японских иен', value: 61.2345 },
  { id: 'R01565', numCode: '985', charCode: 'PLN', nominal: 1, name: 'Злотый', value: 23.4019 },
  { id: 'R01770', numCode: '752', charCode: 'SEK', nominal: 10, name: 'Шведских крон', value: 88.6604 },
] as const;

const MARKETDATA_COLUMNS = [
  'SECID',
  'BOARDID',
  'BID',
  'BIDDEPTH',
  'OFFER',
  'OFFERDEPTH',
  'SPREAD',
  'BIDDEPTHT',
  'OFFERDEPTHT',
  'OPEN',
  'LOW',
  'HIGH',
  'LAST',
  'LASTCHANGE',
  'LASTCHANGEPRCNT',
  'QTY',
  'VALUE',
  'WAPRICE',
  'WAPTOPREVWAPRICE',
  'WAPTOPREVWAPRICEPRCNT',
  'CLOSEPRICE',
  'NUMTRADES',
  'VOLTODAY',
  'VALTODAY',
  'VALTODAY_USD',
  'UPDATETIME',
  'LASTTOPREVPRICE',
  'NUMBIDS',
  'NUMOFFERS',
  'CHANGE',
  'TIME',
  'HIGHBID',
  'LOWOFFER',
  'PRICEMINUSPREVWAPRICE',
  'LASTBID',
  'LASTOFFER',
  'LCURRENTPRICE',
  'LCLOSEPRICE',
  'MARKETPRICE',
  'MARKETPRICETODAY',
  'TRADINGSTATUS',
  'SEQNUM',
  'SYSTIME',
  'VALTODAY_RUR',
] as const;

const SECURITIES_COLUMNS = [
  'SECID',
  'BOARDID',
  'SHORTNAME',
  'LOTSIZE',
  'SETTLEDATE',
  'DECIMALS',
  'FACEVALUE',
  'MARKETCODE',
  'MINSTEP',
  'PREVDATE',
  'SECNAME',
  'REMARKS',
  'STATUS',
  'FACEUNIT',
  'PREVPRICE',
  'PREVWAPRICE',
  'CURRENCYID',
  'LATNAME',
  'LOTDIVIDER',
] as const;

const round4 = (value: number) => Math.round(value * 10_000) / 10_000;

/** Moscow wall-clock parts (UTC+3, no daylight saving since 2014). */
function moscow(date: Date) {
  const shifted = new Date(date.getTime() + 3 * 3_600_000).toISOString();
  return { date: shifted.slice(0, 10), time: shifted.slice(11, 19) };
}

function moexBody(rate: number | null, now: Date) {
  const { date, time } = moscow(now);
  const previousDay = moscow(new Date(now.getTime() - 86_400_000)).date;
  const market: Record<(typeof MARKETDATA_COLUMNS)[number], string | number | null> = {
    SECID: 'USD000UTSTOM',
    BOARDID: 'CETS',
    BID: null,
    BIDDEPTH: null,
    OFFER: null,
    OFFERDEPTH: null,
    SPREAD: 0,
    BIDDEPTHT: 0,
    OFFERDEPTHT: 0,
    OPEN: null,
    LOW: null,
    HIGH: null,
    LAST: null,
    LASTCHANGE: 0,
    LASTCHANGEPRCNT: 0,
    QTY: 0,
    VALUE: 0,
    WAPRICE: rate,
    WAPTOPREVWAPRICE: 0,
    WAPTOPREVWAPRICEPRCNT: 0,
    CLOSEPRICE: null,
    NUMTRADES: 0,
    VOLTODAY: 0,
    VALTODAY: 0,
    VALTODAY_USD: 0,
    UPDATETIME: time,
    LASTTOPREVPRICE: 0,
    NUMBIDS: null,
    NUMOFFERS: null,
    CHANGE: 0,
    TIME: null,
    HIGHBID: null,
    LOWOFFER: null,
    PRICEMINUSPREVWAPRICE: null,
    LASTBID: null,
    LASTOFFER: null,
    LCURRENTPRICE: null,
    LCLOSEPRICE: null,
    MARKETPRICE: null,
    MARKETPRICETODAY: null,
    TRADINGSTATUS: 'N',
    SEQNUM: 20_260_000_000_000 + now.getUTCDate(),
    SYSTIME: `${date} ${time}`,
    VALTODAY_RUR: 0,
  };
  const security: Record<(typeof SECURITIES_COLUMNS)[number], string | number | null> = {
    SECID: 'USD000UTSTOM',
    BOARDID: 'CETS',
    SHORTNAME: 'USDRUB_TOM',
    LOTSIZE: 1000,
    SETTLEDATE: date,
    DECIMALS: 4,
    FACEVALUE: 1,
    MARKETCODE: 'FNDT',
    MINSTEP: 0.0025,
    PREVDATE: previousDay,
    SECNAME: 'USDRUB_TOM - USD/РУБ',
    REMARKS: null,
    STATUS: 'A',
    FACEUNIT: 'RUB',
    PREVPRICE: rate === null ? null : round4(rate + SIMULATED_PREVPRICE_OFFSET),
    PREVWAPRICE: rate === null ? null : round4(rate + SIMULATED_PREVPRICE_OFFSET),
    CURRENCYID: 'USD',
    LATNAME: 'USDRUB_TOM',
    LOTDIVIDER: 1,
  };
  return {
    securities: {
      columns: SECURITIES_COLUMNS,
      data: [SECURITIES_COLUMNS.map((column) => security[column])],
    },
    marketdata: {
      columns: MARKETDATA_COLUMNS,
      data: [MARKETDATA_COLUMNS.map((column) => market[column])],
    },
  };
}

const commaDecimal = (value: number) => value.toFixed(4).replace('.', ',');

function cbrXml(usdRate: number, now: Date): string {
  const [year, month, day] = moscow(now).date.split('-');
  const entries = [
    ...CBR_OTHER_CURRENCIES.slice(0, 4),
    { id: 'R01235', numCode: '840', charCode: 'USD', nominal: 1, name: 'Доллар США', value: usdRate },
    ...CBR_OTHER_CURRENCIES.slice(4),
  ];
  const valutes = entries
    .map(
      (entry) =>
        `<Valute ID="${entry.id}"><NumCode>${entry.numCode}</NumCode><CharCode>${entry.charCode}</CharCode>` +
        `<Nominal>${entry.nominal}</Nominal><Name>${entry.name}</Name><Value>${commaDecimal(entry.value)}</Value>` +
        `<VunitRate>${commaDecimal(entry.value / entry.nominal)}</VunitRate></Valute>`,
    )
    .join('');
  return `<?xml version="1.0" encoding="windows-1251"?><ValCurs Date="${day}.${month}.${year}" name="Foreign Currency Market">${valutes}</ValCurs>`;
}

/** Unicode → windows-1251 byte, built from the platform's own decoder so the table cannot drift. */
const WINDOWS_1251 = (() => {
  const table = new Map<string, number>();
  const decoder = new TextDecoder('windows-1251');
  for (let byte = 0x80; byte <= 0xff; byte++) {
    const character = decoder.decode(Uint8Array.of(byte));
    if (character !== '\uFFFD') table.set(character, byte);
  }
  return table;
})();

export function encodeWindows1251(text: string): Buffer {
  const bytes = Buffer.alloc(text.length);
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    const byte = code < 0x80 ? code : WINDOWS_1251.get(text[index] as string);
    if (byte === undefined) throw new RangeError(`"${text[index]}" has no windows-1251 encoding`);
    bytes[index] = byte;
  }
  return bytes;
}

export function createExchangeRateSimulator(
  options: { rate?: number; clock?: () => Date } = {},
): ExchangeRateSimulator {
  const clock = options.clock ?? (() => new Date());
  let mode: ExchangeRateSimulatorMode = 'normal';
  let rate = options.rate ?? DEFAULT_SIMULATED_USD_RATE;
  let dates: { cbr: string | null; moex: string | null } = { cbr: null, moex: MOEX_LAST_USD_TRADE_DATE };
  /** The simulator's clock, or the end of a trading day (18:59:59 Moscow) of a date set. */
  const answerTime = (date: string | null) => (date === null ? clock() : new Date(`${date}T15:59:59Z`));

  async function plugin(app: FastifyInstance): Promise<void> {
    app.get('/sandbox/rates/moex', async (_request, reply) => {
      if (mode === 'moex-down' || mode === 'all-down') {
        return reply
          .code(503)
          .type('text/html; charset=utf-8')
          .send('<html><body>Service Unavailable</body></html>');
      }
      return reply
        .type('application/json; charset=utf-8')
        .send(JSON.stringify(moexBody(mode === 'moex-empty' ? null : rate, answerTime(dates.moex))));
    });

    app.get('/sandbox/rates/cbr', async (_request, reply) => {
      if (mode === 'all-down' || mode === 'cbr-down') {
        return reply
          .code(503)
          .type('text/html; charset=utf-8')
          .send('<html><body>Service Unavailable</body></html>');
      }
      return reply
        .type('application/xml; charset=windows-1251')
        .send(encodeWindows1251(cbrXml(rate, answerTime(dates.cbr))));
    });
  }

  return {
    plugin,
    setMode(next) {
      mode = next;
    },
    setRate(next) {
      if (!Number.isFinite(next) || next <= 0) throw new RangeError(`A rate must be positive, got ${next}`);
      rate = round4(next);
    },
    setDates(next) {
      dates = { ...dates, ...next };
    },
  };
}

/** The simulator with its default state (normal mode, DEFAULT_SIMULATED_USD_RATE), as the shop mounts it in test mode. */
export async function exchangeRateSimulator(app: FastifyInstance): Promise<void> {
  await createExchangeRateSimulator().plugin(app);
}
