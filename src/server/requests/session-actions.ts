import type { FastifyRequest } from 'fastify';
import type {
  LoginInput,
  ProfileInput,
  RegistrationInput,
  ResetInput,
  StaffRole,
  User,
} from '../../contract/accounts.ts';
import type { Locale } from '../../contract/locale.ts';
import {
  authenticate,
  findUser,
  register,
  requestPasswordReset,
  resendConfirmation,
  resetPassword,
  toUser,
  updateProfile,
  verifyEmail,
} from '../accounts/service.ts';
import { acceptInvitation, invitationByToken } from '../accounts/staff.ts';
import { confirmTwoFactor, passSecondFactor, startTwoFactor } from '../accounts/two-factor.ts';
import { mergeGuestBasket } from '../cart/service.ts';
import { Forbidden, Invalid, Unauthorized } from '../errors.ts';
import { knownDevice, rememberDevice } from '../http/device-cookies.ts';
import { signIn, signOut } from '../http/session.ts';
import type { Services } from './services.ts';
import { guestBasketKey } from './shopper-actions.ts';

/** How long the second step of a sign-in may wait for its code, and how many wrong codes it takes. */
const SECOND_FACTOR = { minutes: 5, tries: 5 } as const;

/** A sign-in's outcome: the user, or `secondFactor` when the password passed and a code must follow. */
export type SignInOutcome = { user: User; secondFactor?: undefined } | { user: null; secondFactor: true };

type UserRow = NonNullable<Awaited<ReturnType<typeof findUser>>>;

/**
 * The account rules bound to one request: rate limits, the service call and the session change.
 * Both adapters use it, the `/api` routes and the React Router actions, so a rule never differs
 * between the JSON API and the server-rendered forms.
 */
export function accountActions(services: Services, request: FastifyRequest) {
  const { db, rateLimits } = services;
  const { config } = services;
  const context = { publicUrl: config.publicUrl, shop: services.mailShop };
  let current: Promise<UserRow | null> | undefined;

  const currentRow = () => {
    const userId = request.session.userId;
    current ??=
      userId === undefined
        ? Promise.resolve(null)
        : // A blocked account is signed out everywhere, this request too.
          findUser(db, userId).then((row) => (row && !row.blockedAt ? row : null));
    return current;
  };
  const currentUser = async () => {
    const row = await currentRow();
    return row ? toUser(row) : null;
  };
  /** An admin who has not turned two-step sign-in on while the shop requires it of admins. */
  const lacksTwoFactor = (row: UserRow) =>
    config.adminTwoFactor === 'required' && row.role === 'admin' && row.totpEnabledAt === null;

  /** Signs the user in on this request: a new session, the guest basket merged, the browser remembered. */
  async function completeSignIn(user: UserRow): Promise<User> {
    await mergeGuestBasket(db, guestBasketKey(request), user.id);
    await signIn(request, user.id);
    rememberDevice(request, user.email, config.sessionSecret);
    current = Promise.resolve(user);
    return toUser(user);
  }

  /** After the password (or a confirmation link): signed in, or, for staff with a second step, its code asked for. */
  async function beginSignIn(user: UserRow): Promise<SignInOutcome> {
    if (user.role === 'customer' || user.totpEnabledAt === null) return { user: await completeSignIn(user) };
    // A fresh session that holds only the pending step: no fixation, and nothing signed in yet.
    await request.session.regenerate();
    request.session.secondFactor = { userId: user.id, since: Date.now(), tries: 0 };
    current = Promise.resolve(null);
    return { user: null, secondFactor: true };
  }

  async function requireStaffRow(): Promise<UserRow> {
    const row = await currentRow();
    if (!row) throw new Unauthorized('sign-in-required');
    if (row.role === 'customer') throw new Forbidden('access-denied');
    return row;
  }

  return {
    currentUser,
    async requireUser(): Promise<User & { id: number }> {
      const row = await currentRow();
      if (!row) throw new Unauthorized('sign-in-required');
      return { ...toUser(row), id: row.id };
    },
    /**
     * Back-office calls: 401 for guests, 403 for customers, 403 `two-factor-required` for an admin
     * without two-step sign-in while the shop requires it, and 403 `admin-only` for a manager on a
     * call that only an admin may make (staff, deletions). Answers the staff member's id.
     */
    async requireStaff(role: StaffRole = 'manager'): Promise<number> {
      const row = await requireStaffRow();
      if (lacksTwoFactor(row)) throw new Forbidden('two-factor-required', {}, 'two-factor-required');
      if (role === 'admin' && row.role !== 'admin') throw new Forbidden('admin-only', {}, 'admin-only');
      return row.id;
    },
    /** The address and role a pending staff invitation link offers. */
    staffInvitation: (token: string) => invitationByToken(db, token),
    /** Accepts a staff invitation for the signed-in account (ADR 0056). */
    async acceptStaffInvitation(token: string) {
      const user = await currentUser();
      const userId = request.session.userId;
      if (!user || userId === undefined) throw new Unauthorized('sign-in-required');
      return acceptInvitation(db, userId, token);
    },
    /** The signed-in admin must turn two-step sign-in on before using the back office. */
    async twoFactorMissing(): Promise<boolean> {
      const row = await currentRow();
      return row !== null && lacksTwoFactor(row);
    },
    /** Whether the signed-in staff member's sign-in asks for a code. */
    async twoFactorOn(): Promise<boolean> {
      return (await requireStaffRow()).totpEnabledAt !== null;
    },
    /**
     * The password step. Slowed per address, per address and account, and per browser: under its
     * device cookie for a browser the account knows, with the account's unknown browsers otherwise
     * (ADR 0055). Staff with two-step sign-in are not signed in yet: the code must follow.
     */
    async login(input: LoginInput): Promise<SignInOutcome> {
      const { email } = input;
      const device = knownDevice(request, email, config.sessionSecret);
      await rateLimits.checkLogin(request.ip, email, device);
      const user = await authenticate(db, email, input.password).catch(async (error: unknown) => {
        if (error instanceof Unauthorized) await rateLimits.loginFailed(request.ip, email, device);
        throw error;
      });
      await rateLimits.loginSucceeded(request.ip, email);
      return beginSignIn(user);
    },
    /** A staff sign-in waits for its code. */
    secondFactorPending(): boolean {
      return request.session.secondFactor !== undefined;
    },
    /** The code step: a code from the app or a recovery code completes the sign-in. */
    async secondFactor(code: string): Promise<User> {
      const pending = request.session.secondFactor;
      if (!pending || Date.now() - pending.since > SECOND_FACTOR.minutes * 60_000) {
        request.session.secondFactor = undefined;
        throw new Unauthorized('sign-in-required');
      }
      const user = (await passSecondFactor(db, pending.userId, code))
        ? await findUser(db, pending.userId)
        : null;
      if (!user || user.blockedAt) {
        pending.tries += 1;
        request.session.secondFactor = pending.tries < SECOND_FACTOR.tries ? pending : undefined;
        throw new Invalid('second-factor-invalid', { code: ['second-factor-invalid'] });
      }
      request.session.secondFactor = undefined;
      return completeSignIn(user);
    },
    /** Staff: a new secret to scan, not in force until confirmed with a code. */
    async startTwoFactor() {
      return startTwoFactor(db, (await requireStaffRow()).id);
    },
    /** Staff: two-step sign-in on; answers the recovery codes, shown this once. */
    async confirmTwoFactor(code: string) {
      const row = await requireStaffRow();
      const codes = await confirmTwoFactor(db, row.id, code);
      current = undefined;
      return codes;
    },
    async logout() {
      await signOut(request);
      current = Promise.resolve(null);
    },
    async register(input: RegistrationInput) {
      await rateLimits.consume('registration', request.ip, input.email);
      await register(db, input, context);
    },
    /**
     * Registration inside the checkout (ADR 0059): a new account is signed in at once with the
     * visitor's basket, so the sale goes on; the e-mail is confirmed later by its link. An address
     * that has an account is not signed in: its owner is mailed (ADR 0055), and null answers.
     */
    async registerAndSignIn(input: RegistrationInput): Promise<User | null> {
      await rateLimits.consume('registration', request.ip, input.email);
      const user = await register(db, input, context);
      return user && (await beginSignIn(user)).user;
    },
    /** Confirms the e-mail and signs the user in (staff with a second step: asks for its code). */
    async verify(token: string): Promise<SignInOutcome> {
      return beginSignIn(await verifyEmail(db, token, context));
    },
    async restore(email: string, locale: Locale) {
      await rateLimits.consume('restore', request.ip, email);
      await requestPasswordReset(db, email, locale, context);
    },
    /** The confirmation link again, for an account that signed up but never followed it. */
    async resendConfirmation(email: string, locale: Locale) {
      await rateLimits.consume('registration', request.ip, email);
      await resendConfirmation(db, email, locale, context);
    },
    async reset(input: ResetInput) {
      await rateLimits.consume('reset', request.ip, input.email);
      await resetPassword(db, input, context);
      // Every session of the account was ended; this one too.
      await signOut(request);
      current = Promise.resolve(null);
    },
    async updateProfile(input: ProfileInput): Promise<User> {
      const userId = request.session.userId;
      if (userId === undefined) throw new Unauthorized('sign-in-required');
      const row = await updateProfile(db, userId, input);
      current = Promise.resolve(row);
      return toUser(row);
    },
  };
}

export type AccountActions = ReturnType<typeof accountActions>;
