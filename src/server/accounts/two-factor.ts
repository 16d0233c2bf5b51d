import { randomInt } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import type { Executor } from '../db/client.ts';
import { users } from '../db/schema.ts';
import { Conflict, Invalid } from '../errors.ts';
import { hashSecret } from '../security/tokens.ts';

/**
 * Two-step sign-in for staff (ADR 0055): time-based one-time passwords (RFC 6238: HMAC-SHA1, six
 * digits, 30-second steps, one step of clock drift either way), made and checked by `otpauth`.
 * Enrolment stores a new secret, shows it as an otpauth:// URI (a QR code and the text) and turns
 * the second step on once a code from the app proves the app holds the secret; it also hands out
 * ten single-use recovery codes, kept only as hashes, for a lost phone.
 */

const ISSUER = 'Vitrina';
export const RECOVERY_CODE_COUNT = 10;
/** Recovery codes: 10 characters of an alphabet without look-alikes (about 50 bits), shown as xxxxx-xxxxx. */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

const totp = (email: string, secret: string) =>
  new TOTP({ issuer: ISSUER, label: email, secret: Secret.fromBase32(secret) });

/** What the enrolment page shows: the URI for authenticator apps, as a QR code (SVG) and as text. */
export interface TwoFactorSetup {
  uri: string;
  secret: string;
  qrSvg: string;
}

/**
 * Starts (or restarts) enrolment: a new secret, stored but not in force until confirmed. Refused
 * once two-step sign-in is on.
 */
export async function startTwoFactor(db: Executor, userId: number): Promise<TwoFactorSetup> {
  const secret = new Secret({ size: 20 }).base32;
  const [user] = await db
    .update(users)
    .set({ totpSecret: secret })
    .where(and(eq(users.id, userId), isNull(users.totpEnabledAt)))
    .returning({ email: users.email });
  if (!user) throw new Conflict('two-factor-already-on', { code: ['two-factor-already-on'] });
  const uri = totp(user.email, secret).toString();
  return { uri, secret, qrSvg: await QRCode.toString(uri, { type: 'svg', margin: 1 }) };
}

const newRecoveryCode = () => {
  const characters = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]);
  return `${characters.slice(0, 5).join('')}-${characters.slice(5).join('')}`;
};
/** Spaces, dashes and case do not matter when a recovery code is typed. */
const recoveryHash = (code: string) => hashSecret(code.toLowerCase().replace(/[\s-]/g, ''));

/** A code the app shows for `secret` now (one step of drift either way). */
const codeMatches = (email: string, secret: string, code: string, at: Date) =>
  totp(email, secret).validate({ token: code.replace(/\s/g, ''), timestamp: at.getTime(), window: 1 }) !==
  null;

/**
 * Confirms enrolment with a code from the app: two-step sign-in is on from now, and the answer holds
 * the recovery codes, shown this once.
 */
export async function confirmTwoFactor(db: Executor, userId: number, code: string, at = new Date()) {
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (!user?.totpSecret) throw new Invalid('two-factor-not-started', { code: ['two-factor-not-started'] });
  if (user.totpEnabledAt) throw new Conflict('two-factor-already-on', { code: ['two-factor-already-on'] });
  if (!codeMatches(user.email, user.totpSecret, code, at)) {
    throw new Invalid('second-factor-invalid', { code: ['second-factor-invalid'] });
  }
  const recoveryCodes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await db
    .update(users)
    .set({ totpEnabledAt: at, totpRecoveryCodes: recoveryCodes.map(recoveryHash), updatedAt: at })
    .where(and(eq(users.id, userId), isNull(users.totpEnabledAt)));
  return recoveryCodes;
}

/**
 * The second step of a sign-in: a code from the app, or one of the recovery codes, which is used up.
 * Answers whether it passed.
 */
export async function passSecondFactor(db: Executor, userId: number, code: string, at = new Date()) {
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (!user?.totpSecret || !user.totpEnabledAt) return false;
  if (/^\s*\d{6}\s*$/.test(code)) return codeMatches(user.email, user.totpSecret, code, at);
  const hash = recoveryHash(code);
  // Used up in the same statement that finds it: a code works once, even when sent twice at once.
  const [used] = await db
    .update(users)
    .set({ totpRecoveryCodes: sql`${users.totpRecoveryCodes} - ${hash}::text` })
    .where(and(eq(users.id, userId), sql`${users.totpRecoveryCodes} ? ${hash}::text`))
    .returning({ id: users.id });
  return used !== undefined;
}
