import { Ajv2020 } from 'ajv/dist/2020.js';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../testing/app.ts';

/**
 * The document is the contract (issue 32, ADR 0055): answers, Fastify's own refusals included, are
 * validated with ajv against the schemas `/api/docs/json` publishes for their operation and status
 * (the operation's `default` answer for a refusal).
 */

interface Operation {
  responses: Record<string, { content?: { 'application/json'?: { schema: object } } }>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
}

let shop: Awaited<ReturnType<typeof createTestApp>>;
let document: Document;
const ajv = new Ajv2020({ strict: false, allErrors: true });

beforeAll(async () => {
  shop = await createTestApp();
  document = (await shop.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
});
afterAll(() => shop.close());

/** The documented schema of an answer: its operation's, by status, else the operation's default. */
function documentedSchema(method: string, url: string, status: number): object {
  const path = url.split('?', 1)[0] ?? url;
  const template = Object.keys(document.paths).find((each) =>
    new RegExp(`^${each.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path),
  );
  // A path no operation has: the refusal every operation documents.
  const operation =
    (template ? document.paths[template]?.[method.toLowerCase()] : undefined) ??
    (document.paths['/api/user']?.get as Operation);
  const answer = operation.responses[String(status)] ?? operation.responses.default;
  const schema = answer?.content?.['application/json']?.schema;
  if (!schema) throw new Error(`${method} ${url}: no documented answer for ${status}`);
  return schema;
}

function expectDocumented(method: string, url: string, response: LightMyRequestResponse) {
  const validate = ajv.compile(documentedSchema(method, url, response.statusCode));
  const valid = validate(response.json());
  expect(
    valid,
    `${method} ${url} ${response.statusCode} ${response.body}\n${ajv.errorsText(validate.errors)}`,
  ).toBe(true);
}

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
      expectDocumented(method, url, response);
    });
  }

  it('documents the refusal fields a 409 or 422 adds, and no others', () => {
    const schema = documentedSchema('POST', '/api/order', 409);
    const validate = ajv.compile(schema);
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
