import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_UPLOAD_BYTES } from '../../contract/admin.ts';
import { feedback } from '../db/schema.ts';
import { createTestApp } from '../testing/app.ts';
import { jsonDepthExceeds, MAX_JSON_DEPTH } from './body-limits.ts';

/** Bodies the shop refuses unread: too large, of unknown length, or nested absurdly deep. */

let shop: Awaited<ReturnType<typeof createTestApp>>;
let baseUrl: string;
/** Bytes a page's stand-in read from the raw request. */
let pageBytesRead = 0;

beforeAll(async () => {
  shop = await createTestApp();
  // A stand-in for the server-rendered app's form posts: like it, it reads the raw request itself,
  // outside Fastify's parsers and their limits.
  await shop.app.register(async (pages) => {
    pages.removeAllContentTypeParsers();
    pages.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    pages.post('/feedback', async (request) => {
      for await (const chunk of request.raw) pageBytesRead += (chunk as Buffer).length;
      return { read: pageBytesRead };
    });
  });
  await shop.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(shop.app.server.address() as AddressInfo).port}`;
});
afterAll(() => shop.close());

interface Upload {
  status: number;
  body: string;
  /** Bytes the client had written when the answer came. */
  written: number;
  milliseconds: number;
}

/**
 * Posts `size` bytes declared by Content-Length (or chunked when `size` is 'chunked') over a real
 * connection, writing 64 KB at a time until the answer comes.
 */
function upload(
  path: string,
  size: number | 'chunked',
  headers: Record<string, string> = {},
): Promise<Upload> {
  const started = Date.now();
  const chunk = Buffer.alloc(64 * 1024, 'a');
  return new Promise((resolve, reject) => {
    let written = 0;
    let answered = false;
    const request = http.request(`${baseUrl}${path}`, {
      method: 'POST',
      agent: false,
      headers: {
        origin: baseUrl,
        'content-type': 'application/x-www-form-urlencoded',
        ...(size === 'chunked' ? {} : { 'content-length': String(size) }),
        ...headers,
      },
    });
    request.on('response', (response) => {
      answered = true;
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (text) => {
        body += text;
      });
      response.on('end', () => {
        resolve({ status: response.statusCode ?? 0, body, written, milliseconds: Date.now() - started });
        request.destroy();
      });
    });
    // The test drops the connection once answered; a write in flight may fail then.
    request.on('error', (error) => {
      if (!answered) reject(error);
    });
    const total = size === 'chunked' ? 2 * 1024 * 1024 : size;
    const writeMore = () => {
      while (!answered && written < total && !request.destroyed) {
        written += chunk.length;
        if (!request.write(chunk)) return void request.once('drain', writeMore);
      }
      if (!answered && !request.destroyed) request.end();
    };
    writeMore();
  });
}

const feedbackCount = async () => (await shop.db.select().from(feedback)).length;

describe('body limits', () => {
  it('answers a 50 MB form posted to a page 413 at once, without reading it: memory stays flat', async () => {
    global.gc?.();
    const before = process.memoryUsage().rss;
    const answer = await upload('/feedback', 50 * 1024 * 1024);
    const grown = process.memoryUsage().rss - before;

    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toMatchObject({ success: false });
    expect(pageBytesRead).toBe(0);
    // The answer came long before the client could send 50 MB; the server buffered none of it.
    expect(answer.written).toBeLessThan(10 * 1024 * 1024);
    expect(answer.milliseconds).toBeLessThan(5_000);
    // Less than the body: the part sent before the answer arrived is read and dropped so the
    // client reads the answer before the connection closes (ADR 0055); those chunks pass through
    // memory (about 35 MB of the process on Node 24 before they are collected), none is kept.
    expect(grown).toBeLessThan(45 * 1024 * 1024);
  });

  it('answers the same for the API, JSON or multipart, and changes nothing', async () => {
    for (const contentType of ['application/json', 'multipart/form-data; boundary=x']) {
      const answer = await upload('/api/feedback', 2 * 1024 * 1024, { 'content-type': contentType });
      expect(answer.status, contentType).toBe(413);
    }
    expect(await feedbackCount()).toBe(0);
  });

  it('gives the file manager its own larger limit, and only it', async () => {
    // Within the upload's limit the request goes on to the admin check (no session: 401).
    const withinUpload = await upload('/api/admin/files', 5 * 1024 * 1024, {
      'content-type': 'multipart/form-data; boundary=x',
    });
    expect(withinUpload.status).toBe(401);
    const overUpload = await upload('/api/admin/files', MAX_UPLOAD_BYTES + 1024 * 1024, {
      'content-type': 'multipart/form-data; boundary=x',
    });
    expect(overUpload.status).toBe(413);
    expect((await upload('/api/feedback', 5 * 1024 * 1024)).status).toBe(413);
    // Told in the back office's language, which its calls name.
    const russian = await upload('/api/admin/files?locale=ru', MAX_UPLOAD_BYTES + 1024 * 1024, {
      'content-type': 'multipart/form-data; boundary=x',
    });
    expect(JSON.parse(russian.body)).toMatchObject({
      message: 'Слишком много данных сразу: файл или форма больше, чем здесь принимается.',
    });
  });

  it('refuses a body of unknown length (chunked) with 411, on pages and the API', async () => {
    expect((await upload('/feedback', 'chunked')).status).toBe(411);
    expect((await upload('/api/feedback', 'chunked', { 'content-type': 'application/json' })).status).toBe(
      411,
    );
    expect(pageBytesRead).toBe(0);
  });

  it('refuses JSON nested 400,000 levels deep with 400, and still takes ordinary JSON', async () => {
    const deep = `${'['.repeat(400_000)}${']'.repeat(400_000)}`;
    const objects = `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`;
    for (const payload of [deep, objects]) {
      const answer = await shop.app.inject({
        method: 'POST',
        url: '/api/feedback',
        headers: { 'content-type': 'application/json' },
        payload,
      });
      expect(answer.statusCode).toBe(400);
      expect(answer.json()).toMatchObject({ success: false, message: 'The data sent is nested too deeply.' });
    }
    const ordinary = await shop.app.inject({
      method: 'POST',
      url: '/api/feedback',
      headers: { 'content-type': 'application/json' },
      payload: { name: 'Anna', email: 'anna@example.com', message: 'Is the [mug] {back}?' },
    });
    expect(ordinary.statusCode).toBe(200);
    expect(await feedbackCount()).toBe(1);
  });

  it('counts nesting without parsing, brackets inside strings aside', () => {
    expect(jsonDepthExceeds('[[1]]', 2)).toBe(false);
    expect(jsonDepthExceeds('[[[1]]]', 2)).toBe(true);
    expect(jsonDepthExceeds('{"a":"[[[[\\"[["}', 1)).toBe(false);
    expect(
      jsonDepthExceeds(`${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}`, MAX_JSON_DEPTH),
    ).toBe(false);
  });
});
