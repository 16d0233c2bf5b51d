import { describe, expect, inject, it } from 'vitest';
import { send } from './raw-http.ts';

describe('page requests the app cannot read', () => {
  const baseUrl = inject('baseUrl');

  it('answers a Host that names no host with 400', async () => {
    for (const host of ['bad host', 'a:b:c', '[::1']) {
      const answer = await send(`${baseUrl}/product/anything`, { headers: { host } });
      expect(answer.status, host).toBe(400);
      expect(answer.body).toContain('The Host header does not name a host');
    }
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
});
