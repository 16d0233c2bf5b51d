import { hashPassword } from '../accounts/passwords.ts';
import { users } from '../db/schema.ts';
import { SESSION_COOKIE } from '../http/session.ts';
import type { createTestApp } from './app.ts';

/** Creates a verified admin account, signs it in and answers the cookies to send with `inject`. */
export async function signedInAdmin(
  shop: Awaited<ReturnType<typeof createTestApp>>,
  email = 'admin@example.com',
) {
  const password = 'admin password 1';
  await shop.db.insert(users).values({
    email,
    passwordHash: await hashPassword(password),
    role: 'admin',
    emailVerifiedAt: new Date(),
  });
  const login = await shop.app.inject({ method: 'POST', url: '/api/login', payload: { email, password } });
  const session = login.cookies.find((cookie) => cookie.name === SESSION_COOKIE)?.value;
  if (!session) throw new Error(`Signing in ${email} failed: ${login.statusCode} ${login.body}`);
  return { [SESSION_COOKIE]: session };
}

/** A multipart body as a browser's FormData makes it, with its content type. */
export async function multipartBody(
  fields: Record<string, string>,
  uploads: Array<{ name: string; type: string; data: Buffer }>,
) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const upload of uploads) {
    form.append('file', new Blob([new Uint8Array(upload.data)], { type: upload.type }), upload.name);
  }
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return {
    payload: Buffer.from(await request.arrayBuffer()),
    contentType: request.headers.get('content-type') ?? '',
  };
}
