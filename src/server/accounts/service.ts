import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { ProfileInput, RegistrationInput, ResetInput, User } from '../../contract/accounts.ts';
import type { Locale } from '../../contract/locale.ts';
import type { Executor } from '../db/client.ts';
import { preparedOnce } from '../db/prepared.ts';
import { authTokens, sessions, users } from '../db/schema.ts';
import { Forbidden, Invalid, Unauthorized } from '../errors.ts';
import { queueMail } from '../mail/outbox.ts';
import type { MailShop } from '../mail/templates.ts';
import { hashSecret, newSecret } from '../security/tokens.ts';
import { hashPassword, verifyPassword } from './passwords.ts';

/**
 * Accounts: registration with e-mail confirmation, sign-in, password restore and reset, personal
 * details. Tokens are single-use and stored hashed; mails go through the outbox in the same
 * transaction as the change that causes them.
 */

export const VERIFY_TOKEN_HOURS = 72;
export const RESET_TOKEN_HOURS = 2;

export interface AccountContext {
  publicUrl: string;
  /** The shop's address and site, shown in the mails. */
  shop?: MailShop;
  clock?: () => Date;
}

type UserRow = typeof users.$inferSelect;

export const toUser = (row: UserRow): User => ({
  email: row.email,
  first_name: row.firstName,
  last_name: row.lastName,
  phone: row.phone,
  country: row.country,
  city: row.city,
  zip: row.zip,
  address: row.address,
  isAdmin: row.role !== 'customer',
  emailConfirmed: row.emailVerifiedAt !== null,
  role: row.role,
});

const now = (context: AccountContext) => context.clock?.() ?? new Date();
const hoursLater = (date: Date, hours: number) => new Date(date.getTime() + hours * 3600_000);

async function findByEmail(db: Executor, email: string) {
  const [row] = await db.select().from(users).where(sql`lower(${users.email}) = ${email.toLowerCase()}`);
  return row;
}

/**
 * The account of this id. Every signed-in request reads it: built once and run by name (Drizzle's
 * `.prepare()`), so neither the shop nor PostgreSQL builds and plans it each time (ADR 0089).
 */
const userById = preparedOnce((db) =>
  db
    .select()
    .from(users)
    .where(eq(users.id, sql.placeholder('id')))
    .prepare('user_by_id'),
);

export async function findUser(db: Executor, id: number): Promise<UserRow | undefined> {
  const [row] = await userById(db).execute({ id });
  return row;
}

async function issueToken(db: Executor, userId: number, purpose: 'verify' | 'reset', expiresAt: Date) {
  const token = newSecret();
  await db.insert(authTokens).values({ userId, purpose, tokenHash: hashSecret(token), expiresAt });
  return token;
}

/** Marks a token used and returns its user id, if it is of this purpose, unused and unexpired. */
async function consumeToken(db: Executor, token: string, purpose: 'verify' | 'reset', at: Date) {
  const [row] = await db
    .update(authTokens)
    .set({ usedAt: at })
    .where(
      and(
        eq(authTokens.tokenHash, hashSecret(token)),
        eq(authTokens.purpose, purpose),
        isNull(authTokens.usedAt),
        gt(authTokens.expiresAt, at),
      ),
    )
    .returning({ userId: authTokens.userId });
  return row?.userId;
}

/**
 * Creates an account and mails its confirmation link; answers the new account. An address that
 * already has an account gets the same answer from the pages and the API, and its owner a mail
 * saying someone tried to register with it (with the ways to sign in and reset the password): the
 * answer tells no one which addresses are registered (ADR 0055); null here. The password is hashed
 * either way, so both take the same time.
 */
export async function register(
  db: Executor,
  input: RegistrationInput,
  context: AccountContext,
): Promise<UserRow | null> {
  const passwordHash = await hashPassword(input.password);
  return db.transaction(async (transaction) => {
    const [user] = await transaction
      .insert(users)
      .values({ email: input.email, passwordHash, locale: input.locale })
      .onConflictDoNothing()
      .returning();
    if (user) {
      await sendConfirmation(transaction, user, input.locale, context);
      return user;
    }
    const owner = await findByEmail(transaction, input.email);
    if (!owner) return null;
    await queueMail(
      transaction,
      {
        template: 'account-exists',
        locale: owner.locale === 'en' ? 'en' : 'ru',
        to: owner.email,
        data: {
          signInLink: `${context.publicUrl}/login`,
          restoreLink: `${context.publicUrl}/restore`,
        },
      },
      context.shop,
    );
    return null;
  });
}

/** A new confirmation link, mailed in `locale` (in the caller's transaction). */
async function sendConfirmation(
  transaction: Executor,
  user: UserRow,
  locale: Locale,
  context: AccountContext,
) {
  const token = await issueToken(
    transaction,
    user.id,
    'verify',
    hoursLater(now(context), VERIFY_TOKEN_HOURS),
  );
  await queueMail(
    transaction,
    {
      template: 'verify-email',
      locale,
      to: user.email,
      data: { link: `${context.publicUrl}/activate?token=${token}` },
    },
    context.shop,
  );
}

/**
 * Mails the confirmation link again when the address belongs to an account not confirmed yet;
 * answers the same either way, so it tells no one which addresses are registered.
 */
export async function resendConfirmation(
  db: Executor,
  email: string,
  locale: Locale,
  context: AccountContext,
): Promise<void> {
  const user = await findByEmail(db, email);
  if (!user || user.emailVerifiedAt) return;
  await db.transaction((transaction) => sendConfirmation(transaction, user, locale, context));
}

/** Confirms the e-mail from the link; the caller signs the user in. */
export async function verifyEmail(db: Executor, token: string, context: AccountContext): Promise<UserRow> {
  const at = now(context);
  return db.transaction(async (transaction) => {
    const userId = await consumeToken(transaction, token, 'verify', at);
    if (userId === undefined) throw new Invalid('token-invalid', { token: ['token-invalid'] });
    const [user] = await transaction
      .update(users)
      .set({
        emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, ${at.toISOString()}::timestamptz)`,
        updatedAt: at,
      })
      .where(eq(users.id, userId))
      .returning();
    if (!user) throw new Invalid('token-invalid', { token: ['token-invalid'] });
    return user;
  });
}

/** A hash of a random password, so unknown e-mails cost the same time as wrong passwords. */
let decoyHash: Promise<string> | undefined;

export async function authenticate(db: Executor, email: string, password: string): Promise<UserRow> {
  const user = await findByEmail(db, email);
  decoyHash ??= hashPassword(newSecret());
  const valid = await verifyPassword(user?.passwordHash ?? (await decoyHash), password);
  if (!user || !valid) throw new Unauthorized('wrong-credentials', { email: ['wrong-credentials'] });
  if (!user.emailVerifiedAt) throw new Forbidden('email-not-confirmed', { email: ['email-not-confirmed'] });
  if (user.blockedAt) throw new Forbidden('account-blocked', { email: ['account-blocked'] });
  return user;
}

/** Sends a reset link when the address is known; answers the same either way. */
export async function requestPasswordReset(
  db: Executor,
  email: string,
  locale: Locale,
  context: AccountContext,
): Promise<void> {
  const user = await findByEmail(db, email);
  if (!user) return;
  await db.transaction(async (transaction) => {
    const token = await issueToken(
      transaction,
      user.id,
      'reset',
      hoursLater(now(context), RESET_TOKEN_HOURS),
    );
    const link = `${context.publicUrl}/reset?token=${token}&email=${encodeURIComponent(user.email)}`;
    await queueMail(
      transaction,
      {
        template: 'reset-password',
        locale,
        to: user.email,
        data: { link, expiresInHours: RESET_TOKEN_HOURS },
      },
      context.shop,
    );
  });
}

/** Sets a new password with a single-use token and signs the user out everywhere. */
export async function resetPassword(db: Executor, input: ResetInput, context: AccountContext): Promise<void> {
  const user = await findByEmail(db, input.email);
  const passwordHash = await hashPassword(input.password);
  const at = now(context);
  await db.transaction(async (transaction) => {
    const userId = await consumeToken(transaction, input.token, 'reset', at);
    if (userId === undefined || userId !== user?.id)
      throw new Invalid('token-invalid', { token: ['token-invalid'] });
    // Following the mailed link proves the address, so an unconfirmed account becomes confirmed.
    await transaction
      .update(users)
      .set({ passwordHash, updatedAt: at, emailVerifiedAt: user.emailVerifiedAt ?? at })
      .where(eq(users.id, userId));
    await transaction.delete(sessions).where(eq(sessions.userId, userId));
  });
}

export async function updateProfile(db: Executor, userId: number, input: ProfileInput): Promise<UserRow> {
  const changes = {
    firstName: input.first_name,
    lastName: input.last_name,
    phone: input.phone,
    country: input.country,
    city: input.city,
    zip: input.zip,
    address: input.address,
  };
  const present = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
  const [user] = await db
    .update(users)
    .set({ ...present, updatedAt: new Date() })
    .where(eq(users.id, userId))
    .returning();
  if (!user) throw new Unauthorized('sign-in-required');
  return user;
}
