import { asc, eq } from 'drizzle-orm';
import type { Database, Executor } from '../db/client.ts';
import { staffNotes, users } from '../db/schema.ts';
import { recordAudit } from './audit.ts';

/**
 * Staff notes (ADR 0040): a timeline about a customer or an order, oldest first, each note kept
 * with its author and time and never edited.
 */

export type NoteSubject = { customerId: number } | { orderId: number };

const subjectCondition = (subject: NoteSubject) =>
  'customerId' in subject
    ? eq(staffNotes.customerId, subject.customerId)
    : eq(staffNotes.orderId, subject.orderId);

export async function notesOf(db: Executor, subject: NoteSubject) {
  const rows = await db
    .select({ id: staffNotes.id, body: staffNotes.body, at: staffNotes.createdAt, author: users.email })
    .from(staffNotes)
    .leftJoin(users, eq(users.id, staffNotes.authorId))
    .where(subjectCondition(subject))
    .orderBy(asc(staffNotes.createdAt), asc(staffNotes.id));
  return rows.map((row) => ({ id: row.id, body: row.body, author: row.author, date: row.at.toISOString() }));
}

/**
 * Adds a note by `actorId` inside the caller's transaction, audited as a `customer-note` or an
 * `order-note`. The caller has checked that the subject exists.
 */
export async function insertStaffNote(tx: Executor, actorId: number, subject: NoteSubject, body: string) {
  const [note] = await tx
    .insert(staffNotes)
    .values({ ...subject, authorId: actorId, body })
    .returning({ id: staffNotes.id });
  if (!note) throw new Error('The note was not stored');
  await recordAudit(tx, {
    actorId,
    action: 'create',
    entity: 'customerId' in subject ? 'customer-note' : 'order-note',
    entityId: note.id,
    after: { ...subject, body },
  });
}

/** Adds a note and answers the subject's whole timeline. */
export async function addStaffNote(db: Database, actorId: number, subject: NoteSubject, body: string) {
  await db.transaction((tx) => insertStaffNote(tx, actorId, subject, body));
  return notesOf(db, subject);
}
