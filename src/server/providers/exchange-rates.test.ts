import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  decodeXml,
  fetchCbrUsdRate,
  fetchMoexUsdRate,
  parseCbrDailyRate,
  parseMoexUsdRate,
} from './exchange-rates.ts';
import { encodeWindows1251 } from './simulators/exchange-rates.ts';

const moex = (marketdata: Record<string, unknown>, securities: Record<string, unknown> = {}) => ({
  securities: { columns: Object.keys(securities), data: [Object.values(securities)] },
  marketdata: { columns: Object.keys(marketdata), data: [Object.values(marketdata)] },
});

describe('MOEX ISS answer', () => {
  it('prefers MARKETPRICE, then LAST, then WAPRICE, then the previous day price', () => {
    const all = { SECID: 'USD000UTSTOM', LAST: 91.1, WAPRICE: 91.2, MARKETPRICE: 91.3 };
    expect(parseMoexUsdRate(moex(all, { PREVPRICE: 90 }))).toBe(91.3);
    expect(parseMoexUsdRate(moex({ ...all, MARKETPRICE: null }, { PREVPRICE: 90 }))).toBe(91.1);
    expect(parseMoexUsdRate(moex({ ...all, MARKETPRICE: null, LAST: null }, { PREVPRICE: 90 }))).toBe(91.2);
    expect(
      parseMoexUsdRate(
        moex({ SECID: 'USD000UTSTOM', LAST: null, WAPRICE: null, MARKETPRICE: null }, { PREVPRICE: 90 }),
      ),
    ).toBe(90);
  });

  it('reads columns by name whatever their order', () => {
    const body = {
      marketdata: {
        columns: ['WAPRICE', 'BOARDID', 'MARKETPRICE', 'SECID', 'LAST'],
        data: [[88.8, 'CETS', null, 'USD000UTSTOM', null]],
      },
      securities: { columns: ['PREVPRICE', 'SECID'], data: [[87.7, 'USD000UTSTOM']] },
    };
    expect(parseMoexUsdRate(body)).toBe(88.8);
  });

  it('gives null when no price is present anywhere', () => {
    expect(
      parseMoexUsdRate(
        moex({ SECID: 'USD000UTSTOM', LAST: null, WAPRICE: 0, MARKETPRICE: null }, { PREVPRICE: null }),
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

const CBR_FIXTURE = `<?xml version="1.0" encoding="windows-1251"?><ValCurs Date="21.11.2026" name="Foreign Currency Market"><Valute ID="R01235"><NumCode>840</NumCode><CharCode>USD</CharCode><Nominal>1</Nominal><Name>Доллар США</Name><Value>92,5012</Value><VunitRate>92,5012</VunitRate></Valute><Valute ID="R01239"><NumCode>978</NumCode><CharCode>EUR</CharCode><Nominal>1</Nominal><Name>Евро</Name><Value>100,0125</Value><VunitRate>100,0125</VunitRate></Valute><Valute ID="R01820"><NumCode>392</NumCode><CharCode>JPY</CharCode><Nominal>100</Nominal><Name>Японских иен</Name><Value>61,2345</Value><VunitRate>0,612345</VunitRate></Valute></ValCurs>`;

describe('CBR XML_daily answer', () => {
  it('reads the USD value with a comma decimal', () => {
    expect(parseCbrDailyRate(CBR_FIXTURE)).toBe(92.5012);
  });

  it('divides the value by the nominal', () => {
    expect(parseCbrDailyRate(CBR_FIXTURE, 'JPY')).toBeCloseTo(0.612345, 6);
    const perTen = CBR_FIXTURE.replace(
      '<Nominal>1</Nominal><Name>Доллар',
      '<Nominal>10</Nominal><Name>Доллар',
    );
    expect(parseCbrDailyRate(perTen)).toBeCloseTo(9.25012, 6);
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
    expect(await fetchCbrUsdRate(`${base}/cbr`)).toBe(92.5012);
  });
});
