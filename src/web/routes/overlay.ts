import { data, redirect } from 'react-router';
import { postedForm } from '../lib/forms.ts';
import { safeRedirect } from '../lib/redirects.ts';
import { OVERLAY_COOKIE } from '../lib/shop.ts';
import type { Route } from './+types/overlay';

/** OK on the test-mode overlay: remember that it was read. The plain form (no script) comes back to its page. */
export async function action({ request }: Route.ActionArgs) {
  const headers = {
    'set-cookie': `${OVERLAY_COOKIE}=hidden; Path=/; Max-Age=${30 * 24 * 3600}; SameSite=Lax`,
  };
  // The script's fetcher sends no address to return to; the plain form does.
  const target = (await postedForm(request)).get('redirectTo');
  if (target === null) return data({ hidden: true }, { headers });
  return redirect(safeRedirect(target), { headers });
}

export const loader = () => redirect('/');
