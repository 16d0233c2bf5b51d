import { useRef } from 'react';
import { Form, Link, redirect } from 'react-router';
import { loginBody, restoreBody, secondFactorBody } from '../../contract/accounts.ts';
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

/**
 * Only for visitors who are signed out; `?reset=1` after a password change, `?redirectTo=` to go back.
 * A staff sign-in whose password passed asks for its second step's code here (ADR 0055).
 */
export async function loader({ context, url }: Route.LoaderArgs) {
  const redirectTo = safeRedirect(url.searchParams.get('redirectTo'));
  if (await context.account.currentUser()) throw redirect(redirectTo);
  const passwordChanged = url.searchParams.get('reset') === '1';
  // Registering from here goes back to the same place (the checkout step the visitor came from).
  const registration =
    redirectTo === '/' ? '/registration' : `/registration?redirectTo=${encodeURIComponent(redirectTo)}`;
  return { passwordChanged, registration, secondFactor: context.account.secondFactorPending() };
}

/** The button offered when the account's e-mail is not confirmed yet: mails the link again. */
const RESEND_CONFIRMATION = 'resend-confirmation';
/** The second step of a staff sign-in: the code form. */
const SECOND_FACTOR = 'second-factor';

export async function action({ context, request, url }: Route.ActionArgs) {
  // Checked first: a target refused with 400 must not leave the visitor signed in.
  const redirectTo = safeRedirect(url.searchParams.get('redirectTo'));
  const formData = await postedForm(request);
  if (formData.get('intent') === RESEND_CONFIRMATION) return resendConfirmation(context, formData);
  if (formData.get('intent') === SECOND_FACTOR) return secondFactor(context, formData, redirectTo);
  const parsed = parseForm(loginBody, formData);
  if (!parsed.ok) return invalidForm(parsed.errors, context.locale, formData);
  try {
    const outcome = await context.account.login(parsed.data);
    if (outcome.secondFactor) return { secondFactor: true as const };
  } catch (error) {
    return actionError(error, context.locale, formData);
  }
  return redirect(redirectTo);
}

async function secondFactor(context: Route.ActionArgs['context'], formData: FormData, redirectTo: string) {
  const parsed = parseForm(secondFactorBody, formData);
  if (!parsed.ok) return invalidForm(parsed.errors, context.locale, formData);
  try {
    await context.account.secondFactor(parsed.data.code);
  } catch (error) {
    return actionError(error, context.locale, formData);
  }
  return redirect(redirectTo);
}

/** Answers the same whether or not the address has an unconfirmed account (as password recovery). */
async function resendConfirmation(context: Route.ActionArgs['context'], formData: FormData) {
  const parsed = parseForm(restoreBody, formData);
  if (!parsed.ok) return invalidForm(parsed.errors, context.locale, formData);
  try {
    await context.account.resendConfirmation(parsed.data.email, context.locale);
  } catch (error) {
    return actionError(error, context.locale, formData);
  }
  return { confirmationSentTo: parsed.data.email };
}

export default function LoginPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useShop();
  const failure = formFailure(actionData);
  const form = useRef<HTMLFormElement>(null);
  useFocusFirstError(form, failure);
  const confirmationSentTo =
    actionData && 'confirmationSentTo' in actionData ? actionData.confirmationSentTo : undefined;
  const unconfirmedEmail = failure?.errorKey === 'email-not-confirmed' ? failure.values?.email : undefined;
  const askForCode =
    failure?.errorKey !== 'sign-in-required' &&
    ((actionData !== undefined && 'secondFactor' in actionData) ||
      loaderData.secondFactor ||
      failure?.values?.intent === SECOND_FACTOR);
  if (askForCode) {
    return (
      <section className="auth-card" aria-labelledby="login-heading">
        <PrivatePageHead title={t('login')} />
        <h1 id="login-heading">{t('second-factor-heading')}</h1>
        <FormAlert>{failure?.formError}</FormAlert>
        <Form method="post" ref={form} noValidate className="auth-form">
          <input type="hidden" name="intent" value={SECOND_FACTOR} />
          <FormField
            name="code"
            label={t('second-factor-code')}
            hint={t('second-factor-hint')}
            autoComplete="one-time-code"
            inputMode="text"
            required
            errors={failure?.errors.code}
          />
          <SubmitButton>{t('second-factor-submit')}</SubmitButton>
        </Form>
      </section>
    );
  }
  return (
    <section className="auth-card" aria-labelledby="login-heading">
      <PrivatePageHead title={t('login')} />
      <h1 id="login-heading">{t('login')}</h1>
      {loaderData.passwordChanged && !failure ? <FormSuccess>{t('password-changed')}</FormSuccess> : null}
      {confirmationSentTo ? (
        <FormSuccess>{t('confirmation-sent', { email: confirmationSentTo })}</FormSuccess>
      ) : null}
      <FormAlert>{failure?.formError}</FormAlert>
      {unconfirmedEmail ? (
        <Form method="post" className="auth-form__resend">
          <input type="hidden" name="email" value={unconfirmedEmail} />
          <button type="submit" name="intent" value={RESEND_CONFIRMATION} className="button">
            {t('resend-confirmation')}
          </button>
        </Form>
      ) : null}
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
        {t('no-account')} <Link to={loaderData.registration}>{t('create-account')}</Link>
      </p>
    </section>
  );
}
