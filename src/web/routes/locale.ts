import { redirect } from 'react-router';
import { isLocale, LOCALE_COOKIE } from '../../contract/locale.ts';
import { postedForm } from '../lib/forms.ts';
import { safeRedirect } from '../lib/redirects.ts';
import type { Route } from './+types/locale';

const ONE_YEAR = 365 * 24 * 3600;

/** Stores the language in the `locale` cookie and returns to the page the visitor was on. */
export async function action({ request }: Route.ActionArgs) {
  const form = await postedForm(request);
  const locale = form.get('locale');
  const redirectTo = safeRedirect(form.get('redirectTo'));
  if (!isLocale(locale)) return redirect(redirectTo);
  return redirect(redirectTo, {
    headers: { 'set-cookie': `${LOCALE_COOKIE}=${locale}; Path=/; Max-Age=${ONE_YEAR}; SameSite=Lax` },
  });
}

export const loader = () => redirect('/');
