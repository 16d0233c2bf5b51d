import { asc, eq } from 'drizzle-orm';
import type { Locale } from '../../contract/locale.ts';
import type { Partner } from '../../contract/partners.ts';
import type { Executor } from '../db/client.ts';
import { partners } from '../db/schema.ts';

/** An optional contact as the page shows it: null when the admin left it blank. */
const optional = (value: string | null) => {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
};

/** The partners page: visible partners in the admin's order, texts in the shopper's language. */
export async function listPartners(db: Executor, locale: Locale): Promise<Partner[]> {
  const rows = await db
    .select()
    .from(partners)
    .where(eq(partners.visible, true))
    .orderBy(asc(partners.position), asc(partners.id));
  return rows.map((row) => ({
    id: row.id,
    name: locale === 'ru' ? row.nameRu : row.nameEn,
    desc: locale === 'ru' ? row.descriptionRu : row.descriptionEn,
    image: optional(row.image),
    link: optional(row.link),
    email: optional(row.email),
    phone_number: optional(row.phoneNumber),
    phone_number_mobile: optional(row.phoneNumberMobile),
    telegram: optional(row.telegram),
    messenger: optional(row.messenger),
    socials: row.socials
      .filter((social) => social.link.trim() !== '')
      .map((social) => ({ type: social.type.trim().toLowerCase(), link: social.link.trim() })),
  }));
}
