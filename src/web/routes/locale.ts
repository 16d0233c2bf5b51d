import { redirect } from 'react-router';
import { isLocale, localeCookie, localizedPath } from '../../contract/locale.ts';
import { postedForm } from '../lib/forms.ts';
import { safeRedirect } from '../lib/redirects.ts';
import type { Route } from './+types/locale';

/**
 * Stores the language in the `locale` cookie and returns to the page the visitor was on, less any
 * language its address fixed (`?lang=`), which would otherwise win over the new choice.
 */
export async function action({ request }: Route.ActionArgs) {
  const form = await postedForm(request);
  const locale = form.get('locale');
  const redirectTo = safeRedirect(form.get('redirectTo'));
  if (!isLocale(locale)) return redirect(redirectTo);
  return redirect(localizedPath(redirectTo, null), { headers: { 'set-cookie': localeCookie(locale) } });
}

export const loader = () => redirect('/');
