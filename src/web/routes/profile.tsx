import { useRef } from 'react';
import { Form } from 'react-router';
import { profileBody } from '../../contract/accounts.ts';
import { countryOptions } from '../../contract/countries.ts';
import { AccountMenu } from '../components/account-menu.tsx';
import {
  FormAlert,
  FormField,
  FormSuccess,
  SelectField,
  SubmitButton,
  useFocusFirstError,
} from '../components/form-field.tsx';
import { PrivatePageHead } from '../components/page-head.tsx';
import { actionError, formFailure, invalidForm, parseForm, postedForm } from '../lib/forms.ts';
import { requireUser } from '../lib/require-user.ts';
import { useShop } from '../lib/shop.ts';
import type { Route } from './+types/profile';

/** Personal details; guests sign in first and come back here. `?confirmed=1`: the e-mail link was followed. */
export async function loader({ context, url }: Route.LoaderArgs) {
  const user = await requireUser(context, { returnTo: '/profile' });
  const confirmed = url.searchParams.get('confirmed') === '1' && user.emailConfirmed;
  return { user, countries: countryOptions(context.locale), confirmed };
}

/** Saves the non-empty fields (spec section 5). */
export async function action({ context, request }: Route.ActionArgs) {
  const formData = await postedForm(request);
  const parsed = parseForm(profileBody, formData);
  if (!parsed.ok) return invalidForm(parsed.errors, context.locale, formData);
  try {
    await context.account.updateProfile(parsed.data);
  } catch (error) {
    return actionError(error, context.locale, formData);
  }
  return { saved: true as const };
}

const TEXT_FIELDS = [
  { name: 'first_name', label: 'first-name', autoComplete: 'given-name', type: 'text' },
  { name: 'last_name', label: 'last-name', autoComplete: 'family-name', type: 'text' },
  { name: 'phone', label: 'phone', autoComplete: 'tel', type: 'tel' },
] as const;

const ADDRESS_FIELDS = [
  { name: 'city', label: 'city', autoComplete: 'address-level2' },
  { name: 'zip', label: 'zip', autoComplete: 'postal-code' },
  { name: 'address', label: 'address', autoComplete: 'address-line1', wide: true },
] as const;

export default function ProfilePage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useShop();
  const { user, countries } = loaderData;
  const failure = formFailure(actionData);
  const saved = actionData !== undefined && 'saved' in actionData;
  const form = useRef<HTMLFormElement>(null);
  useFocusFirstError(form, failure);
  const shown = (name: (typeof TEXT_FIELDS | typeof ADDRESS_FIELDS)[number]['name'] | 'country') =>
    failure?.values?.[name] ?? user[name] ?? '';

  return (
    <div className="account-layout">
      <PrivatePageHead title={t('personal-details')} />
      <AccountMenu />
      <section className="auth-card account-card" aria-labelledby="profile-heading">
        <h1 id="profile-heading">{t('personal-details')}</h1>
        <p className="auth-card__intro">{t('personal-details-intro')}</p>
        {saved ? <FormSuccess>{t('personal-details-success')}</FormSuccess> : null}
        {loaderData.confirmed && !saved ? <FormSuccess>{t('email-confirmed')}</FormSuccess> : null}
        <dl className="account-email">
          <dt>{t('email')}</dt>
          <dd>{user.email}</dd>
        </dl>
        <p className="form-field__hint">{t('email-fixed')}</p>
        <FormAlert>{failure?.formError}</FormAlert>
        <Form method="post" ref={form} noValidate className="auth-form form-grid">
          {TEXT_FIELDS.map((field) => (
            <FormField
              key={field.name}
              name={field.name}
              type={field.type}
              label={t(field.label)}
              autoComplete={field.autoComplete}
              defaultValue={shown(field.name)}
              errors={failure?.errors[field.name]}
            />
          ))}
          <SelectField
            name="country"
            label={t('country')}
            autoComplete="country"
            defaultValue={shown('country')}
            errors={failure?.errors.country}
          >
            <option value="">{t('country-not-chosen')}</option>
            {countries.map((country) => (
              <option key={country.value} value={country.value}>
                {country.name}
              </option>
            ))}
          </SelectField>
          {ADDRESS_FIELDS.map((field) => (
            <FormField
              key={field.name}
              name={field.name}
              label={t(field.label)}
              autoComplete={field.autoComplete}
              wide={'wide' in field}
              defaultValue={shown(field.name)}
              errors={failure?.errors[field.name]}
            />
          ))}
          <div className="form-grid__wide">
            <SubmitButton>{t('save')}</SubmitButton>
          </div>
        </Form>
      </section>
    </div>
  );
}
