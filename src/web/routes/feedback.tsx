import { useEffect, useRef } from 'react';
import { Form } from 'react-router';
import { feedbackBody } from '../../contract/feedback.ts';
import {
  FormAlert,
  FormField,
  FormSuccess,
  SubmitButton,
  TextAreaField,
  useFocusFirstError,
} from '../components/form-field.tsx';
import { PublicPageHead } from '../components/page-head.tsx';
import { actionError, formFailure, invalidForm, parseForm, postedForm } from '../lib/forms.ts';
import { useShop } from '../lib/shop.ts';
import type { Route } from './+types/feedback';

export async function loader({ context }: Route.LoaderArgs) {
  const user = await context.account.currentUser();
  return { email: user?.email ?? '' };
}

/** Stores the message and mails it to the shop, with the visitor's address to reply to. */
export async function action({ context, request }: Route.ActionArgs) {
  const formData = await postedForm(request);
  const parsed = parseForm(feedbackBody, formData);
  if (!parsed.ok) return invalidForm(parsed.errors, context.locale, formData);
  try {
    await context.services.feedback.submit(parsed.data, { ip: context.ip, locale: context.locale });
  } catch (error) {
    return actionError(error, context.locale, formData);
  }
  return { sent: true as const };
}

export default function FeedbackPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useShop();
  const failure = formFailure(actionData);
  const sent = actionData !== undefined && 'sent' in actionData;
  const form = useRef<HTMLFormElement>(null);
  useFocusFirstError(form, failure);
  // After sending, an empty form for the next message (without JavaScript the new page is empty anyway).
  useEffect(() => {
    if (actionData && 'sent' in actionData) form.current?.reset();
  }, [actionData]);
  const values = failure?.values;
  return (
    <section className="auth-card feedback-card" aria-labelledby="feedback-heading">
      <PublicPageHead title={t('feedback')} description={t('feedback-intro')} path="/feedback" />
      <h1 id="feedback-heading">{t('feedback')}</h1>
      <p className="auth-card__intro">{t('feedback-intro')}</p>
      {sent ? <FormSuccess>{t('feedback-sent')}</FormSuccess> : null}
      <FormAlert>{failure?.formError}</FormAlert>
      <Form method="post" ref={form} noValidate className="auth-form">
        <FormField
          name="name"
          label={t('your-name')}
          autoComplete="name"
          required
          maxLength={100}
          defaultValue={values?.name ?? ''}
          errors={failure?.errors.name}
        />
        <FormField
          name="email"
          type="email"
          label={t('email')}
          autoComplete="email"
          required
          defaultValue={values?.email ?? loaderData.email}
          errors={failure?.errors.email}
        />
        <TextAreaField
          name="message"
          label={t('message')}
          required
          rows={6}
          maxLength={5000}
          defaultValue={values?.message ?? ''}
          errors={failure?.errors.message}
        />
        <SubmitButton>{t('send')}</SubmitButton>
      </Form>
    </section>
  );
}
