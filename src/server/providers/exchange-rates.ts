import { XMLParser, XMLValidator } from 'fast-xml-parser';

/**
 * Clients for the two USD/RUB sources (see shared/providers.md, "Exchange rate USD/RUB").
 * Both return roubles per one US dollar with the day the source gives it for, or null when the
 * source answered but had no usable dated price; they throw when the source cannot be read at all
 * (HTTP error, unreadable body, timeout). Whether a date is recent enough is the caller's rule.
 */

export type FetchImpl = typeof fetch;

/** A rate and the day it is for (`YYYY-MM-DD`). */
export interface DatedRate {
  rate: number;
  date: string;
}

export const DEFAULT_TIMEOUT_MS = 5_000;

/** MOEX fields in the order of preference; the last one comes from the `securities` block. */
const MARKETDATA_PRICES = ['MARKETPRICE', 'LAST', 'WAPRICE'] as const;
const SECURITIES_PRICE = 'PREVPRICE';

async function get(url: string, fetchImpl: FetchImpl, timeoutMs: number, accept: string): Promise<Response> {
  const response = await fetchImpl(url, { signal: AbortSignal.timeout(timeoutMs), headers: { accept } });
  if (!response.ok) {
    // Free the connection; the body of an error page is of no use.
    await response.body?.cancel().catch(() => {});
    throw new Error(`${new URL(url).host} answered HTTP ${response.status}`);
  }
  return response;
}

/** A price is a finite positive number; MOEX sends null (or nothing) where there were no trades. */
function asPrice(value: unknown): number | null {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof number === 'number' && Number.isFinite(number) && number > 0 ? number : null;
}

/** The first row of an ISS block as column name → value; empty when the block is absent or empty. */
function firstRow(block: unknown): Map<string, unknown> {
  const row = new Map<string, unknown>();
  if (typeof block !== 'object' || block === null) return row;
  const { columns, data } = block as { columns?: unknown; data?: unknown };
  if (!Array.isArray(columns) || !Array.isArray(data) || !Array.isArray(data[0])) return row;
  const values: unknown[] = data[0];
  columns.forEach((column, index) => {
    if (typeof column === 'string') row.set(column, values[index]);
  });
  return row;
}

/** The `YYYY-MM-DD` at the start of an ISS date or date-time (`2024-06-13`, `2024-06-13 18:59:59`). */
function issDate(value: unknown): string | null {
  return typeof value === 'string' ? (value.match(/^(\d{4}-\d{2}-\d{2})(?:[ T]|$)/)?.[1] ?? null) : null;
}

/**
 * Reads the USD/RUB price from an ISS answer by column name, with its own date: a `marketdata`
 * price (MARKETPRICE → LAST → WAPRICE) is for the trade date (`TRADEDATE`, else the date of
 * `SYSTIME`, the moment the data was last updated; `UPDATETIME` is a time of day only); the
 * `securities` block's PREVPRICE is for its `PREVDATE`. A price without a date is not used.
 */
export function parseMoexUsdRate(body: unknown): DatedRate | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new Error('MOEX answer is not an ISS JSON object');
  }
  const { marketdata, securities } = body as { marketdata?: unknown; securities?: unknown };
  const market = firstRow(marketdata);
  const tradeDate = issDate(market.get('TRADEDATE')) ?? issDate(market.get('SYSTIME'));
  for (const column of MARKETDATA_PRICES) {
    const price = asPrice(market.get(column));
    if (price !== null) return tradeDate === null ? null : { rate: price, date: tradeDate };
  }
  const security = firstRow(securities);
  const previous = asPrice(security.get(SECURITIES_PRICE));
  const previousDate = issDate(security.get('PREVDATE'));
  return previous === null || previousDate === null ? null : { rate: previous, date: previousDate };
}

export async function fetchMoexUsdRate(
  url: string,
  fetchImpl: FetchImpl = fetch,
  timeoutMs = DEFAULT_TIMEOUT_MS,
): Promise<DatedRate | null> {
  const response = await get(url, fetchImpl, timeoutMs, 'application/json');
  let body: unknown;
  try {
    body = JSON.parse(await response.text());
  } catch (error) {
    if (error instanceof SyntaxError) throw new Error(`MOEX answer is not JSON: ${error.message}`);
    throw error;
  }
  return parseMoexUsdRate(body);
}

/**
 * Decodes an XML document's bytes: the charset of the Content-Type header wins (RFC 7303), then the
 * encoding in the XML declaration, then UTF-8. The CBR serves windows-1251.
 */
export function decodeXml(bytes: Uint8Array, contentType: string | null = null): string {
  const fromHeader = contentType?.match(/charset\s*=\s*"?([\w.:-]+)"?/i)?.[1];
  // The declaration is ASCII in every encoding the CBR could use, so latin1 reads it faithfully.
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 200));
  const fromDeclaration = head.match(/^\uFEFF?<\?xml[^>]*\bencoding\s*=\s*["']([\w.:-]+)["']/)?.[1];
  const charset = fromHeader ?? fromDeclaration ?? 'utf-8';
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charset);
  } catch {
    throw new Error(`Unsupported character set "${charset}" in an XML answer`);
  }
  return decoder.decode(bytes);
}

/** "92,5012" → 92.5012; also takes a dot and ignores spaces used as thousands separators. */
function parseDecimal(text: string): number | null {
  const cleaned = text.replace(/[\s\u00A0]/g, '').replace(',', '.');
  if (!/^\d+(\.\d+)?$/.test(cleaned)) return null;
  return Number(cleaned);
}

const cbrParser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  isArray: (tagName) => tagName === 'Valute',
});

/** `ValCurs/@Date` ("21.11.2026") → "2026-11-21"; null when it is not a calendar date. */
function cbrDate(value: unknown): string | null {
  const match = typeof value === 'string' ? value.trim().match(/^(\d{2})\.(\d{2})\.(\d{4})$/) : null;
  if (!match) return null;
  const iso = `${match[3]}-${match[2]}-${match[1]}`;
  const parsed = new Date(`${iso}T00:00:00Z`);
  return Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== iso ? null : iso;
}

/**
 * Roubles per one unit of `charCode` from XML_daily.asp: `Value` (comma decimal) divided by
 * `Nominal`, for the day `ValCurs/@Date` names (the day the rate is set for, which may be tomorrow).
 */
export function parseCbrDailyRate(xml: string, charCode = 'USD'): DatedRate | null {
  const validation = XMLValidator.validate(xml);
  if (validation !== true) throw new Error(`CBR answer is not well-formed XML: ${validation.err.msg}`);
  const document = cbrParser.parse(xml) as { ValCurs?: { Valute?: unknown; '@Date'?: unknown } };
  const valutes = document.ValCurs?.Valute;
  if (!Array.isArray(valutes)) {
    throw new Error('CBR answer has no ValCurs/Valute entries');
  }
  const date = cbrDate(document.ValCurs?.['@Date']);
  if (date === null) throw new Error('CBR answer has no ValCurs/@Date in the form DD.MM.YYYY');
  for (const valute of valutes as Record<string, unknown>[]) {
    if (String(valute.CharCode ?? '').trim() !== charCode) continue;
    const value = parseDecimal(String(valute.Value ?? ''));
    const nominal = parseDecimal(String(valute.Nominal ?? '1'));
    if (value === null || nominal === null || value <= 0 || nominal <= 0) return null;
    return { rate: value / nominal, date };
  }
  return null;
}

export async function fetchCbrUsdRate(
  url: string,
  fetchImpl: FetchImpl = fetch,
  timeoutMs = DEFAULT_TIMEOUT_MS,
): Promise<DatedRate | null> {
  const response = await get(url, fetchImpl, timeoutMs, 'application/xml, text/xml');
  const bytes = new Uint8Array(await response.arrayBuffer());
  return parseCbrDailyRate(decodeXml(bytes, response.headers.get('content-type')), 'USD');
}
