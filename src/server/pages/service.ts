import { eq, sql } from 'drizzle-orm';
import { STATIC_PAGES, type StaticPage, type StaticPageSave } from '../../contract/pages.ts';
import { recordAudit } from '../audit/audit.ts';
import { sanitizeDescription } from '../catalog/sanitize.ts';
import type { Database, Executor } from '../db/client.ts';
import { staticPages } from '../db/schema.ts';
import { recordChanged } from '../db/versions.ts';

/**
 * Static information pages (shipping, payment, about, privacy policy) as staff write them in the
 * back office. A page's text replaces the shop's built-in text in the language it is written in;
 * until then (or once emptied) the built-in text shows. Saved HTML is sanitized like a description.
 */

export interface StaticPageText {
  page: StaticPage;
  html_ru: string;
  html_en: string;
  /** 0 for a page never saved. */
  version: number;
  updatedAt: string | null;
}

const viewOf = (page: StaticPage, row: typeof staticPages.$inferSelect | undefined): StaticPageText => ({
  page,
  html_ru: row?.htmlRu ?? '',
  html_en: row?.htmlEn ?? '',
  version: row?.version ?? 0,
  updatedAt: row?.updatedAt.toISOString() ?? null,
});

export async function listStaticPages(db: Executor): Promise<StaticPageText[]> {
  const rows = await db.select().from(staticPages);
  return STATIC_PAGES.map((page) =>
    viewOf(
      page,
      rows.find((row) => row.page === page),
    ),
  );
}

export async function getStaticPage(db: Executor, page: StaticPage): Promise<StaticPageText> {
  const [row] = await db.select().from(staticPages).where(eq(staticPages.page, page));
  return viewOf(page, row);
}

/**
 * Saves a page's text in both languages if nobody saved it since the editor loaded `version`
 * (0: never saved). It changes everything shown (services.writes applies it).
 */
export async function saveStaticPage(
  db: Database,
  actorId: number,
  page: StaticPage,
  input: StaticPageSave,
): Promise<StaticPageText> {
  const values = {
    htmlRu: sanitizeDescription(input.html_ru),
    htmlEn: sanitizeDescription(input.html_en),
    updatedBy: actorId,
    updatedAt: new Date(),
  };
  return db.transaction(async (transaction) => {
    const [before] = await transaction.select().from(staticPages).where(eq(staticPages.page, page));
    const [row] =
      input.version === 0
        ? // A first save; a concurrent first save makes this one stale.
          await transaction
            .insert(staticPages)
            .values({ page, ...values })
            .onConflictDoNothing()
            .returning()
        : await transaction
            .update(staticPages)
            .set({ ...values, version: sql`${staticPages.version} + 1` })
            .where(sql`${staticPages.page} = ${page} and ${staticPages.version} = ${input.version}`)
            .returning();
    if (!row) throw recordChanged();
    const saved = viewOf(page, row);
    await recordAudit(transaction, {
      actorId,
      action: before ? 'update' : 'create',
      entity: 'static-page',
      entityId: page,
      before: before ? viewOf(page, before) : undefined,
      after: saved,
    });
    return saved;
  });
}
