import type { Locale } from '../../../contract/locale.ts';

/** A section's texts: each key with its English and Russian side by side, so one change is one place. */
export type AdminTexts = Record<string, Record<Locale, string>>;
