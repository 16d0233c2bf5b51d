import { eq, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { authTokens, feedback, mails, users } from '../db/schema.ts';
import { DEVICE_COOKIE } from '../http/device-cookies.ts';
import { SESSION_COOKIE } from '../http/session.ts';
import { loginWaitSeconds } from '../security/rate-limits.ts';
import { apiDocument } from '../testing/api-document.ts';
import { createTestApp } from '../testing/app.ts';

let shop: Awaited<ReturnType<typeof createTestApp>>;
let document: Awaited<ReturnType<typeof apiDocument>>;
beforeAll(async () => {
  shop = await createTestApp();
  document = await apiDocument(shop.app);
});
afterAll(() => shop.close());

let ipCounter = 0;
/** Each test speaks from its own address, so rate limits of one test don't touch another. */
const newIp = () => `10.0.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;

const sessionCookie = (response: LightMyRequestResponse) =>
  response.cookies.find((cookie) => cookie.name === SESSION_COOKIE);

async function call(
  method: 'GET' | 'POST',
  url: string,
  options: {
    json?: object;
    form?: Record<string, string>;
    sid?: string;
    ip?: string;
    headers?: Record<string, string>;
  } = {},
) {
  const response = await shop.app.inject({
    method,
    url,
    remoteAddress: options.ip ?? '10.9.9.9',
    headers: {
      ...(options.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      ...options.headers,
    },
    ...(options.json ? { payload: options.json } : {}),
    ...(options.form ? { payload: new URLSearchParams(options.form).toString() } : {}),
    ...(options.sid ? { cookies: { [SESSION_COOKIE]: options.sid } } : {}),
  });
  // Every answer is what the API document describes.
  if (url.startsWith('/api/')) expect(document.mismatch(method, url, response)).toBeNull();
  return { status: response.statusCode, body: response.json() as Record<string, unknown>, response };
}

async function lastLink(to: string, path: string) {
  const [mail] = await shop.db
    .select()
    .from(mails)
    .where(eq(mails.to, to))
    .orderBy(sql`${mails.id} desc`)
    .limit(1);
  const match = mail?.text.match(new RegExp(`https?://[^\\s]+${path}\\?[^\\s]+`));
  if (!match) throw new Error(`no ${path} link mailed to ${to}`);
  return new URL(match[0]);
}

let emailCounter = 0;
const newEmail = () => `shopper${++emailCounter}-${Date.now()}@example.com`;
const PASSWORD = 'correct horse battery';

async function registerAndConfirm(email = newEmail()) {
  const ip = newIp();
  const registration = await call('POST', '/api/registration', {
    ip,
    json: { locale: 'en', email, password: PASSWORD, password_confirmation: PASSWORD, privacy_policy: 1 },
  });
  expect(registration.status).toBe(200);
  const link = await lastLink(email, '/activate');
  const verified = await call('GET', `/api/verify?token=${link.searchParams.get('token')}`, { ip });
  expect(verified.status).toBe(200);
  return { email, sid: sessionCookie(verified.response)?.value ?? '' };
}

describe('registration and confirmation', () => {
  it('creates an unconfirmed account and mails a confirmation link that signs in once', async () => {
    const email = newEmail();
    const registration = await call('POST', '/api/registration', {
      ip: newIp(),
      json: { locale: 'ru', email, password: PASSWORD, password_confirmation: PASSWORD, privacy_policy: 1 },
    });
    expect(registration.body).toEqual({ success: true });
    const [mail] = await shop.db.select().from(mails).where(eq(mails.to, email));
    expect(mail).toMatchObject({ template: 'verify-email', locale: 'ru' });

    const token = (await lastLink(email, '/activate')).searchParams.get('token');
    const verified = await call('GET', `/api/verify?token=${token}`);
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({ success: true, user: { email, isAdmin: false } });
    const sid = sessionCookie(verified.response)?.value;
    expect((await call('GET', '/api/user', { sid })).body.user).toMatchObject({ email });

    const reused = await call('GET', `/api/verify?token=${token}`);
    expect(reused.status).toBe(422);
    expect(reused.body).toMatchObject({
      success: false,
      errors: { token: [expect.stringMatching(/invalid|expired/)] },
    });
  });

  it('refuses mismatched confirmation, missing consent and a short password', async () => {
    const ip = newIp();
    const email = newEmail();
    const base = {
      locale: 'en',
      email,
      password: PASSWORD,
      password_confirmation: PASSWORD,
      privacy_policy: 1,
    };
    const mismatch = await call('POST', '/api/registration', {
      ip,
      json: { ...base, password_confirmation: 'other one!' },
    });
    expect(mismatch.status).toBe(422);
    expect(mismatch.body.errors).toEqual({ password_confirmation: ['The passwords do not match.'] });

    const noConsent = await call('POST', '/api/registration', { ip, json: { ...base, privacy_policy: 0 } });
    expect(noConsent.body.errors).toEqual({ privacy_policy: ['Please accept the personal data agreement.'] });

    const short = await call('POST', '/api/registration', {
      ip,
      json: { ...base, password: 'abc', password_confirmation: 'abc' },
    });
    expect(short.body.errors).toEqual({ password: ['The password must be at least 8 characters long.'] });

    expect(await shop.db.select().from(users).where(eq(users.email, email))).toEqual([]);
  });

  it('answers the same for an address that has an account, and mails its owner instead', async () => {
    const email = newEmail();
    const body = { email, password: PASSWORD, password_confirmation: PASSWORD, privacy_policy: 1 };
    const created = await call('POST', '/api/registration', { ip: newIp(), json: { ...body, locale: 'en' } });
    const again = await call('POST', '/api/registration', {
      ip: newIp(),
      json: {
        ...body,
        locale: 'ru',
        email: email.toUpperCase(),
        password: 'another password 2',
        password_confirmation: 'another password 2',
      },
    });
    expect(again.status).toBe(created.status);
    expect(again.body).toEqual(created.body);
    expect(again.body).toEqual({ success: true });
    expect(await shop.db.select().from(users).where(eq(users.email, email))).toHaveLength(1);
    const sent = await shop.db.select().from(mails).where(eq(mails.to, email)).orderBy(mails.id);
    expect(sent.map((mail) => mail.template)).toEqual(['verify-email', 'account-exists']);
    // In the owner's language, with the ways back in, and no new confirmation link.
    expect(sent[1]?.subject).toBe('Someone tried to register with your address');
    expect(sent[1]?.text).toContain('/login');
    expect(sent[1]?.text).toContain('/restore');
    expect(sent[1]?.text).not.toContain('/activate');
  });

  it('mails the owner of an existing address in Russian when that is their language', async () => {
    const email = newEmail();
    const body = { email, password: PASSWORD, password_confirmation: PASSWORD, privacy_policy: 1 };
    await call('POST', '/api/registration', { ip: newIp(), json: { ...body, locale: 'ru' } });
    await call('POST', '/api/registration', { ip: newIp(), json: { ...body, locale: 'en' } });
    const [, exists] = await shop.db.select().from(mails).where(eq(mails.to, email)).orderBy(mails.id);
    expect(exists).toMatchObject({ template: 'account-exists', locale: 'ru' });
    expect(exists?.subject).toBe('Попытка регистрации с вашим адресом');
  });

  it('answers errors in the language asked for', async () => {
    const answer = await call('POST', '/api/registration', {
      ip: newIp(),
      json: {
        locale: 'ru',
        email: 'not-an-email',
        password: PASSWORD,
        password_confirmation: PASSWORD,
        privacy_policy: 1,
      },
    });
    expect(answer.body.errors).toEqual({ email: ['Введите правильный адрес e-mail.'] });
  });
});

describe('sign-in and sessions', () => {
  it('refuses a wrong password and an unknown e-mail with the same answer', async () => {
    const { email } = await registerAndConfirm();
    const wrong = await call('POST', '/api/login', {
      ip: newIp(),
      json: { email, password: 'wrong password', remember: 1 },
    });
    const unknown = await call('POST', '/api/login', {
      ip: newIp(),
      json: { email: newEmail(), password: 'wrong password', remember: 1 },
    });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
    expect(sessionCookie(wrong.response)).toBeUndefined();
  });

  it('refuses an account whose e-mail is not confirmed', async () => {
    const email = newEmail();
    const ip = newIp();
    await call('POST', '/api/registration', {
      ip,
      json: { locale: 'en', email, password: PASSWORD, password_confirmation: PASSWORD, privacy_policy: 1 },
    });
    const login = await call('POST', '/api/login', { ip, json: { email, password: PASSWORD } });
    expect(login.status).toBe(403);
    expect(login.body.message).toMatch(/Confirm your e-mail/);
  });

  it('sets an HttpOnly, SameSite=Lax, long-lived cookie and renews the session id at every sign-in', async () => {
    const { email } = await registerAndConfirm();
    const ip = newIp();
    const first = await call('POST', '/api/login', { ip, json: { email, password: PASSWORD, remember: 1 } });
    expect(first.status).toBe(200);
    const cookie = sessionCookie(first.response);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(new Date(cookie?.expires ?? 0).getTime() - Date.now()).toBeGreaterThan(29 * 24 * 3600_000);

    const second = await call('POST', '/api/login', {
      ip,
      sid: cookie?.value,
      json: { email, password: PASSWORD },
    });
    const renewed = sessionCookie(second.response)?.value;
    expect(renewed).toBeTruthy();
    expect(renewed).not.toBe(cookie?.value);
    expect((await call('GET', '/api/user', { sid: cookie?.value })).body.user).toBeNull();
    expect((await call('GET', '/api/user', { sid: renewed })).body.user).toMatchObject({ email });
  });

  it('logout ends the session and tells the browser to forget its cookie', async () => {
    const { sid } = await registerAndConfirm();
    const logout = await call('POST', '/api/logout', { sid });
    expect(logout.status).toBe(200);
    const cleared = sessionCookie(logout.response);
    expect(cleared?.value).toBe('');
    expect(cleared?.expires?.getTime()).toBeLessThan(Date.now());
    expect((await call('GET', '/api/user', { sid })).body).toEqual({ success: true, user: null });
  });

  const login = (ip: string, email: string, password: string, device?: string) =>
    call('POST', '/api/login', {
      ip,
      json: { email, password },
      ...(device ? { headers: { cookie: `${DEVICE_COOKIE}=${device}` } } : {}),
    });
  /** The device cookie a sign-in gave its browser. */
  const deviceCookie = (response: LightMyRequestResponse) =>
    response.cookies.find((cookie) => cookie.name === DEVICE_COOKIE)?.value ?? '';

  it("never locks the owner out: a stranger's wrong guesses from elsewhere leave the owner's browser alone", async () => {
    const { email } = await registerAndConfirm();
    const device = deviceCookie((await login(newIp(), email, PASSWORD)).response);
    const statuses: number[] = [];
    for (const stranger of [newIp(), newIp(), newIp()]) {
      for (let attempt = 0; attempt < 8; attempt++) {
        statuses.push((await login(stranger, email, 'wrong password')).status);
      }
    }
    // Each stranger's address waits after its sixth wrong guess (eight from anywhere used to lock the account).
    expect(statuses.slice(0, 6)).toEqual(Array(6).fill(401));
    expect(statuses[6]).toBe(429);
    expect((await login(newIp(), email, PASSWORD, device)).status).toBe(200);
  });

  it("slows 40 guesses from 40 addresses at one account, while the owner's known browser signs in at once", async () => {
    const { email } = await registerAndConfirm();
    const ownerIp = newIp();
    const signedIn = await login(ownerIp, email, PASSWORD);
    const device = deviceCookie(signedIn.response);
    expect(device).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(signedIn.response.cookies.find((cookie) => cookie.name === DEVICE_COOKIE)).toMatchObject({
      httpOnly: true,
      sameSite: 'Lax',
      path: '/',
    });

    const answers = [];
    for (let stranger = 0; stranger < 40; stranger++)
      answers.push(await login(newIp(), email, 'wrong guess'));
    const statuses = answers.map((answer) => answer.status);
    // Ten free failures from unknown browsers, then each further one makes them wait twice as long.
    expect(statuses.slice(0, 11)).toEqual(Array(11).fill(401));
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(25);
    for (const answer of answers.filter((each) => each.status === 429)) {
      expect(Number(answer.response.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    }

    // The owner's browser, from yet another address, signs in at once…
    const owner = await login(newIp(), email, PASSWORD, device);
    expect(owner.status).toBe(200);
    expect(owner.body.user).toMatchObject({ email });
    // …while an unknown browser must wait, even with the right password, and so must a forged cookie.
    const unknown = await login(newIp(), email, PASSWORD);
    expect(unknown.status).toBe(429);
    expect(Number(unknown.response.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    const [account, nonce] = device.split('.');
    expect((await login(newIp(), email, PASSWORD, `${account}.${nonce}.forged`)).status).toBe(429);
    // A device cookie is the account's own: another account's browser is unknown to this one.
    const other = await registerAndConfirm();
    const otherDevice = deviceCookie((await login(newIp(), other.email, PASSWORD)).response);
    expect((await login(newIp(), email, PASSWORD, otherDevice)).status).toBe(429);
  });

  it('locks out a known browser that keeps guessing, with Retry-After', async () => {
    const { email } = await registerAndConfirm();
    const device = deviceCookie((await login(newIp(), email, PASSWORD)).response);
    const statuses: number[] = [];
    // From a new address each time: only the device cookie's count is left to stop it.
    for (let attempt = 0; attempt < 12; attempt++) {
      statuses.push((await login(newIp(), email, 'wrong guess', device)).status);
    }
    expect(statuses.slice(0, 11)).toEqual(Array(11).fill(401));
    expect(statuses[11]).toBe(429);
    const locked = await login(newIp(), email, PASSWORD, device);
    expect(locked.status).toBe(429);
    expect(Number(locked.response.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });

  it('makes an address guessing one account wait, longer after each further wrong guess, with Retry-After', async () => {
    const { email } = await registerAndConfirm();
    const ip = newIp();
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 6; attempt++) statuses.push((await login(ip, email, 'wrong')).status);
    expect(statuses).toEqual(Array(6).fill(401));
    const waiting = await login(ip, email, PASSWORD);
    expect(waiting.status).toBe(429);
    expect(waiting.response.headers['retry-after']).toBe('2');

    // Two seconds later on the limiter's clock (Date), without waiting them.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 2_100 });
    try {
      expect((await login(ip, email, 'wrong')).status).toBe(401);
      expect((await login(ip, email, PASSWORD)).response.headers['retry-after']).toBe('4');
    } finally {
      vi.useRealTimers();
    }
    expect(loginWaitSeconds(5, 5)).toBe(0);
    expect([6, 7, 8, 9, 20].map((failures) => loginWaitSeconds(failures, 5))).toEqual([2, 4, 8, 16, 900]);
  });

  it('forgets the failures of an address and account at a successful sign-in', async () => {
    const { email } = await registerAndConfirm();
    const ip = newIp();
    for (let attempt = 0; attempt < 5; attempt++) await login(ip, email, 'wrong');
    expect((await login(ip, email, PASSWORD)).status).toBe(200);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 5; attempt++) statuses.push((await login(ip, email, 'wrong')).status);
    expect(statuses).toEqual(Array(5).fill(401));
  });

  it('throttles one address guessing many accounts, and only that address', async () => {
    const { email } = await registerAndConfirm();
    const ip = newIp();
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 22; attempt++) {
      statuses.push((await login(ip, newEmail(), 'wrong')).status);
    }
    expect(statuses.slice(0, 21)).toEqual(Array(21).fill(401));
    expect(statuses[21]).toBe(429);
    expect((await login(ip, email, PASSWORD)).status).toBe(429);
    expect((await login(newIp(), email, PASSWORD)).status).toBe(200);
  });

  it('trips the per-address limit on restore', async () => {
    const ip = newIp();
    const statuses = [];
    for (let attempt = 0; attempt < 11; attempt++) {
      statuses.push((await call('POST', '/api/restore', { ip, form: { email: newEmail() } })).status);
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200));
    expect(statuses[10]).toBe(429);
  });
});

describe('password restore and reset', () => {
  it('answers identically for known and unknown addresses and mails only the known one', async () => {
    const { email } = await registerAndConfirm();
    const unknown = newEmail();
    const known = await call('POST', '/api/restore', { ip: newIp(), form: { email } });
    const stranger = await call('POST', '/api/restore', { ip: newIp(), form: { email: unknown } });
    expect(known.status).toBe(stranger.status);
    expect(known.body).toEqual(stranger.body);
    expect(await shop.db.select().from(mails).where(eq(mails.to, unknown))).toEqual([]);
    expect((await lastLink(email, '/reset')).searchParams.get('email')).toBe(email);
  });

  it('sets a new password once with the token and ends every session', async () => {
    const { email, sid } = await registerAndConfirm();
    await call('POST', '/api/restore', { ip: newIp(), form: { email } });
    const token = (await lastLink(email, '/reset')).searchParams.get('token') ?? '';
    const form = { email, password: 'brand new secret', password_confirmation: 'brand new secret', token };

    const mismatch = await call('POST', '/api/reset', {
      ip: newIp(),
      form: { ...form, password_confirmation: 'nope nope nope' },
    });
    expect(mismatch.status).toBe(422);

    expect((await call('POST', '/api/reset', { ip: newIp(), form })).status).toBe(200);
    expect((await call('GET', '/api/user', { sid })).body.user).toBeNull();
    expect(
      (await call('POST', '/api/login', { ip: newIp(), json: { email, password: PASSWORD } })).status,
    ).toBe(401);
    expect(
      (await call('POST', '/api/login', { ip: newIp(), json: { email, password: 'brand new secret' } }))
        .status,
    ).toBe(200);

    const reused = await call('POST', '/api/reset', {
      ip: newIp(),
      form: { ...form, password: 'third secret!', password_confirmation: 'third secret!' },
    });
    expect(reused.status).toBe(422);
    expect(reused.body.errors).toMatchObject({ token: [expect.any(String)] });
  });

  it('refuses an expired token and a token of another account', async () => {
    const { email } = await registerAndConfirm();
    const other = await registerAndConfirm();
    await call('POST', '/api/restore', { ip: newIp(), form: { email } });
    const token = (await lastLink(email, '/reset')).searchParams.get('token') ?? '';
    const form = { password: 'brand new secret', password_confirmation: 'brand new secret', token };
    expect(
      (await call('POST', '/api/reset', { ip: newIp(), form: { ...form, email: other.email } })).status,
    ).toBe(422);

    await shop.db
      .update(authTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(authTokens.purpose, 'reset'));
    expect((await call('POST', '/api/reset', { ip: newIp(), form: { ...form, email } })).status).toBe(422);
  });
});

describe('personal details', () => {
  it('changes only the non-empty fields, through POST with _method=PATCH', async () => {
    const { sid } = await registerAndConfirm();
    const first = await call('POST', '/api/user/0', {
      sid,
      form: { _method: 'PATCH', first_name: 'Anna', last_name: 'Petrova', city: 'Kazan', country: 'RU' },
    });
    expect(first.status).toBe(200);
    const second = await call('POST', '/api/user/0', {
      sid,
      form: { _method: 'PATCH', first_name: '', city: 'Moscow' },
    });
    expect(second.body.user).toMatchObject({
      first_name: 'Anna',
      last_name: 'Petrova',
      city: 'Moscow',
      country: 'RU',
    });
  });

  it('refuses guests, a bad country and an unknown _method', async () => {
    expect((await call('POST', '/api/user/0', { form: { _method: 'PATCH', city: 'Moscow' } })).status).toBe(
      401,
    );
    const { sid } = await registerAndConfirm();
    const country = await call('POST', '/api/user/0', { sid, form: { _method: 'PATCH', country: 'Russia' } });
    expect(country.status).toBe(422);
    expect((await call('POST', '/api/user/0', { sid, form: { _method: 'PUT', city: 'X' } })).status).toBe(
      422,
    );
  });

  it('keeps HTML and SQL typed into a field as inert text', async () => {
    const { sid, email } = await registerAndConfirm();
    const hostile = {
      first_name: '<script>alert(1)</script>',
      last_name: "'); drop table users; --",
      address: '<img src=x onerror=alert(1)>',
    };
    const saved = await call('POST', '/api/user/0', { sid, form: { _method: 'PATCH', ...hostile } });
    expect(saved.body.user).toMatchObject(hostile);
    expect(saved.response.headers['content-type']).toMatch(/application\/json/);
    const [row] = await shop.db.select().from(users).where(eq(users.email, email));
    expect(row?.firstName).toBe(hostile.first_name);
  });
});

describe('cross-site requests', () => {
  it('refuses a state-changing request from another origin and changes nothing', async () => {
    const email = newEmail();
    const forged = await call('POST', '/api/registration', {
      headers: { origin: 'https://evil.example' },
      json: { locale: 'en', email, password: PASSWORD, password_confirmation: PASSWORD, privacy_policy: 1 },
    });
    expect(forged.status).toBe(403);
    expect(await shop.db.select().from(users).where(eq(users.email, email))).toEqual([]);
    const fetchMetadata = await call('POST', '/api/logout', { headers: { 'sec-fetch-site': 'cross-site' } });
    expect(fetchMetadata.status).toBe(403);
  });

  it('accepts the same origin', async () => {
    const same = await call('POST', '/api/restore', {
      ip: newIp(),
      headers: { origin: 'http://localhost:80', host: 'localhost:80' },
      form: { email: newEmail() },
    });
    expect(same.status).toBe(200);
  });
});

describe('feedback', () => {
  const multipart = (fields: Record<string, string>) => {
    const boundary = '----vitrina-test';
    const body = `${Object.entries(fields)
      .map(
        ([name, value]) =>
          `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
      )
      .join('')}--${boundary}--\r\n`;
    return { body, contentType: `multipart/form-data; boundary=${boundary}` };
  };

  it('stores the message and mails it to the shop', async () => {
    const { body, contentType } = multipart({
      name: 'Ivan',
      email: 'ivan@example.com',
      message: 'Will you restock the <b>mug</b>?',
    });
    const response = await shop.app.inject({
      method: 'POST',
      url: '/api/feedback',
      remoteAddress: newIp(),
      headers: { 'content-type': contentType },
      payload: body,
    });
    expect(response.json()).toEqual({ success: true });
    const [row] = await shop.db.select().from(feedback).where(eq(feedback.email, 'ivan@example.com'));
    expect(row?.message).toBe('Will you restock the <b>mug</b>?');
    const [mail] = await shop.db.select().from(mails).where(eq(mails.template, 'feedback'));
    expect(mail?.to).toBe(shop.services.config.shopEmail);
    expect(mail?.html).toContain('&lt;b&gt;mug&lt;/b&gt;');
  });

  it('requires every field and limits senders', async () => {
    const ip = newIp();
    const missing = await call('POST', '/api/feedback', { ip, json: { name: '', email: 'a@example.com' } });
    expect(missing.status).toBe(422);
    expect(Object.keys(missing.body.errors as object).sort()).toEqual(['message', 'name']);
    const statuses = [];
    for (let attempt = 0; attempt < 6; attempt++) {
      statuses.push(
        (
          await call('POST', '/api/feedback', {
            ip,
            json: { name: 'A', email: `f${attempt}@example.com`, message: 'Hi' },
          })
        ).status,
      );
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });
});
