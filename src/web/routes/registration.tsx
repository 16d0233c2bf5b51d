import { useRef } from 'react';
import { Form, Link, redirect } from 'react-router';
import { PASSWORD_MIN_LENGTH, registrationBody } from '../../contract/accounts.ts';
import {
  CheckboxField,
  FormAlert,
  FormField,
  FormSuccess,
  SubmitButton,
  useFocusFirstError,
} from '../components/form-field.tsx';
import { NewPasswordFields } from '../components/new-password-fields.tsx';
import { PrivatePageHead } from '../components/page-head.tsx';
import { actionError, formFailure, invalidForm, parseForm, postedForm } from '../lib/forms.ts';
import { useShop } from '../lib/shop.ts';
import type { Route } from './+types/registration';

export async function loader({ context }: Route.LoaderArgs) {
  if (await context.account.currentUser()) throw redirect('/');
  return { passwordMinLength: PASSWORD_MIN_LENGTH };
}

/** Creates the account in the visitor's language; the confirmation mail goes out with it. */
export async function action({ context, request }: Route.ActionArgs) {
  const formData = await postedForm(request);
  const parsed = parseForm(registrationBody, formData);
  if (!parsed.ok) return invalidForm(parsed.errors, context.locale, formData);
  try {
    await context.account.register({ ...parsed.data, locale: context.locale });
  } catch (error) {
    return actionError(error, context.locale, formData);
  }
  return { done: true as const, email: parsed.data.email };
}

export default function RegistrationPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useShop();
  const failure = formFailure(actionData);
  const form = useRef<HTMLFormElement>(null);
  useFocusFirstError(form, failure);

  if (actionData && 'done' in actionData) {
    return (
      <section className="auth-card" aria-labelledby="registration-heading">
        <PrivatePageHead title={t('registration')} />
        <h1 id="registration-heading">{t('registration-done')}</h1>
        <FormSuccess>{t('registration-success', { email: actionData.email })}</FormSuccess>
        <p className="auth-card__footer">
          <Link to="/">{t('go-home')}</Link>
        </p>
      </section>
    );
  }

  const values = failure?.values;
  return (
    <section className="auth-card" aria-labelledby="registration-heading">
      <PrivatePageHead title={t('registration')} />
      <h1 id="registration-heading">{t('registration')}</h1>
      <FormAlert>{failure?.formError}</FormAlert>
      <Form method="post" ref={form} noValidate className="auth-form">
        <FormField
          name="email"
          type="email"
          label={t('email')}
          autoComplete="email"
          required
          defaultValue={values?.email ?? ''}
          errors={failure?.errors.email}
        />
        <NewPasswordFields
          label={t('password')}
          minLength={loaderData.passwordMinLength}
          errors={failure?.errors}
        />
        <CheckboxField
          name="privacy_policy"
          value="1"
          required
          // Checked by default (spec); after a refused submit without JavaScript, as it was sent.
          defaultChecked={values ? values.privacy_policy === '1' : true}
          label={
            <>
              {t('privacy-policy-consent')}{' '}
              <Link to="/privacy-policy" target="_blank">
                {t('privacy-policy-consent-link')}
              </Link>
            </>
          }
          errors={failure?.errors.privacy_policy}
        />
        <SubmitButton>{t('register')}</SubmitButton>
      </Form>
      <p className="auth-card__footer">
        {t('have-account')} <Link to="/login">{t('login')}</Link>
      </p>
    </section>
  );
}
