import {
  doneResponse,
  loginBody,
  loginResponse,
  profileBody,
  registrationBody,
  resetBody,
  restoreBody,
  secondFactorBody,
  twoFactorConfirmResponse,
  twoFactorSetupResponse,
  userResponse,
  verifyQuery,
} from '../../contract/accounts.ts';
import { defineRoute } from '../http/api.ts';
import { requestLocale } from '../http/locale.ts';
import type { Services } from '../requests/services.ts';
import { accountActions } from '../requests/session-actions.ts';

/** The account calls of spec section 7. */
export function accountRoutes(services: Services) {
  const actions = (request: Parameters<typeof accountActions>[1]) => accountActions(services, request);
  return [
    defineRoute({
      method: 'GET',
      url: '/api/user',
      summary: 'The signed-in user, or null',
      tags: ['accounts'],
      response: userResponse,
      handler: async ({ request }) => ({ success: true, user: await actions(request).currentUser() }),
    }),
    defineRoute({
      method: 'POST',
      url: '/api/login',
      summary:
        'Sign in (always remembered); the session id is renewed. Staff with two-step sign-in get secondFactor: the code follows',
      tags: ['accounts'],
      body: loginBody,
      response: loginResponse,
      handler: async ({ body, request }) => ({ success: true, ...(await actions(request).login(body)) }),
    }),
    defineRoute({
      method: 'POST',
      url: '/api/login/code',
      summary: "Finish a staff sign-in with the authenticator app's code or a recovery code",
      tags: ['accounts'],
      body: secondFactorBody,
      response: userResponse,
      handler: async ({ body, request }) => ({
        success: true,
        user: await actions(request).secondFactor(body.code),
      }),
    }),
    defineRoute({
      method: 'POST',
      url: '/api/user/two-factor',
      summary:
        'Staff: start turning on two-step sign-in; answers the secret to scan (not in force until confirmed)',
      tags: ['accounts'],
      response: twoFactorSetupResponse,
      handler: async ({ request }) => ({ success: true, ...(await actions(request).startTwoFactor()) }),
    }),
    defineRoute({
      method: 'POST',
      url: '/api/user/two-factor/confirm',
      summary: 'Staff: turn two-step sign-in on with a code from the app; answers the recovery codes once',
      tags: ['accounts'],
      body: secondFactorBody,
      response: twoFactorConfirmResponse,
      handler: async ({ body, request }) => ({
        success: true,
        recoveryCodes: await actions(request).confirmTwoFactor(body.code),
      }),
    }),
    defineRoute({
      method: 'POST',
      url: '/api/logout',
      summary: 'Sign out and end the session',
      tags: ['accounts'],
      response: doneResponse,
      handler: async ({ request }) => {
        await actions(request).logout();
        return { success: true };
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/api/registration',
      summary: 'Create an account; a confirmation e-mail is sent',
      tags: ['accounts'],
      body: registrationBody,
      response: doneResponse,
      handler: async ({ body, request }) => {
        await actions(request).register(body);
        return { success: true };
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/api/verify',
      summary: 'Confirm the e-mail from the mailed link and sign in',
      tags: ['accounts'],
      query: verifyQuery,
      response: loginResponse,
      handler: async ({ query, request }) => ({
        success: true,
        ...(await actions(request).verify(query.token)),
      }),
    }),
    defineRoute({
      method: 'POST',
      url: '/api/restore',
      summary: 'Mail a password-reset link; answers the same whether or not the address is known',
      tags: ['accounts'],
      body: restoreBody,
      response: doneResponse,
      handler: async ({ body, request }) => {
        await actions(request).restore(body.email, body.locale ?? requestLocale(request));
        return { success: true };
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/api/reset',
      summary: 'Set a new password with the single-use token from the mail',
      tags: ['accounts'],
      body: resetBody,
      response: doneResponse,
      handler: async ({ body, request }) => {
        await actions(request).reset(body);
        return { success: true };
      },
    }),
    defineRoute({
      method: 'PATCH',
      url: '/api/user/:id',
      summary: 'Change personal details (only non-empty fields); POST with _method=PATCH works too',
      tags: ['accounts'],
      body: profileBody,
      response: userResponse,
      handler: async ({ body, request }) => ({
        success: true,
        user: await actions(request).updateProfile(body),
      }),
    }),
  ];
}
