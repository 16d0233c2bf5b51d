import { Form, Link, redirect } from 'react-router';
import { invitationToken } from '../../contract/admin.ts';
import { translateError } from '../../contract/error-messages.ts';
import { FormAlert, SubmitButton } from '../components/form-field.tsx';
import { PrivatePageHead } from '../components/page-head.tsx';
import { actionError, formFailure, postedForm } from '../lib/forms.ts';
import { signInPath } from '../lib/redirects.ts';
import { useShop } from '../lib/shop.ts';
import type { Route } from './+types/staff-invitation';

/**
 * The link of a staff invitation mail: `/staff-invitation?token=…` (ADR 0056). It shows what the
 * invitation offers; the owner of the invited address accepts it signed in as that address, and
 * nothing is granted before.
 */
export async function loader({ context, url }: Route.LoaderArgs) {
  const token = url.searchParams.get('token')?.trim() ?? '';
  const user = await context.account.currentUser();
  const here = `/staff-invitation?token=${encodeURIComponent(token)}`;
  try {
    const invitation = await context.account.staffInvitation(token);
    return { token, here, invitation, current: user?.email ?? null, linkError: undefined };
  } catch (error) {
    const status = (error as { status?: unknown }).status;
    if (typeof status !== 'number' || status >= 500) throw error;
    return {
      token,
      here,
      invitation: null,
      current: user?.email ?? null,
      linkError: translateError(context.locale, token === '' ? 'link-incomplete' : 'staff-invitation-gone'),
    };
  }
}

export async function action({ context, request }: Route.ActionArgs) {
  const formData = await postedForm(request);
  const parsed = invitationToken.safeParse(Object.fromEntries(formData));
  if (!parsed.success)
    return actionError({ status: 422, message: 'link-incomplete', errors: {} }, context.locale);
  try {
    await context.account.acceptStaffInvitation(parsed.data.token);
  } catch (error) {
    return actionError(error, context.locale);
  }
  return redirect('/admin');
}

export default function StaffInvitationPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useShop();
  const failure = formFailure(actionData);
  const { invitation, current, here } = loaderData;
  const mine =
    invitation !== null && current !== null && current.toLowerCase() === invitation.email.toLowerCase();
  return (
    <section className="auth-card" aria-labelledby="staff-invitation-heading">
      <PrivatePageHead title={t('staff-invitation')} />
      <h1 id="staff-invitation-heading">{t('staff-invitation')}</h1>
      <FormAlert>{loaderData.linkError ?? failure?.formError}</FormAlert>
      {invitation ? (
        <>
          <p className="auth-card__intro">
            {t('staff-invitation-offer', {
              email: invitation.email,
              role: t(
                invitation.role === 'admin' ? 'staff-invitation-role-admin' : 'staff-invitation-role-manager',
              ),
            })}
          </p>
          {current === null ? (
            <>
              <p>{t('staff-invitation-sign-in', { email: invitation.email })}</p>
              <p className="auth-card__footer">
                <Link to={signInPath(here)}>{t('sign-in')}</Link>
                {' · '}
                <Link to="/registration">{t('staff-invitation-register')}</Link>
              </p>
            </>
          ) : mine ? (
            <Form method="post" className="auth-form">
              <input type="hidden" name="token" value={loaderData.token} />
              <SubmitButton>{t('staff-invitation-accept')}</SubmitButton>
            </Form>
          ) : (
            <p>{t('staff-invitation-other', { current, email: invitation.email })}</p>
          )}
        </>
      ) : null}
    </section>
  );
}
