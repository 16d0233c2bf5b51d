import { XMLParser } from 'fast-xml-parser';
import { BoxberryDown, type BoxberrySettings, boxberryError } from './boxberry.ts';

/**
 * Where a parcel is (ADR 0057), from the carriers' own tracking:
 * - Russian Post: the SOAP 1.2 service `getOperationHistory` (tracking.pochta.ru/specification,
 *   "Единичный доступ"; restub/PochtaSdk "Connected Services/PochtaSdk.Tracking.SingleRequest"),
 *   with the tracking cabinet's login and password in `AuthorizationHeader`. Each `historyRecord`
 *   has `OperationParameters` (`OperType` Id/Name, `OperAttr` Id/Name, `OperDate`) and
 *   `AddressParameters.OperationAddress` (Index, Description). Operation 2 is the delivery
 *   (вручение), 3 the return (возврат), 8 with attribute 2 "Прибыло в место вручения" the parcel
 *   waiting at the post office; everything else is on its way.
 * - Boxberry: `ListStatuses&ImId=<track>` → `[{"Date":"2026-…","Name":"…","Comment":""}]`; a name
 *   of the pickup point's arrival means waiting, "Выдано"/"Доставлено" delivered, "Возвращено"
 *   returned (names as Boxberry writes them: the full list is UNCONFIRMED).
 */

export type EventKind = 'moving' | 'waiting' | 'delivered' | 'returned';

export interface TrackingEvent {
  occurredAt: Date;
  code: string;
  description: string;
  location: string | null;
  kind: EventKind;
}

export interface RussianPostTrackingSettings {
  /** `https://tracking.russianpost.ru/rtm34`. */
  url: string;
  login: string;
  password: string;
}

export class TrackingDown extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(`Tracking: ${message}`, options);
    this.name = 'TrackingDown';
  }
}

type FetchImpl = typeof fetch;
const TIMEOUT_MS = 10_000;

const escapeXml = (text: string) => text.replace(/[<>&'"]/g, (character) => `&#${character.charCodeAt(0)};`);

/** The request of the specification's example, for one barcode. */
export function operationHistoryRequest(settings: RussianPostTrackingSettings, barcode: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<soap:Envelope xmlns:soap="http://www.w3.org/2003/05/soap-envelope" xmlns:oper="http://russianpost.org/operationhistory" xmlns:data="http://russianpost.org/operationhistory/data" xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/">
  <soap:Header/>
  <soap:Body>
    <oper:getOperationHistory>
      <data:OperationHistoryRequest>
        <data:Barcode>${escapeXml(barcode)}</data:Barcode>
        <data:MessageType>0</data:MessageType>
        <data:Language>RUS</data:Language>
      </data:OperationHistoryRequest>
      <data:AuthorizationHeader soapenv:mustUnderstand="1">
        <data:login>${escapeXml(settings.login)}</data:login>
        <data:password>${escapeXml(settings.password)}</data:password>
      </data:AuthorizationHeader>
    </oper:getOperationHistory>
  </soap:Body>
</soap:Envelope>`;
}

const parser = new XMLParser({
  removeNSPrefix: true,
  parseTagValue: false,
  isArray: (name) => name === 'historyRecord',
});

const text = (value: unknown): string =>
  value === undefined || value === null ? '' : typeof value === 'object' ? '' : String(value);

/** Russian Post's kind of an operation: its type and attribute. */
export function russianPostKind(type: number, attribute: number): EventKind {
  if (type === 2) return 'delivered';
  if (type === 3) return 'returned';
  if (type === 8 && attribute === 2) return 'waiting';
  return 'moving';
}

/** Reads a `getOperationHistoryResponse`; a SOAP fault or anything unreadable is `TrackingDown`. */
export function parseOperationHistory(xml: string): TrackingEvent[] {
  let document: Record<string, unknown>;
  try {
    document = parser.parse(xml) as Record<string, unknown>;
  } catch (error) {
    throw new TrackingDown('the answer is not XML', { cause: error });
  }
  const body = (document.Envelope as Record<string, unknown> | undefined)?.Body as
    | Record<string, unknown>
    | undefined;
  if (!body) throw new TrackingDown('the answer is no SOAP envelope');
  if (body.Fault) throw new TrackingDown(`SOAP fault: ${JSON.stringify(body.Fault).slice(0, 300)}`);
  const response = body.getOperationHistoryResponse as Record<string, unknown> | undefined;
  const data = response?.OperationHistoryData as Record<string, unknown> | undefined;
  if (!response) throw new TrackingDown('the answer has no getOperationHistoryResponse');
  const records = (data?.historyRecord as Array<Record<string, unknown>> | undefined) ?? [];
  return records.flatMap((record) => {
    const operation = record.OperationParameters as Record<string, Record<string, unknown>> | undefined;
    const address = (record.AddressParameters as Record<string, Record<string, unknown>> | undefined)
      ?.OperationAddress;
    const date = new Date(text(operation?.OperDate));
    if (!operation || Number.isNaN(date.getTime())) return [];
    const type = Number(text(operation.OperType?.Id));
    const attribute = Number(text(operation.OperAttr?.Id) || 0);
    const names = [text(operation.OperType?.Name), text(operation.OperAttr?.Name)].filter(Boolean);
    const location = [text(address?.Index), text(address?.Description)].filter(Boolean).join(' ');
    return [
      {
        occurredAt: date,
        code: `${type}.${attribute}`,
        description: names.join(': '),
        location: location || null,
        kind: russianPostKind(type, attribute),
      },
    ];
  });
}

export async function russianPostHistory(
  settings: RussianPostTrackingSettings,
  barcode: string,
  fetchImpl: FetchImpl = fetch,
): Promise<TrackingEvent[]> {
  let xml: string;
  try {
    const response = await fetchImpl(settings.url, {
      method: 'POST',
      signal: AbortSignal.timeout(TIMEOUT_MS),
      headers: { 'content-type': 'application/soap+xml; charset=utf-8' },
      body: operationHistoryRequest(settings, barcode),
    });
    xml = await response.text();
    if (response.status >= 500 && !xml.includes('Fault')) throw new Error(`HTTP ${response.status}`);
  } catch (error) {
    throw new TrackingDown(`Russian Post: no answer (${(error as Error).message})`, { cause: error });
  }
  return parseOperationHistory(xml);
}

/** Boxberry's kind of a status, by its name. */
export function boxberryKind(name: string): EventKind {
  if (/возвращ/i.test(name)) return 'returned';
  if (/выдан|доставлен|вручен/i.test(name)) return 'delivered';
  if (/пункт выдачи|готов к выдаче/i.test(name)) return 'waiting';
  return 'moving';
}

/** Reads `ListStatuses`: its refusal (an unknown track) and anything unreadable are `TrackingDown`. */
export function parseListStatuses(body: unknown): TrackingEvent[] {
  const error = boxberryError(body);
  if (error !== null) throw new TrackingDown(`Boxberry: ${error}`);
  if (!Array.isArray(body)) throw new TrackingDown('Boxberry: ListStatuses is not a list');
  return body.flatMap((row: Record<string, unknown>) => {
    const date = new Date(text(row.Date));
    const name = text(row.Name);
    if (Number.isNaN(date.getTime()) || name === '') return [];
    return [
      {
        occurredAt: date,
        code: name,
        description: name,
        location: text(row.Comment) || null,
        kind: boxberryKind(name),
      },
    ];
  });
}

export async function boxberryHistory(
  settings: BoxberrySettings,
  track: string,
  fetchImpl: FetchImpl = fetch,
): Promise<TrackingEvent[]> {
  const url = new URL(settings.url);
  url.searchParams.set('token', settings.token);
  url.searchParams.set('method', 'ListStatuses');
  url.searchParams.set('ImId', track);
  let body: unknown;
  try {
    const response = await fetchImpl(url, { signal: AbortSignal.timeout(TIMEOUT_MS) });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    body = JSON.parse(await response.text());
  } catch (error) {
    throw new BoxberryDown(`ListStatuses: no answer (${(error as Error).message})`, { cause: error });
  }
  return parseListStatuses(body);
}
