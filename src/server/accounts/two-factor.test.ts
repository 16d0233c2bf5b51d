import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../db/schema.ts';
import { SESSION_COOKIE } from '../http/session.ts';
import { apiDocument } from '../testing/api-document.ts';
import { createTestApp } from '../testing/app.ts';
import { hashPassword } from './passwords.ts';

/** Two-step sign-in for staff (ADR 0055), with the shop requiring it of admins. */

let shop: Awaited<ReturnType<typeof createTestApp>>;
let document: Awaited<ReturnType<typeof apiDocument>>;
beforeAll(async () => {
  shop = await createTestApp({ env: { ADMIN_TWO_FACTOR: 'required' } });
  document = await apiDocument(shop.app);
});
afterAll(() => shop.close());

const PASSWORD = 'staff password 1';
let counter = 0;

async function staffMember(role: 'admin' | 'manager') {
  const email = `${role}${++counter}@example.com`;
  await shop.db.insert(users).values({
    email,
    passwordHash: await hashPassword(PASSWORD),
    role,
    emailVerifiedAt: new Date(),
  });
  return email;
}

const sessionOf = (response: LightMyRequestResponse) =>
  response.cookies.find((cookie) => cookie.name === SESSION_COOKIE)?.value;

async function call(method: 'GET' | 'POST', url: string, sid?: string, payload?: object) {
  const response = await shop.app.inject({
    method,
    url,
    remoteAddress: `10.7.0.${counter}`,
    ...(payload ? { payload } : {}),
    ...(sid ? { cookies: { [SESSION_COOKIE]: sid } } : {}),
  });
  // Every answer is what the API document describes.
  expect(document.mismatch(method, url, response)).toBeNull();
  return { status: response.statusCode, body: response.json() as Record<string, unknown>, response };
}

/** The code an authenticator app holding the URI's secret shows now (RFC 6238, as the app computes it). */
const appCode = (uri: string) => {
  const secret = new URL(uri).searchParams.get('secret') ?? '';
  return new TOTP({ secret: Secret.fromBase32(secret) }).generate();
};

/** Signs in with the password and enrols: answers the session, the otpauth URI and the recovery codes. */
async function enrol(email: string) {
  const login = await call('POST', '/api/login', undefined, { email, password: PASSWORD });
  expect(login.body).toMatchObject({ success: true, user: { email } });
  const sid = sessionOf(login.response);
  const setup = await call('POST', '/api/user/two-factor', sid);
  expect(setup.status).toBe(200);
  const uri = String(setup.body.uri);
  const confirmed = await call('POST', '/api/user/two-factor/confirm', sid, { code: appCode(uri) });
  expect(confirmed.status).toBe(200);
  return { sid, uri, setup: setup.body, recoveryCodes: confirmed.body.recoveryCodes as string[] };
}

describe('two-step sign-in for staff', () => {
  it('keeps an admin without it out of the back office until it is on', async () => {
    const email = await staffMember('admin');
    const login = await call('POST', '/api/login', undefined, { email, password: PASSWORD });
    const sid = sessionOf(login.response);
    const refused = await call('GET', '/api/admin/orders', sid);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ success: false, intlError: 'two-factor-required' });

    const { uri, setup } = await enrol(email);
    expect(uri).toMatch(/^otpauth:\/\/totp\/Vitrina:.+\?.*secret=[A-Z2-7]+/);
    expect(uri).toContain('issuer=Vitrina');
    expect(uri).toContain('digits=6');
    expect(uri).toContain('period=30');
    expect(String(setup.secret)).toMatch(/^[A-Z2-7]{32}$/);
    expect(String(setup.qrSvg)).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
    expect((await call('GET', '/api/admin/orders', sid)).status).toBe(200);
  });

  it('asks for the code after the password, and signs in only with a right one', async () => {
    const email = await staffMember('admin');
    const { uri } = await enrol(email);

    const password = await call('POST', '/api/login', undefined, { email, password: PASSWORD });
    expect(password.status).toBe(200);
    expect(password.body).toEqual({ success: true, user: null, secondFactor: true });
    const pending = sessionOf(password.response);
    // Not signed in yet: the back office and the user call see a guest.
    expect((await call('GET', '/api/user', pending)).body.user).toBeNull();
    expect((await call('GET', '/api/admin/orders', pending)).status).toBe(401);

    const wrong = await call('POST', '/api/login/code', pending, {
      code: '000000' === appCode(uri) ? '111111' : '000000',
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body).toMatchObject({ success: false, errors: { code: [expect.any(String)] } });

    const right = await call('POST', '/api/login/code', pending, { code: appCode(uri) });
    expect(right.status).toBe(200);
    expect(right.body).toMatchObject({ success: true, user: { email, role: 'admin' } });
    const sid = sessionOf(right.response);
    expect(sid).toBeTruthy();
    expect((await call('GET', '/api/admin/orders', sid)).status).toBe(200);
  });

  it('lets a recovery code stand in for the app once, and only once', async () => {
    const email = await staffMember('admin');
    const { recoveryCodes } = await enrol(email);
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    // Kept only as hashes.
    const [row] = await shop.db.select().from(users).where(eq(users.email, email));
    expect(row?.totpRecoveryCodes).toHaveLength(10);
    for (const code of recoveryCodes) expect(row?.totpRecoveryCodes).not.toContain(code);

    const [code = ''] = recoveryCodes;
    const first = await call('POST', '/api/login', undefined, { email, password: PASSWORD });
    const recovered = await call('POST', '/api/login/code', sessionOf(first.response), {
      code: code.toUpperCase(),
    });
    expect(recovered.status).toBe(200);
    expect(recovered.body).toMatchObject({ user: { email } });

    const second = await call('POST', '/api/login', undefined, { email, password: PASSWORD });
    const reused = await call('POST', '/api/login/code', sessionOf(second.response), { code });
    expect(reused.status).toBe(422);
    const [after] = await shop.db.select().from(users).where(eq(users.email, email));
    expect(after?.totpRecoveryCodes).toHaveLength(9);
  });

  it('ends the pending sign-in after five wrong codes', async () => {
    const email = await staffMember('manager');
    const { uri } = await enrol(email);
    const password = await call('POST', '/api/login', undefined, { email, password: PASSWORD });
    const pending = sessionOf(password.response);
    const wrongCode = appCode(uri) === '123456' ? '654321' : '123456';
    for (let attempt = 0; attempt < 5; attempt++) {
      expect((await call('POST', '/api/login/code', pending, { code: wrongCode })).status).toBe(422);
    }
    const late = await call('POST', '/api/login/code', pending, { code: appCode(uri) });
    expect(late.status).toBe(401);
  });

  it('leaves it optional for managers, refuses a wrong confirmation code and a second enrolment', async () => {
    const email = await staffMember('manager');
    const login = await call('POST', '/api/login', undefined, { email, password: PASSWORD });
    const sid = sessionOf(login.response);
    expect((await call('GET', '/api/admin/orders', sid)).status).toBe(200);

    const setup = await call('POST', '/api/user/two-factor', sid);
    const uri = String(setup.body.uri);
    const wrongCode = appCode(uri) === '123456' ? '654321' : '123456';
    const wrong = await call('POST', '/api/user/two-factor/confirm', sid, { code: wrongCode });
    expect(wrong.status).toBe(422);
    const [row] = await shop.db.select().from(users).where(eq(users.email, email));
    expect(row?.totpEnabledAt).toBeNull();

    expect((await call('POST', '/api/user/two-factor/confirm', sid, { code: appCode(uri) })).status).toBe(
      200,
    );
    expect((await call('POST', '/api/user/two-factor', sid)).status).toBe(409);
  });

  it('is for staff only', async () => {
    const email = `customer${++counter}@example.com`;
    await shop.db
      .insert(users)
      .values({ email, passwordHash: await hashPassword(PASSWORD), emailVerifiedAt: new Date() });
    const login = await call('POST', '/api/login', undefined, { email, password: PASSWORD });
    expect((await call('POST', '/api/user/two-factor', sessionOf(login.response))).status).toBe(403);
    expect((await call('POST', '/api/user/two-factor')).status).toBe(401);
  });
});
