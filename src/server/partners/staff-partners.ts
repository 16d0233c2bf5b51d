import { and, asc, eq, sql } from 'drizzle-orm';
import type { EditTarget, PartnerInput } from '../../contract/admin.ts';
import { recordAudit } from '../audit/audit.ts';
import type { Database, Executor } from '../db/client.ts';
import { partners } from '../db/schema.ts';
import { recordChanged } from '../db/versions.ts';
import { Invalid, NotFound } from '../errors.ts';
import { adoptImage, imageExists } from '../files/images.ts';
import type { ObjectStorage } from '../files/storage.ts';

/** The partners page as staff edit it: every partner, hidden ones too; each change is audited. */

const partnerView = (row: typeof partners.$inferSelect) => ({
  id: row.id,
  name_ru: row.nameRu,
  name_en: row.nameEn,
  desc_ru: row.descriptionRu,
  desc_en: row.descriptionEn,
  image: row.image,
  link: row.link,
  email: row.email,
  phone_number: row.phoneNumber,
  phone_number_mobile: row.phoneNumberMobile,
  telegram: row.telegram,
  messenger: row.messenger,
  socials: row.socials,
  visible: row.visible,
  position: row.position,
  version: row.version,
});

const webLink = (value: string) => /^https?:$/.test(new URL(value).protocol);

/**
 * Rules the wire schema cannot see: links the partners page turns into `href`s must be web links
 * (a URL such as `javascript:…` parses as one).
 */
function checkPartner(input: PartnerInput) {
  const errors: Record<string, string[]> = {};
  if (input.link !== null && !webLink(input.link)) errors.link = ['url-invalid'];
  input.socials.forEach((social, index) => {
    if (!webLink(social.link)) errors[`socials.${index}.link`] = ['url-invalid'];
  });
  if (Object.keys(errors).length > 0) throw new Invalid('request-invalid', errors);
}

/** Every partner; `imageMissing` marks a picture name that is not stored (shown as missing, not as a broken image). */
export async function listPartnersForAdmin(db: Executor, storage: ObjectStorage) {
  const rows = await db.select().from(partners).orderBy(asc(partners.position), asc(partners.id));
  return Promise.all(
    rows.map(async (row) => ({
      ...partnerView(row),
      imageMissing: row.image !== null && !(await imageExists(storage, 'partners', row.image)),
    })),
  );
}

/**
 * Adds a partner, or saves over `target` if nobody changed it since the editor loaded it. The
 * picture must be stored: a partner picture, or a file manager upload, which becomes one.
 */
export async function savePartner(
  db: Database,
  storage: ObjectStorage,
  actorId: number,
  input: PartnerInput,
  target?: EditTarget,
) {
  checkPartner(input);
  if (input.image !== null) await adoptImage(storage, 'partners', input.image);
  const values = {
    nameRu: input.name_ru,
    nameEn: input.name_en,
    descriptionRu: input.desc_ru,
    descriptionEn: input.desc_en,
    image: input.image,
    link: input.link,
    email: input.email,
    phoneNumber: input.phone_number,
    phoneNumberMobile: input.phone_number_mobile,
    telegram: input.telegram,
    messenger: input.messenger,
    socials: input.socials,
    visible: input.visible,
    position: input.position,
    updatedAt: new Date(),
  };
  return db.transaction(async (transaction) => {
    const [before] =
      target === undefined
        ? []
        : await transaction.select().from(partners).where(eq(partners.id, target.id)).for('update');
    if (target !== undefined && !before) throw new NotFound('not-found', { id: ['not-found'] });
    const [row] =
      target === undefined
        ? await transaction.insert(partners).values(values).returning()
        : await transaction
            .update(partners)
            .set({ ...values, version: sql`${partners.version} + 1` })
            .where(and(eq(partners.id, target.id), eq(partners.version, target.version)))
            .returning();
    if (!row) throw recordChanged();
    await recordAudit(transaction, {
      actorId,
      action: before ? 'update' : 'create',
      entity: 'partner',
      entityId: row.id,
      before: before ? partnerView(before) : undefined,
      after: partnerView(row),
    });
    return partnerView(row);
  });
}

export async function deletePartner(db: Database, actorId: number, id: number) {
  await db.transaction(async (transaction) => {
    const [row] = await transaction.delete(partners).where(eq(partners.id, id)).returning();
    if (!row) throw new NotFound('not-found', { id: ['not-found'] });
    await recordAudit(transaction, {
      actorId,
      action: 'delete',
      entity: 'partner',
      entityId: id,
      before: partnerView(row),
    });
  });
}
