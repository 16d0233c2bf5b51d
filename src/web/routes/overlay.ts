import { data, redirect } from 'react-router';
import { OVERLAY_COOKIE } from '../lib/shop.ts';
import type { Route } from './+types/overlay';

/** OK on the test-mode overlay: remember that it was read. The plain form (no script) comes back to its page. */
export async function action({ request }: Route.ActionArgs) {
  const headers = {
    'set-cookie': `${OVERLAY_COOKIE}=hidden; Path=/; Max-Age=${30 * 24 * 3600}; SameSite=Lax`,
  };
  const target = String((await request.formData()).get('redirectTo') ?? '');
  if (target.startsWith('/') && !target.startsWith('//')) return redirect(target, { headers });
  return data({ hidden: true }, { headers });
}

export const loader = () => redirect('/');
