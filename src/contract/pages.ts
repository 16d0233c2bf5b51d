import { z } from './zod.ts';

/** The static information pages whose text staff edit in the back office (spec §1: info pages). */
export const STATIC_PAGES = ['shipping', 'payment', 'about', 'privacy-policy'] as const;
export type StaticPage = (typeof STATIC_PAGES)[number];

export const staticPageParams = z.object({
  page: z.enum(STATIC_PAGES, { error: 'not-found' }),
});

/** A page's text in both languages (HTML, sanitized on write; '' shows the built-in text). */
export const staticPageSave = z.object({
  html_ru: z.string({ error: 'field-required' }).max(200_000, 'field-too-long'),
  html_en: z.string({ error: 'field-required' }).max(200_000, 'field-too-long'),
  /** The version the editor loaded (0 for a page never saved); a stale one gets 409. */
  version: z.coerce.number({ error: 'number-invalid' }).int('number-invalid').min(0, 'number-invalid'),
});

export type StaticPageSave = z.infer<typeof staticPageSave>;
