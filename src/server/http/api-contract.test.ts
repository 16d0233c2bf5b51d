import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiDocument } from '../testing/api-document.ts';
import { createTestApp } from '../testing/app.ts';

/**
 * The document is the contract (issue 32, ADR 0055): answers, Fastify's own refusals included, are
 * validated with ajv against the schemas `/api/docs/json` publishes for their operation and status
 * (the operation's `default` answer for a refusal).
 */

let shop: Awaited<ReturnType<typeof createTestApp>>;
let document: Awaited<ReturnType<typeof apiDocument>>;

beforeAll(async () => {
  shop = await createTestApp();
  document = await apiDocument(shop.app);
});
afterAll(() => shop.close());

describe('answers as the API document describes them', () => {
  const cases: Array<[string, string, number, Record<string, string>?, string?]> = [
    ['GET', '/api/product/%zz', 400],
    ['GET', '/api/nothing-here', 404],
    ['POST', '/api/login', 415, { 'content-type': 'application/xml' }, '<login/>'],
    ['POST', '/api/login', 400, { 'content-type': 'application/json' }, '{"email": '],
    [
      'POST',
      '/api/login',
      413,
      { 'content-type': 'application/json' },
      `{"email":"${'a'.repeat(1_100_000)}"}`,
    ],
    ['POST', '/api/login', 422, { 'content-type': 'application/json' }, '{}'],
    [
      'POST',
      '/api/login',
      401,
      { 'content-type': 'application/json' },
      '{"email":"nobody@example.com","password":"wrong password"}',
    ],
    ['POST', '/api/user/two-factor', 401],
    ['GET', '/api/admin/orders', 401],
    ['GET', '/api/user', 200],
  ];
  for (const [method, url, status, headers, payload] of cases) {
    it(`${method} ${url.slice(0, 40)} answers ${status} in the documented shape`, async () => {
      const response = await shop.app.inject({
        method: method as 'GET' | 'POST',
        url,
        ...(headers ? { headers } : {}),
        ...(payload === undefined ? {} : { payload }),
      });
      expect(response.statusCode).toBe(status);
      expect(document.mismatch(method, url, response)).toBeNull();
    });
  }

  it('documents the refusal fields a 409 or 422 adds, and no others', () => {
    const validate = document.validator(document.schemaOf('POST', '/api/order', 409));
    const refusal = {
      success: false,
      errors: { basket: ['x'] },
      message: 'x',
      intlError: 'basket-unavailable',
    };
    expect(validate({ ...refusal, unavailable: [3, 4] })).toBe(true);
    expect(validate({ ...refusal, unavailable: ['3'] })).toBe(false);
    expect(validate({ ...refusal, undocumented: true })).toBe(false);
    expect(validate({ error: 'Bad Request', code: 'FST_ERR_BAD_URL', message: 'x', statusCode: 400 })).toBe(
      false,
    );
  });
});
