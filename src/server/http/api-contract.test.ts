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

/**
 * Where a JSON schema lets values through undescribed: an object open to fields it does not name
 * (no `additionalProperties: false`, or any value allowed for them), a schema that allows anything
 * (`{}`), or one that refers back to itself (any JSON value).
 */
function openEndedParts(
  schema: unknown,
  definitions: Record<string, unknown>,
  at = '',
  refs: string[] = [],
): string[] {
  if (typeof schema !== 'object' || schema === null) return schema === true ? [`${at} allows anything`] : [];
  const node = schema as Record<string, unknown>;
  if (Object.keys(node).filter((key) => key !== 'description').length === 0) return [`${at} allows anything`];
  if (typeof node.$ref === 'string') {
    if (refs.includes(node.$ref)) return [`${at} refers to itself (any JSON value)`];
    const name = node.$ref.replace('#/$defs/', '');
    return openEndedParts(definitions[name], definitions, at, [...refs, node.$ref]);
  }
  const found: string[] = [];
  if (node.type === 'object' && !node.properties && !node.additionalProperties)
    found.push(`${at} has no fields named`);
  if (node.type === 'object' && node.properties && node.additionalProperties !== false)
    found.push(`${at} takes fields it does not name`);
  for (const [key, value] of Object.entries(node)) {
    if (key === '$defs') continue;
    const children = Array.isArray(value)
      ? value
      : typeof value === 'object' && value !== null
        ? [value]
        : [];
    if (key === 'properties')
      for (const [name, property] of Object.entries(value as Record<string, unknown>))
        found.push(...openEndedParts(property, definitions, `${at}.${name}`, refs));
    else if (['items', 'prefixItems', 'anyOf', 'oneOf', 'allOf', 'additionalProperties'].includes(key))
      for (const child of children) found.push(...openEndedParts(child, definitions, `${at}[${key}]`, refs));
  }
  return found;
}

describe('success answers described field by field', () => {
  /** Operations whose success answer keeps values of any shape, each with the reason. */
  const openEnded: Record<string, string> = {
    'GET /api/admin/audit':
      'an audit entry keeps the changed record before and after, whatever record it is (any JSON value)',
  };

  it('documents no success answer open to undescribed fields, but the ones listed with a reason', async () => {
    const paths: Record<string, Record<string, { responses: Record<string, unknown> }>> = (
      await shop.app.inject({ method: 'GET', url: '/api/docs/json' })
    ).json().paths;
    const found: Record<string, string[]> = {};
    for (const [path, operations] of Object.entries(paths))
      for (const [method, operation] of Object.entries(operations))
        for (const [status, answer] of Object.entries(operation.responses)) {
          if (!status.startsWith('2')) continue;
          const schema = (
            answer as { content?: Record<string, { schema: { $defs?: Record<string, unknown> } }> }
          ).content?.['application/json']?.schema;
          const parts = openEndedParts(schema, schema?.$defs ?? {});
          if (parts.length > 0) found[`${method.toUpperCase()} ${path}`] = parts;
        }
    expect(Object.keys(found).sort()).toEqual(Object.keys(openEnded).sort());
  });

  it('fails a success answer that carries a field the document does not describe', () => {
    const validate = document.validator(document.schemaOf('GET', '/api/admin/projects', 200));
    const project = {
      id: 1,
      name_ru: 'Проект',
      name_en: 'Project',
      link: 'project',
      image: null,
      visible: true,
      position: 0,
      version: 1,
      imageMissing: false,
    };
    expect(validate({ success: true, projects: [project] })).toBe(true);
    expect(validate({ success: true, projects: [{ ...project, secret: 'x' }] })).toBe(false);
    expect(validate({ success: true, projects: [project], undocumented: 1 })).toBe(false);
  });
});
