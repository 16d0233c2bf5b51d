import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../testing/app.ts';
import { loggableUrl } from './logging.ts';

type LogLine = Record<string, unknown> & { msg?: string; requestId?: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('request ids and logs', () => {
  const lines: LogLine[] = [];
  let shop: Awaited<ReturnType<typeof createTestApp>>;

  beforeAll(async () => {
    shop = await createTestApp({
      logger: { level: 'info', stream: { write: (line: string) => lines.push(JSON.parse(line)) } },
    });
    shop.app.get('/test/failure', async () => {
      throw new Error('the disk is on fire');
    });
  });
  afterAll(() => shop.close());

  const linesOf = (requestId: string) => lines.filter((line) => line.requestId === requestId);

  it('keeps a sane incoming x-request-id, answers with it and logs every line of the request under it', async () => {
    const response = await shop.app.inject({
      url: '/api/initial?locale=en',
      headers: { 'x-request-id': 'edge-7f3a.1:2_b' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-request-id']).toBe('edge-7f3a.1:2_b');
    expect(linesOf('edge-7f3a.1:2_b').map((line) => line.msg)).toEqual([
      'incoming request',
      'request completed',
    ]);
  });

  it('makes up a UUID when the request brings none', async () => {
    const first = await shop.app.inject('/health/live');
    const second = await shop.app.inject('/health/live');
    expect(first.headers['x-request-id']).toMatch(UUID);
    expect(second.headers['x-request-id']).toMatch(UUID);
    expect(first.headers['x-request-id']).not.toBe(second.headers['x-request-id']);
  });

  it.each([
    ['too long', 'a'.repeat(129)],
    ['spaces and quotes', 'abc "def"'],
    ['a forged log line', 'abc\\n{"level":60}'],
    ['empty', ''],
  ])('replaces an incoming id that is %s', async (_case, incoming) => {
    const response = await shop.app.inject({ url: '/health/live', headers: { 'x-request-id': incoming } });
    expect(response.headers['x-request-id']).toMatch(UUID);
  });

  it('logs a failure the error handler answers 500 with the request id, and the answer names it too', async () => {
    const response = await shop.app.inject({
      url: '/test/failure',
      headers: { 'x-request-id': 'failing-1' },
    });
    expect(response.statusCode).toBe(500);
    expect(response.headers['x-request-id']).toBe('failing-1');
    const failure = linesOf('failing-1').find((line) => line.msg === 'request failed');
    expect(failure).toMatchObject({ level: 50, err: { message: 'the disk is on fire' } });
  });

  it('never logs cookies or authorization headers, nor the secrets of mailed links', async () => {
    await shop.app.inject({
      url: '/reset?token=secret-reset-token&email=shopper%40example.com&locale=en',
      headers: {
        'x-request-id': 'private-1',
        cookie: 'vitrina.sid=secret-session-cookie',
        authorization: 'Bearer secret-bearer',
      },
    });
    shop.app.log.info({
      headers: { cookie: 'secret-session-cookie', authorization: 'Bearer secret-bearer' },
    });
    const logged = JSON.stringify(lines);
    for (const secret of ['secret-reset-token', 'shopper', 'secret-session-cookie', 'secret-bearer']) {
      expect(logged).not.toContain(secret);
    }
    const incoming = linesOf('private-1').find((line) => line.msg === 'incoming request');
    expect(incoming?.req).toEqual({
      method: 'GET',
      url: '/reset?token=%5Bhidden%5D&email=%5Bhidden%5D&locale=en',
      host: 'localhost:80',
      remoteAddress: '127.0.0.1',
    });
    expect(lines.at(-1)?.headers).toEqual({ cookie: '[redacted]', authorization: '[redacted]' });
  });
});

describe('loggableUrl', () => {
  it('leaves URLs without secrets exactly as they came', () => {
    expect(loggableUrl('/product/mug?locale=en&x=%20')).toBe('/product/mug?locale=en&x=%20');
    expect(loggableUrl('/activate')).toBe('/activate');
  });

  it('hides every occurrence of a secret parameter', () => {
    expect(loggableUrl('/activate?token=a&token=b')).toBe('/activate?token=%5Bhidden%5D');
  });
});
