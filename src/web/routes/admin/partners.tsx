import { getFormProps, useInputControl } from '@conform-to/react';
import { useEffect, useState } from 'react';
import { useFetcher, useRevalidator } from 'react-router';
import { partnerEdit, partnerInput } from '../../../contract/admin.ts';
import { adminPartnersResponse } from '../../../contract/admin-answers.ts';
import { imageUrl } from '../../../contract/images.ts';
import { adminApi, loadAdminAnswer } from '../../admin/api.ts';
import {
  adminCall,
  adminWrite,
  fieldProps,
  formAlert,
  revalidateUnlessRefused,
  submitAdminForm,
  useAdminForm,
  withCheckboxes,
} from '../../admin/forms.ts';
import { PictureField } from '../../admin/picture-field.tsx';
import { useAdminShop } from '../../admin/text.ts';
import type { AdminPartner } from '../../admin/types.ts';
import {
  AdminErrorBoundary,
  AdminLoading,
  AdminPage,
  EditedRecord,
  FormRefusal,
  RequestAlert,
  RowActions,
  SaveOrCancel,
} from '../../admin/ui.tsx';
import { useUnsavedChanges } from '../../admin/unsaved-changes.tsx';
import { CheckboxField, FormField, FormSuccess, TextAreaField } from '../../components/form-field.tsx';
import type { Route } from './+types/partners';

export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  return loadAdminAnswer(adminPartnersResponse, '/partners', request);
}

/**
 * The partners page's writes: the form's save (a new partner, or the one named by `id` at the
 * `version` it was loaded with), and a row's hiding, showing or deletion.
 */
export async function clientAction({ request }: Route.ClientActionArgs) {
  const formData = await request.formData();
  const intent = formData.get('intent');
  const id = encodeURIComponent(String(formData.get('id') ?? ''));
  switch (intent) {
    case 'save':
      return {
        intent,
        ...(await submitAdminForm(formData, {
          schema: id ? partnerEdit : partnerInput,
          prepare: (fields) => withCheckboxes(fields, ['visible']),
          send: (fields) =>
            id
              ? adminApi('PATCH', `/partners/${id}`, { json: fields })
              : adminApi('POST', '/partners', { json: fields }),
        })),
      };
    case 'toggle':
      return {
        intent,
        ...(await adminWrite(async () => {
          // The row names the partner at the version it shows; the rest of the record is sent as saved.
          const { partners } = await adminCall(adminPartnersResponse, 'GET', '/partners');
          const partner = partners.find((entry) => String(entry.id) === decodeURIComponent(id));
          if (!partner) return adminApi('PATCH', `/partners/${id}`, { json: {} });
          return adminApi('PATCH', `/partners/${id}`, {
            json: { ...bodyOf(partner), visible: !partner.visible, version: formData.get('version') },
          });
        })),
      };
    case 'delete':
      return { intent, ...(await adminWrite(() => adminApi('DELETE', `/partners/${id}`))) };
    default:
      throw new Response(null, { status: 400 });
  }
}

export const shouldRevalidate = revalidateUnlessRefused;

export function HydrateFallback() {
  return <AdminLoading />;
}

/** The networks the partners page has icons for; any other type shows without one. */
const NETWORKS = ['vk', 'twitter', 'steam', 'youtube', 'instagram', 'facebook'];

const TEXT_FIELDS = [
  'name_ru',
  'name_en',
  'link',
  'email',
  'phone_number',
  'phone_number_mobile',
  'telegram',
  'messenger',
  'position',
] as const;

/** A partner's fields as the form holds them (text), or a new partner's. */
const valuesOf = (partner: AdminPartner | undefined) => ({
  name_ru: partner?.name_ru ?? '',
  name_en: partner?.name_en ?? '',
  desc_ru: partner?.desc_ru ?? '',
  desc_en: partner?.desc_en ?? '',
  image: partner?.image ?? '',
  link: partner?.link ?? '',
  email: partner?.email ?? '',
  phone_number: partner?.phone_number ?? '',
  phone_number_mobile: partner?.phone_number_mobile ?? '',
  telegram: partner?.telegram ?? '',
  messenger: partner?.messenger ?? '',
  socials: partner?.socials.map((entry) => ({ type: entry.type, link: entry.link })),
  visible: partner === undefined || partner.visible ? 'on' : undefined,
  position: String(partner?.position ?? 0),
});

type PartnerFields = ReturnType<typeof valuesOf> & { id?: string; version?: string };

/** A saved partner as the API takes it back. */
const bodyOf = (partner: AdminPartner) => ({
  ...valuesOf(partner),
  socials: partner.socials,
  visible: partner.visible,
});

const LABELS = {
  name_ru: 'admin-name-ru',
  name_en: 'admin-name-en',
  link: 'partner-site',
  email: 'partner-email',
  phone_number: 'partner-phone',
  phone_number_mobile: 'partner-mobile',
  telegram: 'partner-telegram',
  messenger: 'partner-messenger',
  position: 'admin-position',
} as const;

const SHOWN = [...TEXT_FIELDS, 'image', 'desc_ru', 'desc_en', 'visible', 'socials'];

export default function PartnersPage({ loaderData }: Route.ComponentProps) {
  const { t, locale } = useAdminShop();
  const revalidator = useRevalidator();
  const rows = useFetcher<typeof clientAction>();
  const rowError = rows.data && 'error' in rows.data ? rows.data : undefined;
  const save = useFetcher<typeof clientAction>({ key: 'partner-save' });
  // Which partner the form edits (none: a new one); the partner itself is the loader's.
  const [editingId, setEditingId] = useState<number | null>(null);
  const editing = loaderData.partners.find((partner) => partner.id === editingId);
  const saved = save.data?.intent === 'save' && save.data.ok;
  useEffect(() => {
    if (saved) setEditingId(null);
  }, [saved]);
  const name = (partner: AdminPartner) => (locale === 'ru' ? partner.name_ru : partner.name_en);

  const startEditing = (partner: AdminPartner | null) => {
    save.reset();
    setEditingId(partner?.id ?? null);
  };

  const remove = (partner: AdminPartner) => {
    if (!window.confirm(t('admin-confirm-delete', { name: name(partner) }))) return;
    void rows.submit({ intent: 'delete', id: partner.id }, { method: 'post' });
    if (editingId === partner.id) startEditing(null);
  };

  const toggle = (partner: AdminPartner) =>
    void rows.submit({ intent: 'toggle', id: partner.id, version: partner.version }, { method: 'post' });

  return (
    <AdminPage title={t('admin-partners')}>
      <section className="admin-card" aria-label={t('admin-partners')}>
        <RequestAlert
          message={rowError?.error}
          errors={{}}
          shownFields={[]}
          onReload={
            rowError?.recordChanged ? () => void revalidator.revalidate().then(() => rows.reset()) : undefined
          }
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

      <PartnerForm
        key={editing ? `${editing.id}-${editing.version}` : 'new'}
        editing={editing}
        name={editing ? name(editing) : ''}
        onCancel={() => startEditing(null)}
      />
    </AdminPage>
  );
}

/** The form of a new partner, or of the one being edited as the loader gave it. */
function PartnerForm({
  editing,
  name,
  onCancel,
}: {
  editing: AdminPartner | undefined;
  name: string;
  onCancel: () => void;
}) {
  const { t } = useAdminShop();
  const _revalidator = useRevalidator();
  const save = useFetcher<typeof clientAction>({ key: 'partner-save' });
  const outcome = save.data?.intent === 'save' ? save.data : undefined;
  const [form, fields] = useAdminForm<PartnerFields>({
    id: 'partner-form',
    schema: editing ? partnerEdit : partnerInput,
    prepare: (fields) => withCheckboxes(fields, ['visible']),
    lastResult: outcome?.ok === false ? outcome.result : undefined,
    defaultValue: editing
      ? { ...valuesOf(editing), id: String(editing.id), version: String(editing.version) }
      : valuesOf(undefined),
  });
  useUnsavedChanges(form.dirty === true);
  const image = useInputControl(fields.image);
  const socials = fields.socials.getFieldList();
  const alert = formAlert(form);

  return (
    <save.Form
      method="post"
      {...getFormProps(form)}
      className="admin-card admin-form"
      aria-labelledby="partner-form-heading"
    >
      <h2 id="partner-form-heading">{editing ? t('admin-edit-item', { name }) : t('admin-new-partner')}</h2>
      {outcome?.ok ? <FormSuccess>{t('admin-partner-saved')}</FormSuccess> : null}
      <FormRefusal alert={alert} outcome={outcome} shownFields={SHOWN} />
      <EditedRecord record={editing} />
      <PictureField
        label={t('admin-partner-picture')}
        folder="partners"
        value={typeof image.value === 'string' ? image.value : ''}
        missing={editing?.imageMissing === true && image.value === (editing.image ?? '')}
        onChange={image.change}
        errors={fields.image.errors}
      />
      <div className="admin-form__grid">
        {TEXT_FIELDS.map((field) => (
          <FormField
            key={field}
            {...fieldProps(fields[field])}
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
            required={field === 'name_ru' || field === 'name_en'}
          />
        ))}
      </div>
      <div className="admin-form__pair">
        <TextAreaField {...fieldProps(fields.desc_ru)} label={t('admin-description-ru')} />
        <TextAreaField {...fieldProps(fields.desc_en)} label={t('admin-description-en')} />
      </div>

      <fieldset className="admin-fieldset">
        <legend>{t('partner-socials')}</legend>
        {socials.length === 0 ? <p className="form-field__hint">{t('admin-no-socials')}</p> : null}
        <ol className="admin-socials">
          {socials.map((entry, index) => {
            const number = index + 1;
            const social = entry.getFieldset();
            const type = typeof social.type.initialValue === 'string' ? social.type.initialValue : 'vk';
            const linkErrors = social.link.errors ?? alert.errors[`socials.${index}.link`];
            return (
              <li key={entry.key} className="admin-social">
                <label>
                  <span className="visually-hidden">{t('admin-social-type', { number })}</span>
                  <select name={social.type.name} defaultValue={type}>
                    {[...new Set([...NETWORKS, type])].map((network) => (
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
                    name={social.link.name}
                    defaultValue={
                      typeof social.link.initialValue === 'string' ? social.link.initialValue : ''
                    }
                    placeholder="https://"
                    aria-invalid={linkErrors ? true : undefined}
                  />
                </label>
                <button
                  {...form.remove.getButtonProps({ name: fields.socials.name, index })}
                  className="link-button"
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
        {fields.socials.errors ? (
          <p className="form-field__error">{fields.socials.errors.join(' ')}</p>
        ) : null}
        <button
          {...form.insert.getButtonProps({
            name: fields.socials.name,
            defaultValue: { type: 'vk', link: '' },
          })}
          className="button"
        >
          {t('admin-add-social')}
        </button>
      </fieldset>

      <CheckboxField
        name={fields.visible.name}
        label={t('admin-visible')}
        defaultChecked={fields.visible.initialValue === 'on'}
      />
      <SaveOrCancel busy={save.state !== 'idle'} onCancel={editing ? onCancel : undefined} />
    </save.Form>
  );
}

export function ErrorBoundary() {
  return <AdminErrorBoundary />;
}
