import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fastifyPlugin from 'fastify-plugin';

/**
 * Device cookies (OWASP, "Slow down online guessing attacks with device cookies"; ADR 0055): a
 * browser that signed in to an account gets a cookie naming the account and a random nonce, signed
 * with the session secret. A later sign-in to that account from the browser is counted under the
 * nonce rather than under the account's unknown browsers, so a stranger's guesses, from however
 * many addresses, slow down the unknown browsers without touching the owner's.
 */
export const DEVICE_COOKIE = 'vitrina.device';
const DEVICE_COOKIE_DAYS = 365;

const mac = (secret: string, email: string, nonce: string) =>
  createHmac('sha256', secret).update(`device ${email} ${nonce}`).digest('base64url');

/**
 * The nonce of the request's device cookie when the cookie is genuine and names the account of
 * `email`; otherwise undefined (no cookie, another account's, or forged).
 */
export function knownDevice(request: FastifyRequest, email: string, secret: string): string | undefined {
  const [account, nonce, signature] = (request.cookies[DEVICE_COOKIE] ?? '').split('.');
  if (!account || !nonce || !signature) return undefined;
  const named = Buffer.from(account, 'base64url').toString('utf8');
  if (named !== email.toLowerCase()) return undefined;
  const expected = Buffer.from(mac(secret, named, nonce));
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected) ? nonce : undefined;
}

/** Device cookies to send with the answer, by request. */
const issued = new WeakMap<FastifyRequest, string>();

/** A new device cookie for the account of `email`, sent with this request's answer. */
export function rememberDevice(request: FastifyRequest, email: string, secret: string) {
  const named = email.toLowerCase();
  const nonce = randomBytes(16).toString('base64url');
  issued.set(request, `${Buffer.from(named).toString('base64url')}.${nonce}.${mac(secret, named, nonce)}`);
}

/** Sends the device cookies issued while answering. */
export const deviceCookies = fastifyPlugin(
  async (app: FastifyInstance, options: { secure: boolean }) => {
    // A callback hook, as it waits for nothing: a kept page goes out in its request's turn (page-cache.ts).
    app.addHook('onSend', (request, reply, payload, done) => {
      const value = issued.get(request);
      if (value !== undefined) {
        reply.setCookie(DEVICE_COOKIE, value, {
          path: '/',
          httpOnly: true,
          sameSite: 'lax',
          secure: options.secure,
          maxAge: DEVICE_COOKIE_DAYS * 24 * 3600,
        });
      }
      done(null, payload);
    });
  },
  { name: 'vitrina-device-cookies' },
);
