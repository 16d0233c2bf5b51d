import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useRevalidator } from 'react-router';
import { imageUrl } from '../../contract/images.ts';
import { CheckboxField, FormField, FormSuccess, SelectField } from '../components/form-field.tsx';
import { adminApi } from './api.ts';
import { PictureField } from './picture-field.tsx';
import { RichTextField } from './rich-text-field.tsx';
import { useAdminShop } from './text.ts';
import type { AdminCategory, AdminProject } from './types.ts';
import { AdminPage, BusyButton, RequestAlert, RowActions, useAdminRequest } from './ui.tsx';
import { useUnsavedChanges } from './unsaved-changes.tsx';

/**
 * Projects and categories: the same list and form (a project also has a logo image). Each can be
 * created, edited, hidden or shown again, and deleted.
 */

type Kind = 'projects' | 'categories';
type Row = AdminProject | AdminCategory;

interface Values {
  name_ru: string;
  name_en: string;
  link: string;
  image: string;
  visible: boolean;
  position: string;
  size_guide_ru: string;
  size_guide_en: string;
}

const EMPTY: Values = {
  name_ru: '',
  name_en: '',
  link: '',
  image: '',
  visible: true,
  position: '0',
  size_guide_ru: '',
  size_guide_en: '',
};
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

const valuesOf = (row: Row): Values => ({
  name_ru: row.name_ru,
  name_en: row.name_en,
  link: row.link,
  image: 'image' in row ? (row.image ?? '') : '',
  visible: row.visible,
  position: String(row.position),
  size_guide_ru: 'size_guide_ru' in row ? row.size_guide_ru : '',
  size_guide_en: 'size_guide_en' in row ? row.size_guide_en : '',
});

/** A project has a logo; a category has a size guide (categories.size_guide_ru/en). */
const bodyOf = (kind: Kind, values: Values) => {
  const { image, size_guide_ru, size_guide_en, ...rest } = values;
  return kind === 'projects' ? { ...rest, image } : { ...rest, size_guide_ru, size_guide_en };
};

export function SectionManager({ kind, rows }: { kind: Kind; rows: Row[] }) {
  const { t, locale } = useAdminShop();
  const save = useAdminRequest();
  const action = useAdminRequest();
  const revalidator = useRevalidator();
  const [editing, setEditing] = useState<Row | null>(null);
  /** The row last asked to be deleted: a category refused for its products offers to move them. */
  const [deleting, setDeleting] = useState<Row | null>(null);
  const [moveTo, setMoveTo] = useState('');
  const [values, setValues] = useState<Values>(EMPTY);
  const isProject = kind === 'projects';
  useUnsavedChanges(JSON.stringify(values) !== JSON.stringify(editing ? valuesOf(editing) : EMPTY));
  const name = (row: Row) => (locale === 'ru' ? row.name_ru : row.name_en);

  const field = (key: 'name_ru' | 'name_en' | 'link' | 'image' | 'position') => ({
    name: key,
    value: values[key],
    onChange: (event: { target: { value: string } }) =>
      setValues((current) => ({ ...current, [key]: event.target.value })),
    errors: save.errors[key],
  });

  // Editing a row moves focus to the form (which sits below the list on a phone or a narrow window).
  const form = useRef<HTMLFormElement>(null);
  const [editRequests, setEditRequests] = useState(0);
  useEffect(() => {
    if (editRequests > 0) form.current?.querySelector('input')?.focus();
  }, [editRequests]);

  const startEditing = (row: Row | null) => {
    save.reset();
    setEditing(row);
    setValues(row ? valuesOf(row) : EMPTY);
    if (row) setEditRequests((count) => count + 1);
  };

  const reloadList = () => {
    action.reset();
    void revalidator.revalidate();
  };

  /** Someone else saved the row meanwhile: their version replaces what was typed here. */
  const reloadEditing = async () => {
    if (!editing) return;
    const answer = await save.run(() => adminApi<Record<Kind, Row[]>>('GET', `/${kind}`));
    if (answer) startEditing(answer[kind].find((row) => row.id === editing.id) ?? null);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const body = bodyOf(kind, values);
    const done = await save.run(
      () =>
        editing
          ? adminApi('PATCH', `/${kind}/${editing.id}`, { json: { ...body, version: editing.version } })
          : adminApi('POST', `/${kind}`, { json: body }),
      { success: isProject ? t('admin-project-saved') : t('admin-category-saved') },
    );
    if (done) {
      setEditing(null);
      setValues(EMPTY);
    }
  };

  const toggle = (row: Row) =>
    action.run(() =>
      adminApi('PATCH', `/${kind}/${row.id}`, {
        json: { ...bodyOf(kind, { ...valuesOf(row), visible: !row.visible }), version: row.version },
      }),
    );

  const remove = async (row: Row, target?: string) => {
    if (target === undefined && !window.confirm(t('admin-confirm-delete', { name: name(row) }))) return;
    setDeleting(row);
    setMoveTo('');
    const done = await action.run(() =>
      adminApi('DELETE', `/${kind}/${row.id}`, target === undefined ? {} : { query: { moveTo: target } }),
    );
    if (done && editing?.id === row.id) startEditing(null);
  };
  /** A category refused for the products in it (their number), to offer moving them and deleting. */
  const refused =
    !isProject && deleting && typeof action.answer?.products === 'number'
      ? { row: deleting, products: action.answer.products }
      : null;

  const title = isProject ? t('admin-projects') : t('admin-categories');
  const formTitle = editing
    ? t('admin-edit-item', { name: name(editing) })
    : isProject
      ? t('admin-new-project')
      : t('admin-new-category');

  return (
    <AdminPage title={title}>
      <div className="admin-split">
        <section className="admin-card" aria-label={title}>
          <RequestAlert
            message={action.message}
            errors={action.errors}
            shownFields={[]}
            onReload={action.recordChanged ? reloadList : undefined}
          />
          {refused ? (
            <form
              className="admin-form"
              aria-label={t('admin-category-move-title', { name: name(refused.row) })}
              onSubmit={(event) => {
                event.preventDefault();
                void remove(refused.row, moveTo);
              }}
            >
              <SelectField
                name="moveTo"
                label={t('admin-category-move-to', { name: name(refused.row), count: refused.products })}
                value={moveTo}
                onChange={(event) => setMoveTo(event.target.value)}
                required
              >
                <option value="">{t('admin-choose-category')}</option>
                {rows
                  .filter((row) => row.id !== refused.row.id)
                  .map((row) => (
                    <option key={row.id} value={row.id}>
                      {name(row)}
                    </option>
                  ))}
              </SelectField>
              <div className="admin-actions">
                <BusyButton busy={action.busy} disabled={moveTo === ''}>
                  {t('admin-category-move-and-delete')}
                </BusyButton>
              </div>
            </form>
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
                          onDelete={() => void remove(row)}
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
          ref={form}
          className="admin-card admin-form"
          onSubmit={submit}
          noValidate
          aria-labelledby={`${kind}-form-heading`}
        >
          <h2 id={`${kind}-form-heading`}>{formTitle}</h2>
          {save.done ? <FormSuccess>{save.done}</FormSuccess> : null}
          <RequestAlert
            message={save.message}
            errors={save.errors}
            shownFields={FIELDS}
            onReload={save.recordChanged ? () => void reloadEditing() : undefined}
          />
          <FormField {...field('name_ru')} label={t('admin-name-ru')} required />
          <FormField {...field('name_en')} label={t('admin-name-en')} required />
          <FormField {...field('link')} label={t('admin-link')} hint={t('admin-link-hint')} required />
          {isProject ? (
            <PictureField
              label={t('admin-project-logo')}
              folder="projects"
              value={values.image}
              missing={
                editing !== null &&
                'imageMissing' in editing &&
                editing.imageMissing &&
                values.image === editing.image
              }
              onChange={(image) => setValues((current) => ({ ...current, image }))}
              errors={save.errors.image}
            />
          ) : (
            <>
              <RichTextField
                key={`ru-${editing?.id ?? 'new'}`}
                label={t('admin-size-guide-ru')}
                value={values.size_guide_ru}
                onChange={(html) => setValues((current) => ({ ...current, size_guide_ru: html }))}
                errors={save.errors.size_guide_ru}
              />
              <RichTextField
                key={`en-${editing?.id ?? 'new'}`}
                label={t('admin-size-guide-en')}
                value={values.size_guide_en}
                onChange={(html) => setValues((current) => ({ ...current, size_guide_en: html }))}
                errors={save.errors.size_guide_en}
              />
            </>
          )}
          <FormField {...field('position')} type="number" step="1" label={t('admin-position')} />
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
      </div>
    </AdminPage>
  );
}
