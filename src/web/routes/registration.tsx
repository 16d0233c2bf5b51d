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
import { safeRedirect } from '../lib/redirects.ts';
import { useShop } from '../lib/shop.ts';
import type { Route } from './+types/registration';

/** `?redirectTo=` a checkout step: registering there signs in at once and goes back to the step (ADR 0059). */
const checkoutStep = (url: URL) => {
  const target = safeRedirect(url.searchParams.get('redirectTo'), '');
  return target.startsWith('/order/') ? target : null;
};

export async function loader({ context, url }: Route.LoaderArgs) {
  if (await context.account.currentUser()) throw redirect(checkoutStep(url) ?? '/');
  return { passwordMinLength: PASSWORD_MIN_LENGTH, inCheckout: checkoutStep(url) !== null };
}

/**
 * Creates the account in the visitor's language; the confirmation mail goes out with it. Inside the
 * checkout the new account is signed in with its basket and goes back to the step.
 */
export async function action({ context, request, url }: Route.ActionArgs) {
  const step = checkoutStep(url);
  const formData = await postedForm(request);
  const parsed = parseForm(registrationBody, formData);
  if (!parsed.ok) return invalidForm(parsed.errors, context.locale, formData);
  const input = { ...parsed.data, locale: context.locale };
  try {
    if (step) await context.account.registerAndSignIn(input);
    else await context.account.register(input);
  } catch (error) {
    return actionError(error, context.locale, formData);
  }
  if (step) throw redirect(step);
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
      {loaderData.inCheckout ? <p className="auth-form__aside">{t('registration-in-checkout')}</p> : null}
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
          // An active, separate consent (ADR 0059): unticked until the visitor ticks it.
          defaultChecked={values?.privacy_policy === '1'}
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
