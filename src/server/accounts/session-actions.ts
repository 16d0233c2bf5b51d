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
import { acceptInvitation, invitationByToken } from '../admin/staff.ts';
import { mergeGuestBasket } from '../cart/service.ts';
import { guestBasketKey } from '../cart/shopper-actions.ts';
import { Forbidden, Unauthorized } from '../errors.ts';
import { signIn, signOut } from '../http/session.ts';
import type { Services } from '../services.ts';
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
} from './service.ts';

/**
 * The account rules bound to one request: rate limits, the service call and the session change.
 * Both adapters use it, the `/api` routes and the React Router actions, so a rule never differs
 * between the JSON API and the server-rendered forms.
 */
export function accountActions(services: Services, request: FastifyRequest) {
  const { db, rateLimits } = services;
  const context = { publicUrl: services.config.publicUrl, shop: services.mailShop };
  let current: Promise<User | null> | undefined;

  const currentUser = () => {
    const userId = request.session.userId;
    current ??=
      userId === undefined
        ? Promise.resolve(null)
        : // A blocked account is signed out everywhere, this request too.
          findUser(db, userId).then((row) => (row && !row.blockedAt ? toUser(row) : null));
    return current;
  };

  return {
    currentUser,
    async requireUser(): Promise<User & { id: number }> {
      const user = await currentUser();
      const userId = request.session.userId;
      if (!user || userId === undefined) throw new Unauthorized('sign-in-required');
      return { ...user, id: userId };
    },
    /**
     * Back-office calls: 401 for guests, 403 for customers, and 403 `admin-only` for a manager on a
     * call that only an admin may make (staff, deletions). Answers the staff member's id.
     */
    async requireStaff(role: StaffRole = 'manager'): Promise<number> {
      const user = await currentUser();
      const userId = request.session.userId;
      if (!user || userId === undefined) throw new Unauthorized('sign-in-required');
      if (user.role === 'customer') throw new Forbidden('access-denied');
      if (role === 'admin' && user.role !== 'admin') throw new Forbidden('admin-only', {}, 'admin-only');
      return userId;
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
    async login(input: LoginInput): Promise<User> {
      await rateLimits.checkLogin(request.ip, input.email);
      const user = await authenticate(db, input.email, input.password).catch(async (error: unknown) => {
        if (error instanceof Unauthorized) await rateLimits.loginFailed(request.ip, input.email);
        throw error;
      });
      await mergeGuestBasket(db, guestBasketKey(request), user.id);
      await signIn(request, user.id);
      await rateLimits.loginSucceeded(request.ip, input.email);
      current = Promise.resolve(toUser(user));
      return toUser(user);
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
     * Registration inside the checkout (ADR 0059): the new account is signed in at once with the
     * visitor's basket, so the sale goes on; the e-mail is confirmed later by its link.
     */
    async registerAndSignIn(input: RegistrationInput): Promise<User> {
      await rateLimits.consume('registration', request.ip, input.email);
      const user = await register(db, input, context);
      await mergeGuestBasket(db, guestBasketKey(request), user.id);
      await signIn(request, user.id);
      current = Promise.resolve(toUser(user));
      return toUser(user);
    },
    /** Confirms the e-mail and signs the user in. */
    async verify(token: string): Promise<User> {
      const user = await verifyEmail(db, token, context);
      await mergeGuestBasket(db, guestBasketKey(request), user.id);
      await signIn(request, user.id);
      current = Promise.resolve(toUser(user));
      return toUser(user);
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
      const user = toUser(await updateProfile(db, userId, input));
      current = Promise.resolve(user);
      return user;
    },
  };
}

export type AccountActions = ReturnType<typeof accountActions>;
