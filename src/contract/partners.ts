import { z } from './zod.ts';

/** Wire shape of the partners list (spec section 3, Partner); field names are the spec's own. */

export const partnerSocialSchema = z.object({
  type: z.string().describe('vk, twitter, steam, youtube, instagram, facebook, or another network'),
  link: z.string(),
});

export const partnerSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  desc: z.string().describe('Plain-text description in the requested language'),
  image: z.string().nullable().describe('File name under /img/partners/'),
  link: z.string().nullable().describe("The partner's website"),
  email: z.string().nullable(),
  phone_number: z.string().nullable(),
  phone_number_mobile: z.string().nullable(),
  telegram: z.string().nullable().describe('Telegram handle, with or without the leading @'),
  messenger: z.string().nullable().describe('Another messenger contact, shown as written'),
  socials: z.array(partnerSocialSchema),
});

export const partnersResponse = z.object({
  success: z.literal(true),
  partners: z.array(partnerSchema),
});

export type PartnerSocial = z.infer<typeof partnerSocialSchema>;
export type Partner = z.infer<typeof partnerSchema>;
export type PartnersResponse = z.infer<typeof partnersResponse>;
