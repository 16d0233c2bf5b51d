import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basketItems } from '../db/schema.ts';
import { createTestApp } from '../testing/app.ts';
import { insertCatalogue } from '../testing/catalog-fixtures.ts';
import { nulCharacterAt } from './input-checks.ts';

/** Malformed input the load suite's fuzz pass found answered 500; each now gets a 4xx and changes nothing. */

let shop: Awaited<ReturnType<typeof createTestApp>>;

beforeAll(async () => {
  shop = await createTestApp();
  await insertCatalogue(shop.db);
});
afterAll(() => shop.close());

const send = (method: 'GET' | 'POST', url: string, payload?: string, contentType = 'application/json') =>
  shop.app.inject({ method, url, payload, headers: payload ? { 'content-type': contentType } : {} });

describe('malformed input', () => {
  it('refuses text holding U+0000 in the query, the path or the body', async () => {
    const search = await send('GET', '/api/search?locale=en&search=%00');
    expect(search.statusCode).toBe(422);
    expect(search.json()).toMatchObject({
      success: false,
      errors: { 'query.search': ['Please check the form.'] },
    });
    expect((await send('GET', '/api/admin/products/%00')).statusCode).toBe(422);
    const feedback = await send(
      'POST',
      '/api/feedback',
      '{"name":"a\\u0000b","email":"a@b.example","message":"hi"}',
    );
    expect(feedback.statusCode).toBe(422);
    expect(feedback.json()).toMatchObject({ errors: { name: ['Please check the form.'] } });
  });

  it('refuses a multipart body without a boundary with a 400', async () => {
    const answer = await send('POST', '/api/login', 'x', 'multipart/form-data');
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toMatchObject({ success: false });
  });

  it('takes ids only as JSON numbers or form text, and only within the database integer range', async () => {
    for (const product of [2_147_483_648, 1e20, [[1]], true, null]) {
      const answer = await send('POST', '/api/basket', JSON.stringify({ product }));
      expect(answer.statusCode, JSON.stringify(product)).toBe(422);
    }
    expect(
      (await send('POST', '/api/paypal/status', 'order=2147483648', 'application/x-www-form-urlencoded'))
        .statusCode,
    ).toBe(422);
    expect(await shop.db.select().from(basketItems)).toEqual([]);
  });

  it('reads a JSON null body as no object, not as an empty form', async () => {
    expect((await send('POST', '/api/paypal/status', 'null')).statusCode).toBe(422);
  });

  it('finds the first string holding U+0000 in a parsed value', () => {
    expect(nulCharacterAt({ a: 'ok', b: [{ c: 'x\u0000' }] })).toBe('b.0.c');
    expect(nulCharacterAt('\u0000', ['query'])).toBe('query');
    expect(nulCharacterAt({ a: 1, b: Buffer.from([0]) })).toBeNull();
  });

  it('leaves alone what is not parsed data, such as the raw request stream a page form arrives as', () => {
    const stream = Readable.from(['name=x\u0000']);
    const circular: Record<string, unknown> = { stream };
    circular.self = stream;
    expect(nulCharacterAt(stream)).toBeNull();
    expect(nulCharacterAt(circular)).toBeNull();
  });
});
