import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database, DatabaseConnection } from '../db/client.ts';
import { jobs, mails } from '../db/schema.ts';
import { backoffMs, createWorker, DEFAULT_LOCK_TIMEOUT_MS, enqueue, type QueueLog } from '../jobs/queue.ts';
import { createTestDatabase } from '../testing/database.ts';
import { mailSendHandler } from './jobs.ts';
import { MAIL_SEND_JOB, queueMail } from './outbox.ts';
import { renderMail } from './templates.ts';
import { createMailTransport, type MailTransport } from './transport.ts';

const FROM = 'Vitrina <shop@vitrina.example>';
const LINK = 'https://shop.example/activate?token=Zx9-long-token-value&email=anna%40example.com';

let connection: DatabaseConnection;
let db: Database;

beforeAll(async () => {
  connection = await createTestDatabase();
  db = connection.db;
});

afterAll(async () => {
  await connection?.close();
});

beforeEach(async () => {
  await db.delete(jobs);
  await db.delete(mails);
});

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

// ── A real SMTP server, a clock and a log ───────────────────────────────────────────────────────

interface Received {
  recipients: string[];
  raw: string;
}

/** An SMTP server on 127.0.0.1 that keeps every message it accepts. */
async function startSmtpServer(port = 0) {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          recipients: session.envelope.rcptTo.map((recipient) => recipient.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const address = server.server.address();
  if (!address || typeof address === 'string') throw new Error('The SMTP server has no port');
  const stop = () => new Promise<void>((resolve) => server.close(() => resolve()));
  cleanups.push(stop);
  return { port: address.port, received };
}

/** A port nothing listens on (yet). */
async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', () => resolve()));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (!address || typeof address === 'string') throw new Error('No free port');
  return address.port;
}

/** A clock the test moves by hand, a little ahead of the database so queued jobs are due. */
function manualClock() {
  let now = new Date(Date.now() + 1_000);
  return {
    now: () => new Date(now),
    advance(ms: number) {
      now = new Date(now.getTime() + ms);
    },
  };
}

function recordingLog() {
  const entries: { level: string; message: string; details: object }[] = [];
  const write = (level: string) => (details: object, message: string) => {
    entries.push({ level, message, details });
  };
  const log: QueueLog = { info: write('info'), warn: write('warn'), error: write('error') };
  return { log, entries };
}

function mailWorker(transport: MailTransport, clock = manualClock()) {
  cleanups.push(() => transport.close());
  return createWorker({
    db,
    clock: clock.now,
    log: recordingLog().log,
    handlers: { [MAIL_SEND_JOB]: mailSendHandler({ db, transport, from: FROM }) },
  });
}

const smtpTransport = (port: number) =>
  createMailTransport({ smtpUrl: `smtp://127.0.0.1:${port}`, outboxDir: '/nonexistent' }, recordingLog().log);

const mailRow = async (id: number) => {
  const [row] = await db.select().from(mails).where(eq(mails.id, id));
  if (!row) throw new Error(`mail ${id} is gone`);
  return row;
};

const mailJobs = () => db.select().from(jobs).where(eq(jobs.kind, MAIL_SEND_JOB));

// ── A minimal reader of the raw messages ────────────────────────────────────────────────────────

interface Entity {
  headers: Record<string, string>;
  body: string;
}

function parseEntity(raw: string): Entity {
  const end = raw.search(/\r?\n\r?\n/);
  const head = (end < 0 ? raw : raw.slice(0, end)).replace(/\r?\n[ \t]+/g, ' ');
  const headers: Record<string, string> = {};
  for (const line of head.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { headers, body: end < 0 ? '' : raw.slice(end).replace(/^\r?\n\r?\n/, '') };
}

function quotedPrintableBytes(text: string): Buffer {
  const bytes: number[] = [];
  for (let index = 0; index < text.length; index++) {
    const hex = text.slice(index + 1, index + 3);
    if (text[index] === '=' && /^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      index += 2;
    } else bytes.push(...Buffer.from(text[index] ?? '', 'utf8'));
  }
  return Buffer.from(bytes);
}

/** RFC 2047 encoded words (=?UTF-8?B?…?= and =?UTF-8?Q?…?=), adjacent ones joined. */
function decodeHeader(value: string): string {
  const word = /=\?[^?]+\?([BbQq])\?([^?]*)\?=/g;
  return value.replace(/=\?[^?]+\?[BbQq]\?[^?]*\?=(?:\s+=\?[^?]+\?[BbQq]\?[^?]*\?=)*/g, (run) =>
    Buffer.concat(
      [...run.matchAll(word)].map(([, encoding, text = '']) =>
        encoding?.toUpperCase() === 'B'
          ? Buffer.from(text, 'base64')
          : quotedPrintableBytes(text.replace(/_/g, ' ')),
      ),
    ).toString('utf8'),
  );
}

function decodeBody(entity: Entity): string {
  const encoding = (entity.headers['content-transfer-encoding'] ?? '7bit').toLowerCase();
  if (encoding === 'base64') return Buffer.from(entity.body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable')
    return quotedPrintableBytes(entity.body.replace(/=\r?\n/g, '')).toString('utf8');
  return entity.body;
}

/** Headers (decoded) and the text and HTML parts of a raw message. */
function readMessage(raw: string) {
  const message = parseEntity(raw);
  const parts: Record<string, string> = {};
  const collect = (entity: Entity) => {
    const type = entity.headers['content-type'] ?? 'text/plain';
    const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
    if (type.toLowerCase().startsWith('multipart/') && boundary) {
      const sections = entity.body.split(`--${boundary}`).slice(1);
      for (const section of sections) {
        if (section.startsWith('--')) break;
        collect(parseEntity(section.replace(/^\r?\n/, '')));
      }
    } else {
      parts[type.split(';')[0]?.trim().toLowerCase() ?? 'text/plain'] = decodeBody(entity);
    }
  };
  collect(message);
  const header = (name: string) => decodeHeader(message.headers[name] ?? '');
  return {
    from: header('from'),
    to: header('to'),
    replyTo: header('reply-to'),
    subject: header('subject'),
    text: parts['text/plain'] ?? '',
    html: parts['text/html'] ?? '',
  };
}

// ── The tests ───────────────────────────────────────────────────────────────────────────────────

describe('mail over SMTP', () => {
  it('delivers a queued mail to the SMTP server and records when it was sent', async () => {
    const smtp = await startSmtpServer();
    const clock = manualClock();
    const worker = mailWorker(smtpTransport(smtp.port), clock);
    const mailId = await db.transaction((transaction) =>
      queueMail(transaction, {
        template: 'verify-email',
        locale: 'ru',
        to: 'anna@example.com',
        data: { link: LINK },
      }),
    );
    expect((await mailRow(mailId)).sentAt).toBeNull();

    expect(await worker.runDue()).toBe(1);

    expect(smtp.received).toHaveLength(1);
    const [delivery] = smtp.received;
    expect(delivery?.recipients).toEqual(['anna@example.com']);
    const message = readMessage(delivery?.raw ?? '');
    expect(message.to).toBe('anna@example.com');
    expect(message.from).toBe(FROM);
    expect(message.subject).toBe('Подтвердите адрес электронной почты');
    expect(message.text).toContain(LINK);
    expect(message.html).toContain(LINK.replaceAll('&', '&amp;'));
    expect(message.html).toContain('Витрина');

    const row = await mailRow(mailId);
    expect(row.sentAt).toEqual(clock.now());
    expect(row).toMatchObject({ template: 'verify-email', locale: 'ru', to: 'anna@example.com' });
    const [job] = await mailJobs();
    expect(job?.finishedAt).not.toBeNull();
  });

  it('sends feedback to the shop with the visitor as reply-to', async () => {
    const smtp = await startSmtpServer();
    const worker = mailWorker(smtpTransport(smtp.port));
    await queueMail(db, {
      template: 'feedback',
      locale: 'en',
      to: 'shop@vitrina.example',
      replyTo: 'visitor@example.com',
      data: { name: 'Visitor <b>', email: 'visitor@example.com', message: 'When do the mugs return?' },
    });

    expect(await worker.runDue()).toBe(1);

    const message = readMessage(smtp.received[0]?.raw ?? '');
    expect(message.to).toBe('shop@vitrina.example');
    expect(message.replyTo).toBe('visitor@example.com');
    expect(message.subject).toBe('Feedback from Visitor <b>');
    expect(message.html).toContain('Visitor &lt;b&gt;');
    expect(message.text).toContain('> When do the mugs return?');
  });

  it('sends nothing when the business transaction rolls back', async () => {
    const smtp = await startSmtpServer();
    const worker = mailWorker(smtpTransport(smtp.port));
    await expect(
      db.transaction(async (transaction) => {
        await queueMail(transaction, {
          template: 'order-cancelled',
          locale: 'en',
          to: 'anna@example.com',
          data: { orderId: 1, reason: 'cancelled' },
        });
        throw new Error('the order could not be cancelled');
      }),
    ).rejects.toThrow('the order could not be cancelled');

    expect(await worker.runDue()).toBe(0);
    expect(smtp.received).toHaveLength(0);
    expect(await db.select().from(mails)).toHaveLength(0);
    expect(await mailJobs()).toHaveLength(0);
  });

  it('keeps the mail through an SMTP outage and delivers it exactly once when the server is back', async () => {
    const port = await freePort();
    const clock = manualClock();
    const worker = mailWorker(smtpTransport(port), clock);
    const mailId = await queueMail(db, {
      template: 'order-shipped',
      locale: 'en',
      to: 'anna@example.com',
      data: { orderId: 42, trackCode: 'RA123456789RU', deliveryMethod: 'russian_post' },
    });

    // Nothing listens on the port: the attempt fails and the job waits for its retry.
    expect(await worker.runDue()).toBe(1);
    let [job] = await mailJobs();
    expect(job).toMatchObject({ attempts: 1, finishedAt: null, failedAt: null });
    expect(job?.lastError).toMatch(/ECONNREFUSED/);
    expect((await mailRow(mailId)).sentAt).toBeNull();

    const smtp = await startSmtpServer(port);
    expect(await worker.runDue()).toBe(0); // still backing off
    clock.advance(backoffMs(1));
    expect(await worker.runDue()).toBe(1);

    expect(smtp.received).toHaveLength(1);
    const message = readMessage(smtp.received[0]?.raw ?? '');
    expect(message.subject).toBe('Order #42 shipped');
    expect(message.text).toContain('RA123456789RU');
    [job] = await mailJobs();
    expect(job).toMatchObject({ attempts: 2 });
    expect(job?.finishedAt).not.toBeNull();
    expect((await mailRow(mailId)).sentAt).toEqual(clock.now());

    // A duplicate delivery job for the same mail finds it sent and sends nothing.
    await enqueue(db, MAIL_SEND_JOB, { mailId }, { runAt: clock.now() });
    expect(await worker.runDue()).toBe(1);
    expect(await worker.runDue()).toBe(0);
    expect(smtp.received).toHaveLength(1);
  });
});

describe('the mails of one order', () => {
  it('go out in the order of its events, after a killed instance held the earlier one', async () => {
    const smtp = await startSmtpServer();
    const clock = manualClock();
    const worker = mailWorker(smtpTransport(smtp.port), clock);
    const shipped = await queueMail(db, {
      template: 'order-shipped',
      locale: 'en',
      to: 'anna@example.com',
      data: { orderId: 7, trackCode: 'RA123456789RU', deliveryMethod: 'russian_post' },
    });
    await queueMail(db, {
      template: 'order-cancelled',
      locale: 'en',
      to: 'anna@example.com',
      data: { orderId: 7, reason: 'cancelled' },
    });
    await queueMail(db, {
      template: 'order-cancelled',
      locale: 'en',
      to: 'boris@example.com',
      data: { orderId: 8, reason: 'cancelled' },
    });
    // An instance claimed the first mail of order 7 and was killed before sending it.
    await db
      .update(jobs)
      .set({ lockedAt: clock.now(), lockedBy: 'killed', attempts: 1 })
      .where(sql`${jobs.payload}->>'mailId' = ${String(shipped)}`);

    // Order 8 is not held up; order 7's later mail waits for its earlier one.
    expect(await worker.runDue()).toBe(1);
    expect(smtp.received.map((mail) => mail.recipients)).toEqual([['boris@example.com']]);
    clock.advance(DEFAULT_LOCK_TIMEOUT_MS + 1);
    expect(await worker.runDue()).toBe(2);
    expect(smtp.received.slice(1).map((mail) => readMessage(mail.raw).subject)).toEqual([
      'Order #7 shipped',
      expect.stringMatching(/^Order #7 .*cancel/i),
    ]);
  });
});

describe('mail to the file outbox', () => {
  it('writes one .eml file per mail and logs where it went', async () => {
    const outboxDir = path.join(await mkdtemp(path.join(os.tmpdir(), 'vitrina-outbox-')), 'outbox');
    cleanups.push(() => rm(path.dirname(outboxDir), { recursive: true, force: true }));
    const { log, entries } = recordingLog();
    const transport = createMailTransport({ smtpUrl: undefined, outboxDir }, log);
    const worker = mailWorker(transport);
    const data = { productName: 'Фигурка «Страж»', link: 'https://shop.example/product/guardian' };
    const mailId = await queueMail(db, {
      template: 'envisioned-available',
      locale: 'ru',
      to: 'anna@example.com',
      data,
    });

    expect(await worker.runDue()).toBe(1);

    const files = await readdir(outboxDir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(new RegExp(`^\\d{4}-\\d{2}-\\d{2}T[\\d-]+Z-${mailId}\\.eml$`));
    const file = path.join(outboxDir, files[0] ?? '');
    const raw = await readFile(file, 'utf8');
    const { subject } = renderMail('envisioned-available', 'ru', data);
    const message = readMessage(raw);
    expect(message.subject).toBe(subject);
    expect(message.subject).toBe('Можно заказать: Фигурка «Страж»');
    expect(message.to).toBe('anna@example.com');
    expect(message.text).toContain(data.link);
    expect(raw).toContain('\r\n'); // RFC 822 line ends
    expect(entries).toContainEqual(
      expect.objectContaining({ level: 'info', message: `mail to anna@example.com: ${subject} → ${file}` }),
    );
    expect((await mailRow(mailId)).sentAt).not.toBeNull();
  });
});
