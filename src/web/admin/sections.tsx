import { getFormProps, useInputControl } from '@conform-to/react';
import { Fragment, useEffect, useState } from 'react';
import { flushSync } from 'react-dom';
import { useFetcher, useRevalidator } from 'react-router';
import {
  categoryEdit,
  categoryHoldsProducts,
  categoryInput,
  projectEdit,
  projectInput,
} from '../../contract/admin.ts';
import { adminCategoryResponse, adminProjectResponse } from '../../contract/admin-answers.ts';
import { imageUrl } from '../../contract/images.ts';
import { CheckboxField, FormField, FormSuccess, SelectField } from '../components/form-field.tsx';
import { adminApi } from './api.ts';
import {
  adminCall,
  adminWrite,
  type FormFields,
  fieldProps,
  formAlert,
  submitAdminForm,
  useAdminForm,
  withCheckboxes,
} from './forms.ts';
import { PictureField } from './picture-field.tsx';
import { RichTextField } from './rich-text-field.tsx';
import { useAdminShop } from './text.ts';
import type { AdminCategory, AdminProject } from './types.ts';
import {
  AdminPage,
  BusyButton,
  EditedRecord,
  FormRefusal,
  RequestAlert,
  RowActions,
  SaveOrCancel,
} from './ui.tsx';
import { useUnsavedChanges } from './unsaved-changes.tsx';

/**
 * Projects and categories: the same list and form (a project also has a logo image, a category
 * size guides). Each can be created, edited, hidden or shown again, and deleted, through the
 * route's action (`sectionAction`).
 */

export type SectionKind = 'projects' | 'categories';
type Row = AdminProject | AdminCategory;

/** A row's fields as the form holds them (text), or a new row's. */
type SectionFields = {
  name_ru: string;
  name_en: string;
  link: string;
  position: string;
  visible: string | undefined;
  image?: string;
  size_guide_ru?: string;
  size_guide_en?: string;
};

const valuesOf = (kind: SectionKind, row: Row | undefined): SectionFields => ({
  name_ru: row?.name_ru ?? '',
  name_en: row?.name_en ?? '',
  link: row?.link ?? '',
  position: String(row?.position ?? 0),
  visible: row === undefined || row.visible ? 'on' : undefined,
  // A project has a logo; a category has a size guide (categories.size_guide_ru/en).
  ...(kind === 'projects'
    ? { image: row && 'image' in row ? (row.image ?? '') : '' }
    : {
        size_guide_ru: row && 'size_guide_ru' in row ? row.size_guide_ru : '',
        size_guide_en: row && 'size_guide_en' in row ? row.size_guide_en : '',
      }),
});

const FIELDS = [
  'name_ru',
  'name_en',
  'link',
  'image',
  'visible',
  'position',
  'size_guide_ru',
  'size_guide_en',
];

/** The form's check: the contract's schema of the call it makes; a clear checkbox says so. */
const checksFor = (kind: SectionKind, editing: boolean) => ({
  schema:
    kind === 'projects' ? (editing ? projectEdit : projectInput) : editing ? categoryEdit : categoryInput,
  prepare: (fields: FormFields) => withCheckboxes(fields, ['visible']),
});

/**
 * The section page's writes: the form's save (a new row, or the one named by `id` at the `version`
 * it was loaded with); a row's hiding or showing, sent with the rest of the row as the list shows
 * it; a deletion, a category's with `moveTo`, the category its products go to.
 */
export async function sectionAction(kind: SectionKind, request: Request) {
  const formData = await request.formData();
  const intent = formData.get('intent');
  const id = String(formData.get('id') ?? '');
  const path = `/${kind}/${encodeURIComponent(id)}`;
  const saved = kind === 'projects' ? adminProjectResponse : adminCategoryResponse;
  switch (intent) {
    case 'save':
      return {
        intent: 'save' as const,
        ...(await submitAdminForm(formData, {
          ...checksFor(kind, id !== ''),
          send: (json) =>
            id === ''
              ? adminCall(saved, 'POST', `/${kind}`, { json })
              : adminCall(saved, 'PATCH', path, { json }),
          // The form goes back to a new row once its row is saved.
          resetOnSuccess: true,
        })),
      };
    case 'toggle': {
      const { intent: _intent, id: _id, ...row } = Object.fromEntries(formData);
      return {
        intent: 'toggle' as const,
        id,
        ...(await adminWrite(() => adminApi('PATCH', path, { json: row }))),
      };
    }
    case 'delete': {
      const moveTo = formData.get('moveTo');
      return {
        intent: 'delete' as const,
        id,
        ...(await adminWrite(() =>
          adminApi('DELETE', path, moveTo === null ? {} : { query: { moveTo: String(moveTo) } }),
        )),
      };
    }
    default:
      throw new Response(null, { status: 400 });
  }
}

type SectionAction = typeof sectionAction;

export function SectionManager({ kind, rows }: { kind: SectionKind; rows: Row[] }) {
  const { t, locale } = useAdminShop();
  const revalidator = useRevalidator();
  const list = useFetcher<SectionAction>();
  const save = useFetcher<SectionAction>({ key: `${kind}-save` });
  // Which row the form edits (none: a new one); the row itself is the loader's.
  const [editingId, setEditingId] = useState<number | null>(null);
  const editing = rows.find((row) => row.id === editingId);
  const saved = save.data?.intent === 'save' && save.data.ok;
  useEffect(() => {
    if (saved) setEditingId(null);
  }, [saved]);
  const isProject = kind === 'projects';
  const name = (row: Row) => (locale === 'ru' ? row.name_ru : row.name_en);
  const listOutcome = list.data && 'error' in list.data ? list.data : undefined;
  /** A category refused for the products in it (their number), to offer moving them and deleting. */
  const holds =
    listOutcome?.intent === 'delete' ? categoryHoldsProducts.safeParse(listOutcome.refusal?.answer) : null;
  const refusedRow = holds?.success ? rows.find((row) => String(row.id) === listOutcome?.id) : undefined;

  const startEditing = (row: Row | null) => {
    save.reset();
    // The form is drawn for the row at once, so that focus moves to it (it sits below the list on
    // a phone or a narrow window).
    flushSync(() => setEditingId(row?.id ?? null));
    if (row)
      document
        .getElementById(`${kind}-form`)
        ?.querySelector<HTMLElement>('input:not([type=hidden])')
        ?.focus();
  };

  const toggle = (row: Row) =>
    void list.submit(
      {
        ...valuesOf(kind, row),
        visible: row.visible ? '0' : '1',
        intent: 'toggle',
        id: row.id,
        version: row.version,
      },
      { method: 'post' },
    );

  const remove = (row: Row) => {
    if (!window.confirm(t('admin-confirm-delete', { name: name(row) }))) return;
    void list.submit({ intent: 'delete', id: row.id }, { method: 'post' });
  };

  const title = isProject ? t('admin-projects') : t('admin-categories');

  return (
    <AdminPage title={title}>
      <div className="admin-split">
        <section className="admin-card" aria-label={title}>
          <RequestAlert
            message={listOutcome?.error}
            errors={{}}
            shownFields={[]}
            onReload={
              listOutcome?.recordChanged
                ? () => void revalidator.revalidate().then(() => list.reset())
                : undefined
            }
          />
          {refusedRow && holds?.success ? (
            <MoveProductsForm
              key={refusedRow.id}
              category={refusedRow}
              products={holds.data.products}
              rows={rows}
              name={name}
              busy={list.state !== 'idle'}
              onSubmit={(moveTo) =>
                void list.submit({ intent: 'delete', id: refusedRow.id, moveTo }, { method: 'post' })
              }
            />
          ) : null}
          {rows.length === 0 ? (
            <p>{t('admin-nothing-yet')}</p>
          ) : (
            <div className="admin-table-scroll">
              <table className="admin-table">
                <thead>
                  <tr>
                    {isProject ? (
                      <th scope="col">
                        <span className="visually-hidden">{t('admin-image')}</span>
                      </th>
                    ) : null}
                    <th scope="col">{t('admin-name')}</th>
                    <th scope="col">{t('admin-position')}</th>
                    <th scope="col">{t('admin-visibility')}</th>
                    <th scope="col">{t('admin-actions')}</th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map((row) => (
                    <tr key={row.id} className={row.visible ? undefined : 'admin-row--hidden'}>
                      {isProject ? (
                        <td>
                          {'image' in row && row.image && row.imageMissing ? (
                            <span className="picture-field__missing">{t('admin-picture-missing-short')}</span>
                          ) : 'image' in row && row.image ? (
                            <img
                              src={imageUrl('projects', row.image, 160)}
                              alt=""
                              width={48}
                              height={48}
                              className="admin-thumb"
                            />
                          ) : null}
                        </td>
                      ) : null}
                      <td>
                        {name(row)}
                        <br />
                        <span className="admin-muted" lang={locale === 'ru' ? 'en' : 'ru'}>
                          {locale === 'ru' ? row.name_en : row.name_ru}
                        </span>
                        <br />
                        <span className="admin-muted admin-link-text">
                          <span className="visually-hidden">{t('admin-link')}: </span>/{row.link}
                        </span>
                      </td>
                      <td>{row.position}</td>
                      <td>{row.visible ? t('admin-shown') : t('admin-hidden')}</td>
                      <td>
                        <RowActions
                          name={name(row)}
                          visible={row.visible}
                          onEdit={() => startEditing(row)}
                          onToggle={() => toggle(row)}
                          onDelete={() => remove(row)}
                        />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </section>

        <SectionForm
          key={editing ? `${editing.id}-${editing.version}` : 'new'}
          kind={kind}
          editing={editing}
          name={editing ? name(editing) : ''}
          onCancel={() => startEditing(null)}
        />
      </div>
    </AdminPage>
  );
}

/** Where a category's products go before it is deleted: chosen among the other categories. */
function MoveProductsForm({
  category,
  products,
  rows,
  name,
  busy,
  onSubmit,
}: {
  category: Row;
  products: number;
  rows: Row[];
  name: (row: Row) => string;
  busy: boolean;
  onSubmit: (moveTo: string) => void;
}) {
  const { t } = useAdminShop();
  // What the select shows until the form is sent: the button waits for a choice.
  const [moveTo, setMoveTo] = useState('');
  return (
    <form
      className="admin-form"
      aria-label={t('admin-category-move-title', { name: name(category) })}
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit(moveTo);
      }}
    >
      <SelectField
        name="moveTo"
        label={t('admin-category-move-to', { name: name(category), count: products })}
        value={moveTo}
        onChange={(event) => setMoveTo(event.target.value)}
        required
      >
        <option value="">{t('admin-choose-category')}</option>
        {rows
          .filter((row) => row.id !== category.id)
          .map((row) => (
            <option key={row.id} value={row.id}>
              {name(row)}
            </option>
          ))}
      </SelectField>
      <div className="admin-actions">
        <BusyButton busy={busy} disabled={moveTo === ''}>
          {t('admin-category-move-and-delete')}
        </BusyButton>
      </div>
    </form>
  );
}

/** The form of a new project or category, or of the one being edited as the loader gave it. */
function SectionForm({
  kind,
  editing,
  name,
  onCancel,
}: {
  kind: SectionKind;
  editing: Row | undefined;
  name: string;
  onCancel: () => void;
}) {
  const { t } = useAdminShop();
  const _revalidator = useRevalidator();
  const save = useFetcher<SectionAction>({ key: `${kind}-save` });
  const outcome = save.data?.intent === 'save' ? save.data : undefined;
  const isProject = kind === 'projects';
  const [form, fields] = useAdminForm<SectionFields>({
    id: `${kind}-form`,
    ...checksFor(kind, editing !== undefined),
    // A new row saved empties the form; a refusal shows its texts.
    lastResult: outcome?.result,
    defaultValue: valuesOf(kind, editing),
  });
  useUnsavedChanges(form.dirty === true);
  const image = useInputControl(fields.image);
  const sizeGuides = { ru: useInputControl(fields.size_guide_ru), en: useInputControl(fields.size_guide_en) };
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  const alert = formAlert(form);

  return (
    <save.Form
      method="post"
      {...getFormProps(form)}
      className="admin-card admin-form"
      aria-labelledby={`${kind}-form-heading`}
    >
      <h2 id={`${kind}-form-heading`}>
        {editing
          ? t('admin-edit-item', { name })
          : isProject
            ? t('admin-new-project')
            : t('admin-new-category')}
      </h2>
      {outcome?.ok ? (
        <FormSuccess>{isProject ? t('admin-project-saved') : t('admin-category-saved')}</FormSuccess>
      ) : null}
      <FormRefusal alert={alert} outcome={outcome} shownFields={FIELDS} />
      <EditedRecord record={editing} />
      <FormField {...fieldProps(fields.name_ru)} label={t('admin-name-ru')} required />
      <FormField {...fieldProps(fields.name_en)} label={t('admin-name-en')} required />
      <FormField {...fieldProps(fields.link)} label={t('admin-link')} hint={t('admin-link-hint')} required />
      {isProject ? (
        <PictureField
          label={t('admin-project-logo')}
          folder="projects"
          value={text(image.value)}
          missing={
            editing !== undefined &&
            'imageMissing' in editing &&
            editing.imageMissing &&
            image.value === (editing.image ?? '')
          }
          onChange={image.change}
          errors={fields.image.errors}
        />
      ) : (
        (['ru', 'en'] as const).map((language) => {
          const field = language === 'ru' ? fields.size_guide_ru : fields.size_guide_en;
          const guide = text(sizeGuides[language].value);
          return (
            <Fragment key={language}>
              <input type="hidden" name={field.name} value={guide} />
              <RichTextField
                label={t(language === 'ru' ? 'admin-size-guide-ru' : 'admin-size-guide-en')}
                value={guide}
                onChange={sizeGuides[language].change}
                errors={field.errors}
              />
            </Fragment>
          );
        })
      )}
      <FormField {...fieldProps(fields.position)} type="number" step="1" label={t('admin-position')} />
      <CheckboxField
        name={fields.visible.name}
        label={t('admin-visible')}
        defaultChecked={fields.visible.initialValue === 'on'}
      />
      <SaveOrCancel busy={save.state !== 'idle'} onCancel={editing ? onCancel : undefined} />
    </save.Form>
  );
}
