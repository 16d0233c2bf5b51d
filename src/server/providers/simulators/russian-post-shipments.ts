import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isHsCode } from '../../../contract/customs.ts';
import { SANDBOX_OTPRAVKA } from '../russian-post-shipments.ts';
import { russianRegionOf } from './russian-post.ts';
import { formPdf } from './shipping-forms.ts';

/**
 * A local stand-in for Russian Post's "Отправка" API under `/sandbox/otpravka` (ADR 0057, 0087),
 * speaking the shapes of otpravka.pochta.ru/specification (orders-creating_order, batches-*,
 * documents), as restub/PochtaSdk (PochtaSdk/Otpravka/BatchResponse.cs, ErrorWithCode2.cs,
 * ErrorCode.cs) and fogstream/fs-pochta-api (pochta/api/batches.py) read them:
 * - `PUT /1.0/user/backlog` with a list of orders → `{"result-ids":[…]}`; a refused order answers
 *   `{"errors":[{"error-codes":[{"code","description"}],"position":i}]}`. Refused here, with the
 *   specification's codes: a domestic postcode the simulator does not know (ILLEGAL_INDEX_TO), a
 *   recipient without a surname or given name (ILLEGAL_INITIALS), an order abroad without
 *   `customs-declaration` entries (EMPTY_CUSTOMS_ENTRIES), no `mass` (ILLEGAL_MASS), and a
 *   `tnved-code` not of 6–10 digits (ILLEGAL_TNVED_CODE: the simulator's own, UNCONFIRMED). The
 *   Russian texts are the simulator's own (UNCONFIRMED).
 * - `POST /1.0/user/shipment?sending-date=yyyy-MM-dd` with backlog ids makes a new batch of them
 *   (one per mail type and category, as the specification says) → `{"batches":[{"batch-name",
 *   "batch-status":"CREATED","list-number-date","mail-type","mail-category","shipment-count"}],
 *   "result-ids":[…]}`; each order gets its barcode (14 digits at home, `RA…RU` abroad). An id not
 *   in the backlog is listed in `errors` as `{"error-code":"NOT_FOUND","error-description",
 *   "position"}` (the code for it is UNCONFIRMED). Batch names are numbers counted up (their real
 *   form is UNCONFIRMED).
 * - `POST /1.0/batch/{name}/shipment` with backlog ids moves them into that batch, the same answer;
 *   an order of another mail type or category is refused by position (DIFFERENT_MAIL_TYPE,
 *   DIFFERENT_MAIL_CATEGORY), and every order when the batch was handed in (`closeBatch`, or its
 *   sending date past: READONLY_STATE) or is unknown (NOT_FOUND).
 * - `GET /1.0/shipment/{id}` → the order with `barcode` and `batch-name`; 404 while in the backlog.
 * - `GET /1.0/forms/{id}/f7pdf` (label) and `GET /1.0/forms/{id}/forms` (every form; with the CN23
 *   for a parcel abroad): real PDFs naming the barcode, the recipient and the customs entries.
 * - Requests need `Authorization: AccessToken <token>` and `X-User-Authorization: Basic <…>` of
 *   the sandbox account (401 otherwise).
 * - Tracking: the SOAP 1.2 `getOperationHistory` at `/sandbox/russian-post-tracking` (the shapes of
 *   tracking.pochta.ru/specification), with the sandbox login and password (a SOAP Fault
 *   otherwise). A barcode starts with "Приём" (1.1) when its batch is made; `advance(barcode)` (or
 *   `POST /sandbox/otpravka/advance/{barcode}` for browser journeys) adds the next of sorting (8.0),
 *   "Прибыло в место вручения" (8.2) and "Вручение адресату" (2.1).
 */

export const OTPRAVKA_SIMULATOR_PATH = '/sandbox/otpravka';

export type OtpravkaSimulatorMode = 'normal' | 'down';

export const RUSSIAN_POST_TRACKING_SIMULATOR_PATH = '/sandbox/russian-post-tracking';

interface Operation {
  type: number;
  typeName: string;
  attribute: number;
  attributeName: string;
  at: Date;
  index: string;
  place: string;
}

/** What happens to a parcel after it is accepted, one step per `advance`. */
const NEXT_OPERATIONS = [
  { type: 8, typeName: 'Обработка', attribute: 0, attributeName: 'Сортировка' },
  { type: 8, typeName: 'Обработка', attribute: 2, attributeName: 'Прибыло в место вручения' },
  { type: 2, typeName: 'Вручение', attribute: 1, attributeName: 'Вручение адресату' },
];

const xml = (text: string) => text.replace(/[<>&]/g, (character) => `&#${character.charCodeAt(0)};`);

interface StoredOrder {
  id: number;
  body: Record<string, unknown>;
  batch?: string;
  barcode?: string;
}

interface StoredBatch {
  name: string;
  mailType: string;
  mailCategory: string;
  /** The day it is handed in (yyyy-MM-dd). */
  sendingDate: string;
  closed: boolean;
}

export interface OtpravkaSimulator {
  plugin: (app: FastifyInstance) => Promise<void>;
  setMode(mode: OtpravkaSimulatorMode): void;
  /** Orders received in the backlog, oldest first. */
  orders(): Array<{ id: number; body: Record<string, unknown>; barcode?: string; batch?: string }>;
  /** Every request's method and path, oldest first. */
  requests(): string[];
  /** The parcel's next tracking operation, at `at` (now by default). */
  advance(barcode: string, at?: Date): void;
  /** Batches made, oldest first, with the ids of their orders. */
  batches(): Array<{ name: string; sendingDate: string; closed: boolean; orders: number[] }>;
  /** The batch is handed in at the post office: nothing more can be moved into it. */
  closeBatch(name: string): void;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const refusal = (code: string, description: string) => ({ code, description });

function check(order: Record<string, unknown>) {
  const errors: Array<{ code: string; description: string }> = [];
  if (!order.surname || !order['given-name'])
    errors.push(refusal('ILLEGAL_INITIALS', 'Не указаны фамилия или имя получателя'));
  if (!(Number(order.mass) > 0)) errors.push(refusal('ILLEGAL_MASS', 'Неверно указан вес отправления'));
  const domestic = Number(order['mail-direct']) === 643;
  if (domestic) {
    const zip = String(order['index-to'] ?? '').padStart(6, '0');
    if (!/^\d{6}$/.test(zip) || !russianRegionOf(zip))
      errors.push(refusal('ILLEGAL_INDEX_TO', `Индекс ${zip} не существует`));
  } else {
    const declaration = order['customs-declaration'];
    const entries =
      isRecord(declaration) && Array.isArray(declaration['customs-entries'])
        ? declaration['customs-entries']
        : [];
    if (entries.length === 0)
      errors.push(
        refusal('EMPTY_CUSTOMS_ENTRIES', 'Для международного отправления нужна таможенная декларация'),
      );
    for (const entry of entries) {
      if (!isRecord(entry) || !isHsCode(String(entry['tnved-code'] ?? '')))
        errors.push(refusal('ILLEGAL_TNVED_CODE', 'Код ТН ВЭД должен состоять из 6–10 цифр'));
    }
  }
  return errors;
}

export function createOtpravkaSimulator(options: { clock?: () => Date } = {}): OtpravkaSimulator {
  const clock = options.clock ?? (() => new Date());
  let mode: OtpravkaSimulatorMode = 'normal';
  const stored = new Map<number, StoredOrder>();
  const received: string[] = [];
  let nextId = 100_000;
  let nextBarcode = 1;
  let nextBatch = 1;
  const batches = new Map<string, StoredBatch>();
  const operations = new Map<string, Operation[]>();
  const today = () => clock().toISOString().slice(0, 10);

  function advance(barcode: string, at = clock()) {
    const list = operations.get(barcode);
    const order = [...stored.values()].find((candidate) => candidate.barcode === barcode);
    if (!list || !order) throw new Error(`no parcel ${barcode}`);
    const next = NEXT_OPERATIONS[list.length - 1];
    if (!next) return;
    const index = String(order.body['index-to'] ?? order.body['str-index-to'] ?? '').padStart(6, '0');
    list.push({ ...next, at, index, place: String(order.body['place-to'] ?? '') });
  }

  function history(barcode: string) {
    const records = (operations.get(barcode) ?? [])
      .map(
        (operation) => `<ns3:historyRecord>
<ns3:AddressParameters><ns3:OperationAddress><ns3:Index>${xml(operation.index)}</ns3:Index><ns3:Description>${xml(operation.place)}</ns3:Description></ns3:OperationAddress></ns3:AddressParameters>
<ns3:OperationParameters><ns3:OperType><ns3:Id>${operation.type}</ns3:Id><ns3:Name>${xml(operation.typeName)}</ns3:Name></ns3:OperType><ns3:OperAttr><ns3:Id>${operation.attribute}</ns3:Id><ns3:Name>${xml(operation.attributeName)}</ns3:Name></ns3:OperAttr><ns3:OperDate>${operation.at.toISOString()}</ns3:OperDate></ns3:OperationParameters>
</ns3:historyRecord>`,
      )
      .join('');
    return `<?xml version="1.0" encoding="UTF-8"?><S:Envelope xmlns:S="http://www.w3.org/2003/05/soap-envelope"><S:Body><ns7:getOperationHistoryResponse xmlns:ns3="http://russianpost.org/operationhistory/data" xmlns:ns7="http://russianpost.org/operationhistory"><ns3:OperationHistoryData>${records}</ns3:OperationHistoryData></ns7:getOperationHistoryResponse></S:Body></S:Envelope>`;
  }

  const fault = (text: string) =>
    `<?xml version="1.0" encoding="UTF-8"?><S:Envelope xmlns:S="http://www.w3.org/2003/05/soap-envelope"><S:Body><S:Fault><S:Code><S:Value>S:Sender</S:Value></S:Code><S:Reason><S:Text xml:lang="ru">${xml(text)}</S:Text></S:Reason></S:Fault></S:Body></S:Envelope>`;

  const authorized = (request: FastifyRequest) => {
    const basic = Buffer.from(`${SANDBOX_OTPRAVKA.login}:${SANDBOX_OTPRAVKA.password}`).toString('base64');
    return (
      request.headers.authorization === `AccessToken ${SANDBOX_OTPRAVKA.accessToken}` &&
      request.headers['x-user-authorization'] === `Basic ${basic}`
    );
  };

  /** Answers 503 in `down` mode and 401 without the sandbox account; true when it answered. */
  function refused(request: FastifyRequest, reply: FastifyReply): boolean {
    received.push(`${request.method} ${request.url.replace(OTPRAVKA_SIMULATOR_PATH, '')}`);
    if (mode === 'down') {
      reply.code(503).type('text/html').send('<html><body>503 Service Unavailable</body></html>');
      return true;
    }
    if (!authorized(request)) {
      reply.code(401).send({ code: '1001', desc: 'Authentication failed' });
      return true;
    }
    return false;
  }

  const barcodeFor = (order: StoredOrder) => {
    const serial = String(nextBarcode++).padStart(8, '0');
    return Number(order.body['mail-direct']) === 643 ? `101000${serial}` : `RA${serial.slice(-8)}0RU`;
  };

  const form = (order: StoredOrder, kind: 'label' | 'forms') => {
    const body = order.body;
    const lines = [
      `Barcode: ${order.barcode ?? 'not in a batch yet'}`,
      `Order: ${String(body['order-num'] ?? '')}`,
      `To: ${String(body['recipient-name'] ?? '')}`,
      `${String(body['index-to'] ?? body['str-index-to'] ?? '')} ${String(body['place-to'] ?? '')}, ${String(body['street-to'] ?? '')}`,
      `Country: ${String(body['mail-direct'] ?? '')}  Weight: ${String(body.mass ?? '')} g`,
    ];
    const declaration = body['customs-declaration'];
    const entries =
      isRecord(declaration) && Array.isArray(declaration['customs-entries'])
        ? declaration['customs-entries']
        : [];
    if (kind === 'label' || entries.length === 0) return formPdf('F7p label', lines);
    return formPdf('CN23 customs declaration', [
      ...lines,
      'Description | Qty | HS code | Value, RUB | Weight, g | Origin',
      ...entries
        .filter(isRecord)
        .map(
          (entry) =>
            `${String(entry.description)} | ${String(entry.amount)} | ${String(entry['tnved-code'])} | ${(Number(entry.value) / 100).toFixed(2)} | ${String(entry.weight)} | ${String(entry['country-code'])}`,
        ),
    ]);
  };

  async function plugin(app: FastifyInstance): Promise<void> {
    if (!app.hasContentTypeParser('application/soap+xml')) {
      app.addContentTypeParser('application/soap+xml', { parseAs: 'string' }, (_request, body, done) =>
        done(null, body),
      );
    }
    app.post(RUSSIAN_POST_TRACKING_SIMULATOR_PATH, async (request, reply) => {
      received.push(`POST ${RUSSIAN_POST_TRACKING_SIMULATOR_PATH}`);
      if (mode === 'down') return reply.code(503).type('text/html').send('<html><body>503</body></html>');
      const body = String(request.body ?? '');
      const field = (name: string) => new RegExp(`<(?:\\w+:)?${name}>([^<]*)</`).exec(body)?.[1] ?? '';
      reply.type('application/soap+xml; charset=utf-8');
      if (field('login') !== SANDBOX_OTPRAVKA.login || field('password') !== SANDBOX_OTPRAVKA.password)
        return reply.code(500).send(fault('Ошибка авторизации'));
      return reply.send(history(field('Barcode')));
    });
    app.post<{ Params: { barcode: string } }>(
      `${OTPRAVKA_SIMULATOR_PATH}/advance/:barcode`,
      async (request, reply) => {
        try {
          advance(request.params.barcode);
        } catch {
          return reply.code(404).send({ error: 'no such parcel' });
        }
        return { operations: operations.get(request.params.barcode)?.length ?? 0 };
      },
    );
    app.put(`${OTPRAVKA_SIMULATOR_PATH}/1.0/user/backlog`, async (request, reply) => {
      if (refused(request, reply)) return reply;
      const list = Array.isArray(request.body) ? request.body : [];
      const errors = list.flatMap((order, position) => {
        const found = isRecord(order) ? check(order) : [refusal('ILLEGAL_ORDER', 'Неверный заказ')];
        return found.length > 0 ? [{ 'error-codes': found, position }] : [];
      });
      if (errors.length > 0 || list.length === 0) return reply.code(400).send({ errors });
      const ids = list.filter(isRecord).map((body) => {
        const id = nextId++;
        stored.set(id, { id, body });
        return id;
      });
      return { 'result-ids': ids };
    });
    /** Puts the backlog order into the batch: its barcode, and "Приём" in its tracking. */
    const intoBatch = (order: StoredOrder, batch: StoredBatch) => {
      order.batch = batch.name;
      order.barcode = barcodeFor(order);
      operations.set(order.barcode, [
        {
          type: 1,
          typeName: 'Приём',
          attribute: 1,
          attributeName: 'Единичный',
          at: clock(),
          index: '101000',
          place: 'Москва',
        },
      ]);
    };
    const batchRow = (batch: StoredBatch) => ({
      'batch-name': batch.name,
      'batch-status': 'CREATED',
      'list-number-date': batch.sendingDate,
      'mail-type': batch.mailType,
      'mail-category': batch.mailCategory,
      'shipment-count': [...stored.values()].filter((order) => order.batch === batch.name).length,
    });
    const batchError = (code: string, description: string, position: number) => ({
      'error-code': code,
      'error-description': description,
      position,
    });
    /** The backlog orders of the ids, or the position's refusal (not in the backlog). */
    const backlogOf = (body: unknown) =>
      (Array.isArray(body) ? body : []).map((id, position) => {
        const order = stored.get(Number(id));
        return order && !order.batch
          ? { order, position }
          : {
              error: batchError('NOT_FOUND', `Заказ ${String(id)} не найден среди неотправленных`, position),
            };
      });

    app.post<{ Querystring: { 'sending-date'?: string } }>(
      `${OTPRAVKA_SIMULATOR_PATH}/1.0/user/shipment`,
      async (request, reply) => {
        if (refused(request, reply)) return reply;
        const found = backlogOf(request.body);
        if (found.length === 0)
          return reply.code(400).send({ errors: [batchError('NOT_FOUND', 'Не переданы заказы', 0)] });
        const sendingDate = request.query['sending-date'] ?? today();
        const made: StoredBatch[] = [];
        const ids: number[] = [];
        for (const entry of found) {
          if (!entry.order) continue;
          const mailType = String(entry.order.body['mail-type'] ?? '');
          const mailCategory = String(entry.order.body['mail-category'] ?? '');
          let batch = made.find(
            (candidate) => candidate.mailType === mailType && candidate.mailCategory === mailCategory,
          );
          if (!batch) {
            batch = { name: String(nextBatch++), mailType, mailCategory, sendingDate, closed: false };
            batches.set(batch.name, batch);
            made.push(batch);
          }
          intoBatch(entry.order, batch);
          ids.push(entry.order.id);
        }
        const errors = found.flatMap((entry) => (entry.error ? [entry.error] : []));
        return {
          batches: made.map(batchRow),
          'result-ids': ids,
          ...(errors.length > 0 ? { errors } : {}),
        };
      },
    );
    app.post<{ Params: { name: string } }>(
      `${OTPRAVKA_SIMULATOR_PATH}/1.0/batch/:name/shipment`,
      async (request, reply) => {
        if (refused(request, reply)) return reply;
        const batch = batches.get(request.params.name);
        const found = backlogOf(request.body);
        const ids: number[] = [];
        const errors = found.map((entry) => {
          if (entry.error) return entry.error;
          const { order, position } = entry as { order: StoredOrder; position: number };
          if (!batch) return batchError('NOT_FOUND', `Партия ${request.params.name} не найдена`, position);
          if (batch.closed || batch.sendingDate < today())
            return batchError('READONLY_STATE', 'Изменения в партии недопустимы', position);
          if (String(order.body['mail-type'] ?? '') !== batch.mailType)
            return batchError('DIFFERENT_MAIL_TYPE', 'Типы почтовых отправлений не совпадают', position);
          if (String(order.body['mail-category'] ?? '') !== batch.mailCategory)
            return batchError(
              'DIFFERENT_MAIL_CATEGORY',
              'Категории почтовых отправлений не совпадают',
              position,
            );
          intoBatch(order, batch);
          ids.push(order.id);
          return undefined;
        });
        const listed = errors.filter((error) => error !== undefined);
        return {
          batches: batch && ids.length > 0 ? [batchRow(batch)] : [],
          'result-ids': ids,
          ...(listed.length > 0 ? { errors: listed } : {}),
        };
      },
    );
    app.get<{ Params: { id: string } }>(
      `${OTPRAVKA_SIMULATOR_PATH}/1.0/shipment/:id`,
      async (request, reply) => {
        if (refused(request, reply)) return reply;
        const order = stored.get(Number(request.params.id));
        if (!order?.batch) return reply.code(404).send({ code: 'NOT_FOUND', desc: 'Отправление не найдено' });
        return { ...order.body, id: order.id, barcode: order.barcode, 'batch-name': order.batch };
      },
    );
    app.get<{ Params: { id: string; form: string } }>(
      `${OTPRAVKA_SIMULATOR_PATH}/1.0/forms/:id/:form`,
      async (request, reply) => {
        if (refused(request, reply)) return reply;
        const order = stored.get(Number(request.params.id));
        const kind =
          request.params.form === 'f7pdf' ? 'label' : request.params.form === 'forms' ? 'forms' : null;
        if (!order || !kind) return reply.code(404).send({ code: 'NOT_FOUND', desc: 'Заказ не найден' });
        return reply.type('application/pdf').send(Buffer.from(await form(order, kind)));
      },
    );
  }

  return {
    plugin,
    setMode(next) {
      mode = next;
    },
    orders: () => [...stored.values()].map((order) => ({ ...order })),
    requests: () => [...received],
    advance,
    batches: () =>
      [...batches.values()].map((batch) => ({
        name: batch.name,
        sendingDate: batch.sendingDate,
        closed: batch.closed,
        orders: [...stored.values()].filter((order) => order.batch === batch.name).map((order) => order.id),
      })),
    closeBatch(name) {
      const batch = batches.get(name);
      if (!batch) throw new Error(`no batch ${name}`);
      batch.closed = true;
    },
  };
}
