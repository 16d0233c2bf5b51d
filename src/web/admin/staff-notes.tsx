import { type FormEvent, useState } from 'react';
import { TextAreaField } from '../components/form-field.tsx';
import { adminApi } from './api.ts';
import { useAdminShop } from './text.ts';
import type { StaffNote } from './types.ts';
import { BusyButton, RequestAlert, useAdminFormat, useAdminRequest } from './ui.tsx';
import { useUnsavedChanges } from './unsaved-changes.tsx';

/**
 * The form that adds a staff note (notes are never edited, so what was said stays). `path` is the
 * admin API path that takes a note; the page reloads its data once the note is in.
 */
export function StaffNoteForm({ path }: { path: string }) {
  const { t } = useAdminShop();
  const request = useAdminRequest();
  const [body, setBody] = useState('');
  useUnsavedChanges(body.trim() !== '');

  const add = async (event: FormEvent) => {
    event.preventDefault();
    const sent = body;
    const added = await request.run(() => adminApi('POST', path, { json: { body: sent } }));
    // What was typed meanwhile stays.
    if (added) setBody((current) => (current === sent ? '' : current));
  };

  return (
    <form className="admin-form" onSubmit={add}>
      <RequestAlert message={request.message} errors={request.errors} shownFields={['body']} />
      <TextAreaField
        name="body"
        label={t('admin-note-new')}
        value={body}
        rows={3}
        maxLength={2000}
        required
        onChange={(event) => setBody(event.target.value)}
        errors={request.errors.body}
      />
      <BusyButton busy={request.busy}>{t('admin-note-add')}</BusyButton>
    </form>
  );
}

/** Staff notes as a timeline, oldest first, each with its author and time, and the form that adds one. */
export function StaffNotes({ notes, path }: { notes: readonly StaffNote[]; path: string }) {
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
      <StaffNoteForm path={path} />
    </section>
  );
}
