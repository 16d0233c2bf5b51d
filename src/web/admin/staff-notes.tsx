import { getFormProps } from '@conform-to/react';
import { useFetcher } from 'react-router';
import { STAFF_NOTE_MAX_LENGTH, staffNoteInput } from '../../contract/admin.ts';
import { TextAreaField } from '../components/form-field.tsx';
import { adminApi } from './api.ts';
import { type AdminFormOutcome, fieldProps, formAlert, submitAdminForm, useAdminForm } from './forms.ts';
import { useAdminShop } from './text.ts';
import type { StaffNote } from './types.ts';
import { BusyButton, RequestAlert, useAdminFormat } from './ui.tsx';
import { useUnsavedChanges } from './unsaved-changes.tsx';

/** A page's action for its note form (`intent=note`): `path` is the admin API path that takes a note. */
export const addStaffNote = (formData: FormData, path: string) =>
  submitAdminForm(formData, {
    schema: staffNoteInput,
    send: (fields) => adminApi('POST', path, { json: fields }),
    resetOnSuccess: true,
  });

/**
 * The form that adds a staff note (notes are never edited, so what was said stays), sent to the
 * page's action; it is emptied once the note is in.
 */
export function StaffNoteForm() {
  const { t } = useAdminShop();
  const fetcher = useFetcher<{ intent: 'note' } & AdminFormOutcome<unknown>>({ key: 'staff-note' });
  const [form, fields] = useAdminForm({
    schema: staffNoteInput,
    lastResult: fetcher.data?.intent === 'note' ? fetcher.data.result : undefined,
    defaultValue: { body: '' },
  });
  useUnsavedChanges(form.dirty === true);
  const alert = formAlert(form);

  return (
    <fetcher.Form method="post" {...getFormProps(form)} className="admin-form">
      <RequestAlert message={alert.message} errors={alert.errors} shownFields={['body']} />
      <TextAreaField
        {...fieldProps(fields.body)}
        label={t('admin-note-new')}
        rows={3}
        maxLength={STAFF_NOTE_MAX_LENGTH}
        required
      />
      <BusyButton busy={fetcher.state !== 'idle'} name="intent" value="note">
        {t('admin-note-add')}
      </BusyButton>
    </fetcher.Form>
  );
}

/** Staff notes as a timeline, oldest first, each with its author and time, and the form that adds one. */
export function StaffNotes({ notes }: { notes: readonly StaffNote[] }) {
  const { t } = useAdminShop();
  const format = useAdminFormat();
  return (
    <section className="admin-card" aria-labelledby="staff-notes">
      <h2 id="staff-notes">{t('admin-notes')}</h2>
      {notes.length === 0 ? (
        <p className="admin-muted">{t('admin-notes-empty')}</p>
      ) : (
        <ol className="admin-timeline">
          {notes.map((note) => (
            <li key={note.id}>
              <p className="admin-muted">
                {t('admin-note-by', { author: note.author ?? '—', date: format.dateTime(note.date) })}
              </p>
              <p className="admin-timeline__body">{note.body}</p>
            </li>
          ))}
        </ol>
      )}
      <StaffNoteForm />
    </section>
  );
}
