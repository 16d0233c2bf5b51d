import { useRef } from 'react';
import { Form, Link, redirect } from 'react-router';
import { loginBody } from '../../contract/accounts.ts';
import {
  FormAlert,
  FormField,
  FormSuccess,
  SubmitButton,
  useFocusFirstError,
} from '../components/form-field.tsx';
import { PrivatePageHead } from '../components/page-head.tsx';
import { actionError, formFailure, invalidForm, parseForm, postedForm } from '../lib/forms.ts';
import { safeRedirect } from '../lib/redirects.ts';
import { useShop } from '../lib/shop.ts';
import type { Route } from './+types/login';

/** Only for visitors who are signed out; `?reset=1` after a password change, `?redirectTo=` to go back. */
export async function loader({ context, url }: Route.LoaderArgs) {
  if (await context.account.currentUser()) throw redirect('/');
  const passwordChanged = url.searchParams.get('reset') === '1';
  return { passwordChanged };
}

export async function action({ context, request, url }: Route.ActionArgs) {
  // Checked first: a target refused with 400 must not leave the visitor signed in.
  const redirectTo = safeRedirect(url.searchParams.get('redirectTo'));
  const formData = await postedForm(request);
  const parsed = parseForm(loginBody, formData);
  if (!parsed.ok) return invalidForm(parsed.errors, context.locale, formData);
  try {
    await context.account.login(parsed.data);
  } catch (error) {
    return actionError(error, context.locale, formData);
  }
  return redirect(redirectTo);
}

export default function LoginPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useShop();
  const failure = formFailure(actionData);
  const form = useRef<HTMLFormElement>(null);
  useFocusFirstError(form, failure);
  return (
    <section className="auth-card" aria-labelledby="login-heading">
      <PrivatePageHead title={t('login')} />
      <h1 id="login-heading">{t('login')}</h1>
      {loaderData.passwordChanged && !failure ? <FormSuccess>{t('password-changed')}</FormSuccess> : null}
      <FormAlert>{failure?.formError}</FormAlert>
      <Form method="post" ref={form} noValidate className="auth-form">
        <FormField
          name="email"
          type="email"
          label={t('email')}
          autoComplete="email"
          required
          defaultValue={failure?.values?.email ?? ''}
          errors={failure?.errors.email}
        />
        <FormField
          name="password"
          type="password"
          label={t('password')}
          autoComplete="current-password"
          required
          errors={failure?.errors.password}
        />
        <p className="auth-form__aside">
          <Link to="/restore">{t('forgot-password')}</Link>
        </p>
        <SubmitButton>{t('sign-in')}</SubmitButton>
      </Form>
      <p className="auth-card__footer">
        {t('no-account')} <Link to="/registration">{t('create-account')}</Link>
      </p>
    </section>
  );
}
