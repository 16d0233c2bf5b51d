import { type FormEvent, useState } from 'react';
import { useRevalidator } from 'react-router';
import { imageUrl } from '../../../contract/images.ts';
import { adminApi, loadAdmin } from '../../admin/api.ts';
import { PictureField } from '../../admin/picture-field.tsx';
import { useAdminShop } from '../../admin/text.ts';
import type { AdminPartner } from '../../admin/types.ts';
import {
  AdminErrorBoundary,
  AdminLoading,
  AdminPage,
  BusyButton,
  RequestAlert,
  RowActions,
  useAdminRequest,
} from '../../admin/ui.tsx';
import { useUnsavedChanges } from '../../admin/unsaved-changes.tsx';
import { CheckboxField, FormField, FormSuccess, TextAreaField } from '../../components/form-field.tsx';
import type { Route } from './+types/partners';

export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  return loadAdmin<{ partners: AdminPartner[] }>('/partners', request);
}

export function HydrateFallback() {
  return <AdminLoading />;
}

/** The networks the partners page has icons for; any other type shows without one. */
const NETWORKS = ['vk', 'twitter', 'steam', 'youtube', 'instagram', 'facebook'];

const TEXT_FIELDS = [
  'name_ru',
  'name_en',
  'image',
  'link',
  'email',
  'phone_number',
  'phone_number_mobile',
  'telegram',
  'messenger',
  'position',
] as const;
type TextField = (typeof TEXT_FIELDS)[number];

interface Values extends Record<TextField, string> {
  desc_ru: string;
  desc_en: string;
  socials: Array<{ key: number; type: string; link: string }>;
  visible: boolean;
}

let socialKeys = 0;
const social = (type = 'vk', link = '') => ({ key: ++socialKeys, type, link });

const EMPTY: Values = {
  name_ru: '',
  name_en: '',
  desc_ru: '',
  desc_en: '',
  image: '',
  link: '',
  email: '',
  phone_number: '',
  phone_number_mobile: '',
  telegram: '',
  messenger: '',
  socials: [],
  visible: true,
  position: '0',
};

const valuesOf = (partner: AdminPartner): Values => ({
  name_ru: partner.name_ru,
  name_en: partner.name_en,
  desc_ru: partner.desc_ru,
  desc_en: partner.desc_en,
  image: partner.image ?? '',
  link: partner.link ?? '',
  email: partner.email ?? '',
  phone_number: partner.phone_number ?? '',
  phone_number_mobile: partner.phone_number_mobile ?? '',
  telegram: partner.telegram ?? '',
  messenger: partner.messenger ?? '',
  socials: partner.socials.map((entry) => social(entry.type, entry.link)),
  visible: partner.visible,
  position: String(partner.position),
});

const bodyOf = (values: Values) => ({
  ...values,
  socials: values.socials.map(({ type, link }) => ({ type, link })),
});

const LABELS = {
  name_ru: 'admin-name-ru',
  name_en: 'admin-name-en',
  image: 'admin-image-file',
  link: 'partner-site',
  email: 'partner-email',
  phone_number: 'partner-phone',
  phone_number_mobile: 'partner-mobile',
  telegram: 'partner-telegram',
  messenger: 'partner-messenger',
  position: 'admin-position',
} as const;

const SHOWN = [...TEXT_FIELDS, 'desc_ru', 'desc_en', 'visible', 'socials'];

export default function PartnersPage({ loaderData }: Route.ComponentProps) {
  const { t, locale } = useAdminShop();
  const save = useAdminRequest();
  const action = useAdminRequest();
  const revalidator = useRevalidator();
  const [editing, setEditing] = useState<AdminPartner | null>(null);
  const [values, setValues] = useState<Values>(EMPTY);
  useUnsavedChanges(JSON.stringify(values) !== JSON.stringify(editing ? valuesOf(editing) : EMPTY));
  const name = (partner: AdminPartner) => (locale === 'ru' ? partner.name_ru : partner.name_en);
  const setSocial = (key: number, change: Partial<{ type: string; link: string }>) =>
    setValues((current) => ({
      ...current,
      socials: current.socials.map((entry) => (entry.key === key ? { ...entry, ...change } : entry)),
    }));

  const startEditing = (partner: AdminPartner | null) => {
    save.reset();
    setEditing(partner);
    setValues(partner ? valuesOf(partner) : EMPTY);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const body = bodyOf(values);
    const done = await save.run(
      () =>
        editing
          ? adminApi('PATCH', `/partners/${editing.id}`, { json: { ...body, version: editing.version } })
          : adminApi('POST', '/partners', { json: body }),
      { success: t('admin-partner-saved') },
    );
    if (done) {
      setEditing(null);
      setValues(EMPTY);
    }
  };

  const reloadList = () => {
    action.reset();
    void revalidator.revalidate();
  };

  /** Someone else saved the partner meanwhile: their version replaces what was typed here. */
  const reloadEditing = async () => {
    if (!editing) return;
    const answer = await save.run(() => adminApi<{ partners: AdminPartner[] }>('GET', '/partners'));
    if (answer) startEditing(answer.partners.find((partner) => partner.id === editing.id) ?? null);
  };

  const remove = (partner: AdminPartner) => {
    if (!window.confirm(t('admin-confirm-delete', { name: name(partner) }))) return;
    void action.run(() => adminApi('DELETE', `/partners/${partner.id}`));
    if (editing?.id === partner.id) startEditing(null);
  };

  const toggle = (partner: AdminPartner) =>
    action.run(() =>
      adminApi('PATCH', `/partners/${partner.id}`, {
        json: { ...bodyOf({ ...valuesOf(partner), visible: !partner.visible }), version: partner.version },
      }),
    );

  return (
    <AdminPage title={t('admin-partners')}>
      <section className="admin-card" aria-label={t('admin-partners')}>
        <RequestAlert
          message={action.message}
          errors={action.errors}
          shownFields={[]}
          onReload={action.recordChanged ? reloadList : undefined}
        />
        {loaderData.partners.length === 0 ? (
          <p>{t('admin-nothing-yet')}</p>
        ) : (
          <div className="admin-table-scroll">
            <table className="admin-table">
              <thead>
                <tr>
                  <th scope="col">
                    <span className="visually-hidden">{t('admin-image')}</span>
                  </th>
                  <th scope="col">{t('admin-name')}</th>
                  <th scope="col">{t('contacts')}</th>
                  <th scope="col">{t('admin-visibility')}</th>
                  <th scope="col">{t('admin-actions')}</th>
                </tr>
              </thead>
              <tbody>
                {loaderData.partners.map((partner) => (
                  <tr key={partner.id} className={partner.visible ? undefined : 'admin-row--hidden'}>
                    <td>
                      {partner.image && partner.imageMissing ? (
                        <span className="picture-field__missing">{t('admin-picture-missing-short')}</span>
                      ) : partner.image ? (
                        <img
                          src={imageUrl('partners', partner.image, 160)}
                          alt=""
                          width={48}
                          height={48}
                          className="admin-thumb"
                        />
                      ) : null}
                    </td>
                    <td>
                      {name(partner)}
                      <br />
                      <span className="admin-muted" lang={locale === 'ru' ? 'en' : 'ru'}>
                        {locale === 'ru' ? partner.name_en : partner.name_ru}
                      </span>
                    </td>
                    <td>
                      {[partner.email, partner.link, partner.telegram].filter(Boolean).join(' · ')}
                      {partner.socials.length > 0 ? (
                        <span className="admin-muted">
                          {' '}
                          · {partner.socials.map((entry) => entry.type).join(', ')}
                        </span>
                      ) : null}
                    </td>
                    <td>{partner.visible ? t('admin-shown') : t('admin-hidden')}</td>
                    <td>
                      <RowActions
                        name={name(partner)}
                        visible={partner.visible}
                        onEdit={() => startEditing(partner)}
                        onToggle={() => toggle(partner)}
                        onDelete={() => remove(partner)}
                      />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      <form
        className="admin-card admin-form"
        onSubmit={submit}
        noValidate
        aria-labelledby="partner-form-heading"
      >
        <h2 id="partner-form-heading">
          {editing ? t('admin-edit-item', { name: name(editing) }) : t('admin-new-partner')}
        </h2>
        {save.done ? <FormSuccess>{save.done}</FormSuccess> : null}
        <RequestAlert
          message={save.message}
          errors={save.errors}
          shownFields={SHOWN}
          onReload={save.recordChanged ? () => void reloadEditing() : undefined}
        />
        <PictureField
          label={t('admin-partner-picture')}
          folder="partners"
          value={values.image}
          missing={editing?.imageMissing === true && values.image === (editing.image ?? '')}
          onChange={(image) => setValues((current) => ({ ...current, image }))}
          errors={save.errors.image}
        />
        <div className="admin-form__grid">
          {TEXT_FIELDS.filter((field) => field !== 'image').map((field) => (
            <FormField
              key={field}
              name={field}
              type={
                field === 'email'
                  ? 'email'
                  : field === 'position'
                    ? 'number'
                    : field === 'link'
                      ? 'url'
                      : 'text'
              }
              label={t(LABELS[field])}
              value={values[field]}
              onChange={(event) => setValues((current) => ({ ...current, [field]: event.target.value }))}
              errors={save.errors[field]}
              required={field === 'name_ru' || field === 'name_en'}
            />
          ))}
        </div>
        <div className="admin-form__pair">
          <TextAreaField
            name="desc_ru"
            label={t('admin-description-ru')}
            value={values.desc_ru}
            onChange={(event) => setValues((current) => ({ ...current, desc_ru: event.target.value }))}
            errors={save.errors.desc_ru}
          />
          <TextAreaField
            name="desc_en"
            label={t('admin-description-en')}
            value={values.desc_en}
            onChange={(event) => setValues((current) => ({ ...current, desc_en: event.target.value }))}
            errors={save.errors.desc_en}
          />
        </div>

        <fieldset className="admin-fieldset">
          <legend>{t('partner-socials')}</legend>
          {values.socials.length === 0 ? <p className="form-field__hint">{t('admin-no-socials')}</p> : null}
          <ol className="admin-socials">
            {values.socials.map((entry, index) => {
              const number = index + 1;
              const linkErrors = save.errors[`socials.${index}.link`];
              return (
                <li key={entry.key} className="admin-social">
                  <label>
                    <span className="visually-hidden">{t('admin-social-type', { number })}</span>
                    <select
                      value={entry.type}
                      onChange={(event) => setSocial(entry.key, { type: event.target.value })}
                    >
                      {[...new Set([...NETWORKS, entry.type])].map((network) => (
                        <option key={network} value={network}>
                          {network}
                        </option>
                      ))}
                    </select>
                  </label>
                  <label className="admin-social__link">
                    <span className="visually-hidden">{t('admin-social-link', { number })}</span>
                    <input
                      type="url"
                      value={entry.link}
                      placeholder="https://"
                      aria-invalid={linkErrors ? true : undefined}
                      onChange={(event) => setSocial(entry.key, { link: event.target.value })}
                    />
                  </label>
                  <button
                    type="button"
                    className="link-button"
                    onClick={() =>
                      setValues((current) => ({
                        ...current,
                        socials: current.socials.filter((other) => other.key !== entry.key),
                      }))
                    }
                  >
                    {t('admin-remove')}
                    <span className="visually-hidden"> {t('admin-social-link', { number })}</span>
                  </button>
                  {linkErrors ? (
                    <p className="form-field__error admin-social__error">{linkErrors.join(' ')}</p>
                  ) : null}
                </li>
              );
            })}
          </ol>
          {save.errors.socials ? <p className="form-field__error">{save.errors.socials.join(' ')}</p> : null}
          <button
            type="button"
            className="button"
            onClick={() => setValues((current) => ({ ...current, socials: [...current.socials, social()] }))}
          >
            {t('admin-add-social')}
          </button>
        </fieldset>

        <CheckboxField
          name="visible"
          label={t('admin-visible')}
          checked={values.visible}
          onChange={(event) => setValues((current) => ({ ...current, visible: event.target.checked }))}
        />
        <div className="admin-actions">
          <BusyButton busy={save.busy} primary>
            {t('save')}
          </BusyButton>
          {editing ? (
            <button type="button" className="button" onClick={() => startEditing(null)}>
              {t('admin-cancel')}
            </button>
          ) : null}
        </div>
      </form>
    </AdminPage>
  );
}

export function ErrorBoundary() {
  return <AdminErrorBoundary />;
}
