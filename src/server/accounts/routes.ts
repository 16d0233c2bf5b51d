import {
  doneResponse,
  loginBody,
  profileBody,
  registrationBody,
  resetBody,
  restoreBody,
  userResponse,
  verifyQuery,
} from '../../contract/accounts.ts';
import { defineRoute } from '../http/api.ts';
import { requestLocale } from '../http/locale.ts';
import type { Services } from '../services.ts';
import { accountActions } from './session-actions.ts';

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
      summary: 'Sign in (always remembered); the session id is renewed',
      tags: ['accounts'],
      body: loginBody,
      response: userResponse,
      handler: async ({ body, request }) => ({ success: true, user: await actions(request).login(body) }),
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
      response: userResponse,
      handler: async ({ query, request }) => ({
        success: true,
        user: await actions(request).verify(query.token),
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
