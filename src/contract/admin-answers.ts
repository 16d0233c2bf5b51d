import { z } from './zod.ts';

/**
 * What the back office reads from the answers of `/api/admin/*` (ADR 0073): the browser parses
 * each answer with its schema here instead of casting it. A schema names the fields its pages show;
 * zod leaves out the rest. `src/web/admin/types.ts` checks that the services' answers fit them.
 */

const moment = z.string().describe('ISO 8601');
const staffNote = z.object({ id: z.number(), body: z.string(), author: z.string().nullable(), date: moment });
const paging = { total: z.number(), currentPage: z.number(), lastPage: z.number() };

export const adminPartner = z.object({
  id: z.number(),
  version: z.number(),
  name_ru: z.string(),
  name_en: z.string(),
  desc_ru: z.string(),
  desc_en: z.string(),
  image: z.string().nullable(),
  imageMissing: z.boolean(),
  link: z.string().nullable(),
  email: z.string().nullable(),
  phone_number: z.string().nullable(),
  phone_number_mobile: z.string().nullable(),
  telegram: z.string().nullable(),
  messenger: z.string().nullable(),
  socials: z.array(z.object({ type: z.string(), link: z.string() })),
  visible: z.boolean(),
  position: z.number(),
});
export const adminPartnersAnswer = z.object({ partners: z.array(adminPartner) });

const userRole = z.enum(['customer', 'manager', 'admin']);
export const staffAnswer = z.object({
  staff: z.array(
    z.object({ id: z.number(), email: z.string(), name: z.string(), role: userRole, confirmed: z.boolean() }),
  ),
  invitations: z.array(
    z.object({
      id: z.number(),
      email: z.string(),
      role: userRole,
      invitedBy: z.string().nullable(),
      expiresAt: moment,
    }),
  ),
});

export const adminCustomerAnswer = z.object({
  customer: z.object({
    id: z.number(),
    email: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    phone: z.string(),
    country: z.string(),
    city: z.string(),
    zip: z.string(),
    address: z.string(),
    registeredAt: moment,
    spent: z.number().describe('Roubles'),
    blocked: z.boolean(),
    orderList: z.array(
      z.object({ id: z.number(), date: moment, status: z.number(), total: z.number().describe('Roubles') }),
    ),
    notes: z.array(staffNote),
  }),
});

export const feedbackPageAnswer = z.object({
  ...paging,
  unread: z.number(),
  list: z.array(
    z.object({
      id: z.number(),
      name: z.string(),
      email: z.string(),
      message: z.string(),
      read: z.boolean(),
      date: moment,
    }),
  ),
});

export const reviewPageAnswer = z.object({
  ...paging,
  list: z.array(
    z.object({
      id: z.number(),
      product: z.object({ link: z.string(), name_ru: z.string(), name_en: z.string() }),
      email: z.string(),
      rating: z.number(),
      body: z.string(),
      hidden: z.boolean(),
      date: moment,
    }),
  ),
});

export const synonymsAnswer = z.object({
  synonyms: z.array(z.object({ id: z.number(), term: z.string(), meaning: z.string() })),
});
const searchStat = z.object({ query: z.string(), searches: z.number(), results: z.number() });
export const searchStatsAnswer = z.object({ top: z.array(searchStat), empty: z.array(searchStat) });

export const stalledShipmentsAnswer = z.object({
  days: z.number(),
  shipments: z.array(
    z.object({
      id: z.number(),
      order: z.number(),
      track_code: z.string().nullable(),
      last_event_at: moment.nullable(),
      created_at: moment,
    }),
  ),
});
