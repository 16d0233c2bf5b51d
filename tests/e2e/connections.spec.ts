import { describe, expect, inject, it } from 'vitest';
import { type Exchange, exchangeOnOneConnection, type WireRequest } from './raw-http.ts';

/**
 * No request stalls its connection (issue 32, ADR 0055): after a body the server does not read —
 * one over its route's limit, or one a page answers without reading — the next request on the same
 * connection is answered, or the server ends the connection with `Connection: close` after its
 * answer, which the client sees at once. Never a hang.
 */
describe('a connection after a body the server did not read', () => {
  const baseUrl = inject('baseUrl');
  const origin = { origin: baseUrl };
  const form = { ...origin, 'content-type': 'application/x-www-form-urlencoded' };
  const json = { ...origin, 'content-type': 'application/json' };
  const next: WireRequest = { method: 'GET', path: '/health/live' };
  /** Within the 1 MB limit of pages and API routes, but more than any socket buffer holds. */
  const withinLimit = 900 * 1024;
  const overLimit = 2 * 1024 * 1024;

  /** Both answers came, or the first said `Connection: close` and the connection then ended. */
  function expectNoStall(exchange: Exchange, firstStatus: number | RegExp) {
    const [first, second] = exchange.answers;
    expect(first, 'the first answer').toBeDefined();
    if (typeof firstStatus === 'number') expect(first?.status).toBe(firstStatus);
    else expect(String(first?.status)).toMatch(firstStatus);
    if (second) expect(second.status).toBe(200);
    else {
      expect(first?.headers.connection).toBe('close');
      expect(exchange.end).toBe('closed');
    }
  }

  const cases: Array<[string, WireRequest, number | RegExp]> = [
    // Pages that answer a POST without reading its form: the body is discarded, the connection kept.
    ['home page', { method: 'POST', path: '/', headers: form, bodyBytes: withinLimit }, 405],
    ['search', { method: 'POST', path: '/search', headers: form, bodyBytes: withinLimit }, /^(302|303|405)$/],
    [
      'language switch',
      { method: 'POST', path: '/locale', headers: form, bodyBytes: withinLimit },
      /^(302|303|400|405)$/,
    ],
    [
      'payment page',
      { method: 'POST', path: '/order/payment', headers: form, bodyBytes: withinLimit },
      /^(302|303|400|405)$/,
    ],
    // Over the limit: refused unread, and the connection ends after the answer.
    ['home page, over the limit', { method: 'POST', path: '/', headers: form, bodyBytes: overLimit }, 413],
    ['search, over the limit', { method: 'POST', path: '/search', headers: form, bodyBytes: overLimit }, 413],
    [
      'API call, over the limit',
      { method: 'POST', path: '/api/login', headers: json, bodyBytes: overLimit },
      413,
    ],
    [
      'API call the guard refuses',
      { method: 'POST', path: '/api/admin/products', headers: json, bodyBytes: withinLimit },
      /^4\d\d$/,
    ],
    [
      'upload, over the limit',
      {
        method: 'POST',
        path: '/api/admin/files',
        headers: { ...origin, 'content-type': 'multipart/form-data; boundary=x' },
        bodyBytes: 11 * 1024 * 1024,
      },
      413,
    ],
    [
      'upload without a session',
      {
        method: 'POST',
        path: '/api/admin/files',
        headers: { ...origin, 'content-type': 'multipart/form-data; boundary=x' },
        bodyBytes: withinLimit,
      },
      /^4\d\d$/,
    ],
    [
      'provider callback, over its parser limit',
      { method: 'POST', path: '/api/robokassa/result', headers: form, bodyBytes: 200 * 1024 },
      /^4\d\d$/,
    ],
    [
      'provider callback, over the limit',
      { method: 'POST', path: '/api/paypal/ipn', headers: form, bodyBytes: overLimit },
      413,
    ],
  ];

  for (const [kind, request, status] of cases) {
    it(`answers the next request, or closes, after an unread body: ${kind}`, async () => {
      expectNoStall(await exchangeOnOneConnection(baseUrl, request, next), status);
    });
  }

  it('keeps the connection of a page that answered without reading a body within its limit', async () => {
    const exchange = await exchangeOnOneConnection(
      baseUrl,
      { method: 'POST', path: '/search', headers: form, bodyBytes: withinLimit },
      next,
    );
    expect(exchange.answers.map((answer) => answer.status)).toEqual([expect.any(Number), 200]);
    expect(exchange.end).toBe('open');
  });
});
