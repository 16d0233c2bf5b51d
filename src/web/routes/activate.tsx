import { data, Link, redirect } from 'react-router';
import { verifyQuery } from '../../contract/accounts.ts';
import { translateError } from '../../contract/error-messages.ts';
import { FormAlert } from '../components/form-field.tsx';
import { PrivatePageHead } from '../components/page-head.tsx';
import { useShop } from '../lib/shop.ts';
import type { Route } from './+types/activate';

/** A refusal by the domain (expired or used link), told apart structurally from a server fault. */
function refusalKey(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { status, message } = error as { status?: unknown; message?: unknown };
  return typeof status === 'number' && status >= 400 && status < 500 && typeof message === 'string'
    ? message
    : undefined;
}

/**
 * The confirmation link of the registration mail: `/activate?token=…`. A valid token confirms the
 * e-mail and signs the user in, then the profile opens; a signed-in visitor goes to the profile too.
 */
export async function loader({ context, url }: Route.LoaderArgs) {
  const { locale, account } = context;
  const query = verifyQuery.safeParse(Object.fromEntries(url.searchParams));
  let problem = 'link-incomplete';
  if (query.success) {
    try {
      const outcome = await account.verify(query.data.token);
      // Staff with two-step sign-in give their code on the sign-in page first.
      return redirect(outcome.secondFactor ? '/login' : '/profile?confirmed=1');
    } catch (error) {
      const key = refusalKey(error);
      if (key === undefined) throw error;
      problem = key;
    }
  }
  if (await account.currentUser()) return redirect('/profile');
  return data({ error: translateError(locale, problem) }, { status: 400 });
}

export default function ActivatePage({ loaderData }: Route.ComponentProps) {
  const { t } = useShop();
  return (
    <section className="auth-card" aria-labelledby="activation-heading">
      <PrivatePageHead title={t('activation')} />
      <h1 id="activation-heading">{t('activation-failed')}</h1>
      <FormAlert>{loaderData.error}</FormAlert>
      <p className="auth-card__footer">
        <Link to="/restore">{t('request-new-link')}</Link>
      </p>
    </section>
  );
}
