import http from 'node:http';
import { describe, expect, inject, it } from 'vitest';
import { answerTo, send } from './raw-http.ts';

describe('page requests the app cannot read', () => {
  const baseUrl = inject('baseUrl');

  it('answers a Host that names no host with 400', async () => {
    // A Host with a path, a query or a fragment would make React Router render another address.
    for (const host of ['bad host', 'a:b:c', '[::1', 'shop.test/profile#', 'shop.test?x=', 'shop.test#a']) {
      const answer = await send(`${baseUrl}/product/anything`, { headers: { host } });
      expect(answer.status, host).toBe(400);
      expect(answer.body).toContain('The Host header does not name a host');
    }
  });

  it('keeps no page for an address the URL parser rewrites to another page', async () => {
    // Sent as it is (node:http would not rewrite a path given apart from the URL).
    const pageCacheOf = (path: string) =>
      new Promise<string | undefined>((resolve, reject) => {
        const { hostname, port } = new URL(baseUrl);
        const request = http.request(
          { hostname, port, path, headers: { cookie: 'vitrina.sid=someone' }, agent: false },
          (response) => {
            response.resume();
            response.on('end', () => resolve(response.headers['x-page-cache'] as string | undefined));
          },
        );
        request.on('error', reject);
        request.end();
      });
    for (const path of ['/product/..\\cart', '/product/%2e%2e/cart', '/category/./x']) {
      expect(await pageCacheOf(path), path).toBeUndefined();
      expect(await pageCacheOf(path), path).toBeUndefined();
    }
    // The same request for a catalogue page is kept.
    await pageCacheOf('/category/t-shirts');
    expect(await pageCacheOf('/category/t-shirts')).toBe('hit');
  });

  it('answers a page form sent as anything but a form with 415, and one from an Origin that is no URL with 403', async () => {
    const json = await send(`${baseUrl}/locale`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"locale":"ru"}',
    });
    expect(json.status).toBe(415);
    expect((await send(`${baseUrl}/feedback`, { method: 'PUT' })).status).toBe(415);
    const origin = await send(`${baseUrl}/locale`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'not a url' },
      body: 'locale=ru',
    });
    // The origin check refuses it before React Router would fail on it.
    expect(origin.status).toBe(403);
  });

  it('still takes a form, and a form with a charset', async () => {
    const form = await send(`${baseUrl}/locale`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8' },
      body: 'locale=ru&redirectTo=%2Fabout',
    });
    expect(form.status).toBe(302);
  });

  const form = (body: string, headers: Record<string, string> = {}) => ({
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body,
  });

  it('returns a form only to a path on the shop, and answers control characters in the address with 400', async () => {
    for (const page of ['/locale', '/overlay']) {
      for (const target of [
        '/%5Cevil.example',
        '//evil.example',
        'https://evil.example/',
        '/%252F%252Fevil.example',
      ]) {
        const answer = await send(
          `${baseUrl}${page}`,
          form(`locale=ru&redirectTo=${encodeURIComponent(target)}`),
        );
        expect(answer.status, `${page} ${target}`).toBe(302);
        expect(answer.location, `${page} ${target}`).toBe('/');
      }
      for (const target of ['/a%0d%0aSet-Cookie:%20x=1', '/%09/evil.example/x']) {
        const answer = await send(`${baseUrl}${page}`, form(`locale=ru&redirectTo=${target}`));
        expect(answer.status, `${page} ${target}`).toBe(400);
        expect(answer.setCookie, `${page} ${target}`).toEqual([]);
      }
    }
  });

  it('refuses /login?redirectTo= to another site before signing in', async () => {
    const credentials = `email=${encodeURIComponent('admin@vitrina.example')}&password=e2e-admin-password`;
    const tab = await send(`${baseUrl}/login?redirectTo=/%09/evil.example/x`, form(credentials));
    expect(tab.status).toBe(400);
    expect(tab.setCookie).toEqual([]);
    const elsewhere = await send(`${baseUrl}/login?redirectTo=/%5Cevil.example`, form(credentials));
    expect(elsewhere.status).toBe(302);
    expect(elsewhere.location).toBe('/');
  });

  it('answers a multipart form cut short with 400, and a 50 MB form with 413 unread', async () => {
    const cut = await send(`${baseUrl}/feedback`, {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=XX' },
      body: '--XX\r\nContent-Disposition: form-data; name="name"\r\n\r\nAnna',
    });
    expect(cut.status).toBe(400);
    // A 50 MB form announced by its Content-Length is refused before its body is sent: the answer
    // comes while the sender still holds the rest (sending it all would race the server's close).
    const huge = http.request(`${baseUrl}/feedback`, {
      method: 'POST',
      agent: false,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'content-length': String(50 * 1024 * 1024),
        origin: baseUrl,
      },
    });
    const answer = answerTo(huge);
    huge.write(`message=${'x'.repeat(64 * 1024)}`);
    expect((await answer).status).toBe(413);
    huge.destroy();
  });
});
