import { useRef } from 'react';
import { Form, Link, redirect } from 'react-router';
import { restoreBody } from '../../contract/accounts.ts';
import {
  FormAlert,
  FormField,
  FormSuccess,
  SubmitButton,
  useFocusFirstError,
} from '../components/form-field.tsx';
import { PrivatePageHead } from '../components/page-head.tsx';
import { actionError, formFailure, invalidForm, parseForm, postedForm } from '../lib/forms.ts';
import { useShop } from '../lib/shop.ts';
import type { Route } from './+types/restore';

export async function loader({ context }: Route.LoaderArgs) {
  if (await context.account.currentUser()) throw redirect('/');
  return null;
}

/** Mails a reset link when the address is known; the answer is the same either way. */
export async function action({ context, request }: Route.ActionArgs) {
  const formData = await postedForm(request);
  const parsed = parseForm(restoreBody, formData);
  if (!parsed.ok) return invalidForm(parsed.errors, context.locale, formData);
  try {
    await context.account.restore(parsed.data.email, context.locale);
  } catch (error) {
    return actionError(error, context.locale, formData);
  }
  return { sent: true as const };
}

export default function RestorePage({ actionData }: Route.ComponentProps) {
  const { t } = useShop();
  const failure = formFailure(actionData);
  const form = useRef<HTMLFormElement>(null);
  useFocusFirstError(form, failure);
  const sent = actionData !== undefined && 'sent' in actionData;
  return (
    <section className="auth-card" aria-labelledby="restore-heading">
      <PrivatePageHead title={t('restore')} />
      <h1 id="restore-heading">{t('restore')}</h1>
      {sent ? (
        <FormSuccess>{t('restore-sent')}</FormSuccess>
      ) : (
        <>
          <p className="auth-card__intro">{t('restore-intro')}</p>
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
            <SubmitButton>{t('restore-submit')}</SubmitButton>
          </Form>
        </>
      )}
      <p className="auth-card__footer">
        <Link to="/login">{t('back-to-login')}</Link>
      </p>
    </section>
  );
}
