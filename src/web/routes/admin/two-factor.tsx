import { useRef } from 'react';
import { Form } from 'react-router';
import { secondFactorBody } from '../../../contract/accounts.ts';
import { useAdminShop } from '../../admin/text.ts';
import { AdminErrorBoundary, AdminPage } from '../../admin/ui.tsx';
import {
  FormAlert,
  FormField,
  FormSuccess,
  SubmitButton,
  useFocusFirstError,
} from '../../components/form-field.tsx';
import { actionError, formFailure, invalidForm, parseForm, postedForm } from '../../lib/forms.ts';
import type { Route } from './+types/two-factor';

/**
 * Two-step sign-in for the signed-in staff member (ADR 0055): a new secret shown as a QR code and
 * as text, confirmed with a code from the app, after which the recovery codes are shown once.
 */
export async function loader({ context }: Route.LoaderArgs) {
  return {
    on: await context.account.twoFactorOn(),
    required: await context.account.twoFactorMissing(),
  };
}

const START = 'start';
const CONFIRM = 'confirm';

export async function action({ context, request }: Route.ActionArgs) {
  const formData = await postedForm(request);
  try {
    if (formData.get('intent') === START) return { setup: await context.account.startTwoFactor() };
    const parsed = parseForm(secondFactorBody, formData);
    if (!parsed.ok) return invalidForm(parsed.errors, context.locale, formData);
    return { recoveryCodes: await context.account.confirmTwoFactor(parsed.data.code) };
  } catch (error) {
    return actionError(error, context.locale, formData);
  }
}

export default function TwoFactorPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useAdminShop();
  const failure = formFailure(actionData);
  const form = useRef<HTMLFormElement>(null);
  useFocusFirstError(form, failure);
  const setup = actionData && 'setup' in actionData ? actionData.setup : undefined;
  const recoveryCodes = actionData && 'recoveryCodes' in actionData ? actionData.recoveryCodes : undefined;
  // A wrong code keeps the secret being set up: its form is shown again with the error.
  const confirming = setup ?? (failure?.values?.intent === CONFIRM ? failure.values : undefined);

  if (recoveryCodes) {
    return (
      <AdminPage title={t('admin-two-factor')}>
        <FormSuccess>{t('admin-two-factor-done')}</FormSuccess>
        <p>{t('admin-two-factor-recovery')}</p>
        <ul className="admin-recovery-codes">
          {recoveryCodes.map((code) => (
            <li key={code}>
              <code>{code}</code>
            </li>
          ))}
        </ul>
      </AdminPage>
    );
  }
  return (
    <AdminPage title={t('admin-two-factor')}>
      {loaderData.required ? <p role="status">{t('admin-two-factor-required')}</p> : null}
      <FormAlert>{failure?.formError}</FormAlert>
      {loaderData.on ? (
        <p>{t('admin-two-factor-on')}</p>
      ) : confirming ? (
        <Form method="post" ref={form} noValidate className="admin-card admin-form">
          <p>{t('admin-two-factor-scan')}</p>
          {setup ? (
            // The SVG comes from the qrcode library, made from the URI alone.
            // biome-ignore lint/security/noDangerouslySetInnerHtml: a generated QR code, no visitor text
            <div className="admin-qr-code" dangerouslySetInnerHTML={{ __html: setup.qrSvg }} />
          ) : null}
          <p>
            {t('admin-two-factor-key')}: <code>{confirming.secret}</code>
          </p>
          <input type="hidden" name="intent" value={CONFIRM} />
          <input type="hidden" name="secret" value={confirming.secret} />
          <FormField
            name="code"
            label={t('admin-two-factor-code')}
            autoComplete="one-time-code"
            inputMode="numeric"
            required
            errors={failure?.errors.code}
          />
          <SubmitButton>{t('admin-two-factor-confirm')}</SubmitButton>
        </Form>
      ) : (
        <Form method="post" className="admin-card admin-form">
          <p>{t('admin-two-factor-off')}</p>
          <input type="hidden" name="intent" value={START} />
          <SubmitButton>{t('admin-two-factor-start')}</SubmitButton>
        </Form>
      )}
    </AdminPage>
  );
}

export function ErrorBoundary() {
  return <AdminErrorBoundary />;
}
