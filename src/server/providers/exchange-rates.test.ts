import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  decodeXml,
  fetchCbrUsdRate,
  fetchMoexUsdRate,
  parseCbrDailyRate,
  parseMoexUsdRate,
} from './exchange-rates.ts';
import { createExchangeRateSimulator, encodeWindows1251 } from './simulators/exchange-rates.ts';

/*
 * MOEX ISS: the request and the block/column layout follow the ISS reference
 * (https://iss.moex.com/iss/reference/, "engines/[engine]/markets/[market]/boards/[board]/securities/[security]")
 * and the ISS developer manual (https://fs.moex.com/files/8888): every block is `{ columns, data }`,
 * `iss.meta=off` drops the metadata. A published example answer for USD000UTSTOM on CETS could NOT be
 * found; the column names used here (TRADEDATE, SYSTIME, UPDATETIME, MARKETPRICE, LAST, WAPRICE;
 * PREVPRICE, PREVDATE in `securities`) are the ones the reference lists for these blocks.
 */
const moex = (marketdata: Record<string, unknown>, securities: Record<string, unknown> = {}) => ({
  securities: { columns: Object.keys(securities), data: [Object.values(securities)] },
  marketdata: { columns: Object.keys(marketdata), data: [Object.values(marketdata)] },
});

const TRADED = { SECID: 'USD000UTSTOM', SYSTIME: '2026-11-21 18:59:59', UPDATETIME: '18:59:59' };

describe('MOEX ISS answer', () => {
  it('prefers MARKETPRICE, then LAST, then WAPRICE, dated by the trade day; then the previous day price', () => {
    const all = { ...TRADED, LAST: 91.1, WAPRICE: 91.2, MARKETPRICE: 91.3 };
    const previous = { PREVPRICE: 90, PREVDATE: '2026-11-20' };
    const on = (rate: number, date = '2026-11-21') => ({ rate, date });
    expect(parseMoexUsdRate(moex(all, previous))).toEqual(on(91.3));
    expect(parseMoexUsdRate(moex({ ...all, MARKETPRICE: null }, previous))).toEqual(on(91.1));
    expect(parseMoexUsdRate(moex({ ...all, MARKETPRICE: null, LAST: null }, previous))).toEqual(on(91.2));
    expect(
      parseMoexUsdRate(moex({ ...TRADED, LAST: null, WAPRICE: null, MARKETPRICE: null }, previous)),
    ).toEqual(on(90, '2026-11-20'));
  });

  it('takes TRADEDATE over the date of SYSTIME, and gives no rate without any date', () => {
    expect(parseMoexUsdRate(moex({ ...TRADED, TRADEDATE: '2024-06-13', WAPRICE: 88 }))).toEqual({
      rate: 88,
      date: '2024-06-13',
    });
    expect(parseMoexUsdRate(moex({ SECID: 'USD000UTSTOM', UPDATETIME: '18:59:59', WAPRICE: 88 }))).toBeNull();
    expect(parseMoexUsdRate(moex({ ...TRADED, WAPRICE: null }, { PREVPRICE: 87 }))).toBeNull();
  });

  it('reads columns by name whatever their order', () => {
    const body = {
      marketdata: {
        columns: ['WAPRICE', 'BOARDID', 'MARKETPRICE', 'SYSTIME', 'SECID', 'LAST'],
        data: [[88.8, 'CETS', null, '2024-06-13 23:50:00', 'USD000UTSTOM', null]],
      },
      securities: {
        columns: ['PREVPRICE', 'SECID', 'PREVDATE'],
        data: [[87.7, 'USD000UTSTOM', '2024-06-11']],
      },
    };
    expect(parseMoexUsdRate(body)).toEqual({ rate: 88.8, date: '2024-06-13' });
  });

  it('gives null when no price is present anywhere', () => {
    expect(
      parseMoexUsdRate(
        moex({ ...TRADED, LAST: null, WAPRICE: 0, MARKETPRICE: null }, { PREVPRICE: null, PREVDATE: null }),
      ),
    ).toBeNull();
    expect(
      parseMoexUsdRate({
        marketdata: { columns: ['LAST'], data: [] },
        securities: { columns: [], data: [] },
      }),
    ).toBeNull();
    expect(parseMoexUsdRate({})).toBeNull();
  });

  it('refuses an answer that is not an ISS object', () => {
    expect(() => parseMoexUsdRate([1, 2])).toThrow(/not an ISS JSON object/);
    expect(() => parseMoexUsdRate(null)).toThrow(/not an ISS JSON object/);
  });
});

/*
 * The Central Bank's XML_daily.asp as documented at https://www.cbr.ru/development/SXML/ ("Example 1":
 * `XML_daily.asp?date_req=dd/mm/yyyy`; without `date_req` the document of the latest registered date):
 * a windows-1251 `ValCurs` with its `Date` (dd.mm.yyyy) and `name`, one `Valute ID` per currency with
 * NumCode, CharCode, Nominal, Name, Value (comma decimal; VunitRate, the rate per one unit, since
 * 2023). The documented example document itself (02.03.2002) could not be fetched here: this one
 * follows its structure with today's currencies.
 */
const CBR_FIXTURE = `<?xml version="1.0" encoding="windows-1251"?><ValCurs Date="21.11.2026" name="Foreign Currency Market"><Valute ID="R01235"><NumCode>840</NumCode><CharCode>USD</CharCode><Nominal>1</Nominal><Name>Доллар США</Name><Value>92,5012</Value><VunitRate>92,5012</VunitRate></Valute><Valute ID="R01239"><NumCode>978</NumCode><CharCode>EUR</CharCode><Nominal>1</Nominal><Name>Евро</Name><Value>100,0125</Value><VunitRate>100,0125</VunitRate></Valute><Valute ID="R01820"><NumCode>392</NumCode><CharCode>JPY</CharCode><Nominal>100</Nominal><Name>Японских иен</Name><Value>61,2345</Value><VunitRate>0,612345</VunitRate></Valute></ValCurs>`;

describe('CBR XML_daily answer (https://www.cbr.ru/development/SXML/)', () => {
  it('reads the USD value with a comma decimal, for the day ValCurs/@Date names', () => {
    expect(parseCbrDailyRate(CBR_FIXTURE)).toEqual({ rate: 92.5012, date: '2026-11-21' });
  });

  it('divides the value by the nominal', () => {
    expect(parseCbrDailyRate(CBR_FIXTURE, 'JPY')?.rate).toBeCloseTo(0.612345, 6);
    const perTen = CBR_FIXTURE.replace(
      '<Nominal>1</Nominal><Name>Доллар',
      '<Nominal>10</Nominal><Name>Доллар',
    );
    expect(parseCbrDailyRate(perTen)?.rate).toBeCloseTo(9.25012, 6);
  });

  it('refuses a document without a calendar date', () => {
    expect(() => parseCbrDailyRate(CBR_FIXTURE.replace('Date="21.11.2026"', 'Date="31.02.2026"'))).toThrow(
      /ValCurs\/@Date/,
    );
    expect(() => parseCbrDailyRate(CBR_FIXTURE.replace(' Date="21.11.2026"', ''))).toThrow(/ValCurs\/@Date/);
  });

  it('is answered in the same structure by the simulator', async () => {
    const app = Fastify();
    await app.register(createExchangeRateSimulator({ clock: () => new Date('2026-11-21T09:00:00Z') }).plugin);
    const response = await app.inject('/sandbox/rates/cbr');
    await app.close();
    const xml = decodeXml(new Uint8Array(response.rawPayload), String(response.headers['content-type']));
    const shape = (document: string) =>
      [
        ...new Set(
          [...document.matchAll(/<(\w+)((?:\s+\w+="[^"]*")*)>/g)].map(
            (tag) => `${tag[1]}${(tag[2] ?? '').replace(/="[^"]*"/g, '')}`,
          ),
        ),
      ].sort();
    expect(shape(xml)).toEqual(shape(CBR_FIXTURE));
    expect(parseCbrDailyRate(xml)).toEqual({ rate: 92.5012, date: '2026-11-21' });
  });

  it('gives null when USD is not quoted', () => {
    expect(parseCbrDailyRate(CBR_FIXTURE, 'XAU')).toBeNull();
  });

  it('refuses a broken document', () => {
    expect(() => parseCbrDailyRate('<ValCurs><Valute></ValCurs>')).toThrow(/not well-formed/);
    expect(() => parseCbrDailyRate('<html><body>maintenance</body></html>')).toThrow(/no ValCurs\/Valute/);
  });

  it('decodes windows-1251 named in the XML declaration or in the Content-Type', () => {
    const bytes = new Uint8Array(encodeWindows1251(CBR_FIXTURE));
    expect(decodeXml(bytes)).toContain('<Name>Доллар США</Name>');
    const withoutDeclaration = new Uint8Array(encodeWindows1251(CBR_FIXTURE.replace(/^<\?xml[^>]*>/, '')));
    expect(decodeXml(withoutDeclaration, 'text/xml; charset=windows-1251')).toContain(
      '<Name>Японских иен</Name>',
    );
    expect(decodeXml(new TextEncoder().encode('<a>Ёж</a>'))).toBe('<a>Ёж</a>');
  });
});

describe('fetching the sources', () => {
  let server: Server;
  let base: string;

  beforeAll(async () => {
    server = createServer((request, response) => {
      if (request.url === '/slow') return; // never answers
      if (request.url === '/error') {
        response.writeHead(502, { 'content-type': 'text/html' }).end('<h1>Bad Gateway</h1>');
        return;
      }
      if (request.url === '/html') {
        response.writeHead(200, { 'content-type': 'text/html' }).end('<html>maintenance</html>');
        return;
      }
      if (request.url === '/cbr') {
        response.writeHead(200, { 'content-type': 'application/xml' }).end(encodeWindows1251(CBR_FIXTURE));
        return;
      }
      response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('throws on an HTTP error', async () => {
    await expect(fetchMoexUsdRate(`${base}/error`)).rejects.toThrow(/HTTP 502/);
    await expect(fetchCbrUsdRate(`${base}/error`)).rejects.toThrow(/HTTP 502/);
  });

  it('throws when MOEX answers something other than JSON', async () => {
    await expect(fetchMoexUsdRate(`${base}/html`)).rejects.toThrow(/not JSON/);
  });

  it('gives up after the timeout', async () => {
    const started = Date.now();
    await expect(fetchMoexUsdRate(`${base}/slow`, fetch, 150)).rejects.toThrow(/timeout|aborted/i);
    await expect(fetchCbrUsdRate(`${base}/slow`, fetch, 150)).rejects.toThrow(/timeout|aborted/i);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('reads a windows-1251 CBR page whose charset is only in the XML declaration', async () => {
    expect(await fetchCbrUsdRate(`${base}/cbr`)).toEqual({ rate: 92.5012, date: '2026-11-21' });
  });
});
