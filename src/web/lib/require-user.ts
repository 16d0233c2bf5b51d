import { type AppLoadContext, data, redirect } from 'react-router';
import type { User } from '../../contract/accounts.ts';
import { signInPath } from './redirects.ts';

/**
 * The guards a loader or action calls first. A guest on a page is sent to the sign-in page, which
 * brings them back to `returnTo` (a URL: its path and query; or a path); a call a page's script
 * makes answers `refusal` with 401 instead, which the script shows.
 */
export async function requireUser(
  context: Pick<AppLoadContext, 'account'>,
  guest: { returnTo: URL | string } | { refusal: unknown },
): Promise<User> {
  const user = await context.account.currentUser();
  if (user) return user;
  if ('refusal' in guest) throw data(guest.refusal, { status: 401 });
  const { returnTo } = guest;
  throw redirect(
    typeof returnTo === 'string' ? signInPath(returnTo) : signInPath(returnTo.pathname, returnTo.search),
  );
}

/** The back office's guard: guests and shoppers get the 403 page (with status 403), staff pass. */
export async function requireStaff(context: Pick<AppLoadContext, 'account'>): Promise<User> {
  const user = await context.account.currentUser();
  if (!user?.isAdmin) throw data(null, { status: 403 });
  return user;
}
