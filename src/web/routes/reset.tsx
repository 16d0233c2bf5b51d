import { useRef } from 'react';
import { Form, Link, redirect } from 'react-router';
import { PASSWORD_MIN_LENGTH, resetBody } from '../../contract/accounts.ts';
import { translateError } from '../../contract/error-messages.ts';
import { FormAlert, FormField, SubmitButton, useFocusFirstError } from '../components/form-field.tsx';
import { NewPasswordFields } from '../components/new-password-fields.tsx';
import { PrivatePageHead } from '../components/page-head.tsx';
import { actionError, formFailure, invalidForm, parseForm, postedForm } from '../lib/forms.ts';
import { useShop } from '../lib/shop.ts';
import type { Route } from './+types/reset';

/** Opened from the mailed link: `/reset?token=…&email=…`. */
export async function loader({ context, url }: Route.LoaderArgs) {
  if (await context.account.currentUser()) throw redirect('/');
  const query = url.searchParams;
  const token = query.get('token')?.trim() ?? '';
  return {
    passwordMinLength: PASSWORD_MIN_LENGTH,
    token,
    email: query.get('email') ?? '',
    linkError: token === '' ? translateError(context.locale, 'link-incomplete') : undefined,
  };
}

/** Sets the new password; every session of the account ends, so the visitor signs in again. */
export async function action({ context, request }: Route.ActionArgs) {
  const formData = await postedForm(request);
  const parsed = parseForm(resetBody, formData);
  if (!parsed.ok) return invalidForm(parsed.errors, context.locale, formData);
  try {
    await context.account.reset(parsed.data);
  } catch (error) {
    return actionError(error, context.locale, formData);
  }
  return redirect('/login?reset=1');
}

export default function ResetPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useShop();
  const failure = formFailure(actionData);
  const form = useRef<HTMLFormElement>(null);
  useFocusFirstError(form, failure);

  if (loaderData.linkError) {
    return (
      <section className="auth-card" aria-labelledby="reset-heading">
        <PrivatePageHead title={t('reset')} />
        <h1 id="reset-heading">{t('reset')}</h1>
        <FormAlert>{loaderData.linkError}</FormAlert>
        <p className="auth-card__footer">
          <Link to="/restore">{t('request-new-link')}</Link>
        </p>
      </section>
    );
  }

  // The token is a hidden field: its error (expired or used link) is shown above the form.
  const formError = failure?.formError ?? failure?.errors.token?.join(' ');
  return (
    <section className="auth-card" aria-labelledby="reset-heading">
      <PrivatePageHead title={t('reset')} />
      <h1 id="reset-heading">{t('reset')}</h1>
      <p className="auth-card__intro">{t('reset-intro')}</p>
      <FormAlert>
        {formError ? (
          <>
            {formError} <Link to="/restore">{t('request-new-link')}</Link>
          </>
        ) : null}
      </FormAlert>
      <Form method="post" ref={form} noValidate className="auth-form">
        <input type="hidden" name="token" value={loaderData.token} />
        <FormField
          name="email"
          type="email"
          label={t('email')}
          autoComplete="username"
          required
          defaultValue={failure?.values?.email ?? loaderData.email}
          errors={failure?.errors.email}
        />
        <NewPasswordFields
          label={t('new-password')}
          minLength={loaderData.passwordMinLength}
          errors={failure?.errors}
        />
        <SubmitButton>{t('reset-submit')}</SubmitButton>
      </Form>
    </section>
  );
}
