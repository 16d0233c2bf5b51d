import { asc, eq } from 'drizzle-orm';
import type { SynonymInput } from '../../contract/admin.ts';
import { recordAudit } from '../audit/audit.ts';
import type { Database, Executor } from '../db/client.ts';
import { searchSynonyms } from '../db/schema.ts';
import { Conflict, NotFound } from '../errors.ts';

/** The manager's search synonyms (ADR 0030): search reads `term` as `meaning` too. */

export interface Synonym {
  id: number;
  term: string;
  meaning: string;
}

const view = ({ id, term, meaning }: typeof searchSynonyms.$inferSelect): Synonym => ({ id, term, meaning });

export async function listSynonyms(db: Executor): Promise<Synonym[]> {
  const rows = await db
    .select()
    .from(searchSynonyms)
    .orderBy(asc(searchSynonyms.term), asc(searchSynonyms.meaning));
  return rows.map(view);
}

export async function addSynonym(db: Database, actorId: number, input: SynonymInput): Promise<Synonym> {
  return db.transaction(async (transaction) => {
    const [row] = await transaction.insert(searchSynonyms).values(input).onConflictDoNothing().returning();
    if (!row) throw new Conflict('synonym-exists', { meaning: ['synonym-exists'] });
    await recordAudit(transaction, {
      actorId,
      action: 'create',
      entity: 'synonym',
      entityId: row.id,
      after: view(row),
    });
    return view(row);
  });
}

export async function deleteSynonym(db: Database, actorId: number, id: number): Promise<void> {
  await db.transaction(async (transaction) => {
    const [row] = await transaction.delete(searchSynonyms).where(eq(searchSynonyms.id, id)).returning();
    if (!row) throw new NotFound('not-found', { id: ['not-found'] });
    await recordAudit(transaction, {
      actorId,
      action: 'delete',
      entity: 'synonym',
      entityId: id,
      before: view(row),
    });
  });
}
