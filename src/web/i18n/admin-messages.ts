import type { Locale } from '../../contract/locale.ts';
import { adminMessages } from './admin.ts';
import { dictionaries, type Translate, translatorOf } from './messages.ts';

/** The back office's dictionaries: the shop's texts and its own (loaded by its pages alone). */
const en = { ...dictionaries.en, ...adminMessages.en };
export type AdminMessageKey = keyof typeof en;
const ru: Record<AdminMessageKey, string> = { ...dictionaries.ru, ...adminMessages.ru };

export const adminDictionaries: Record<Locale, Record<AdminMessageKey, string>> = { ru, en };

const translators: Record<Locale, Translate<AdminMessageKey>> = {
  ru: translatorOf(ru),
  en: translatorOf(en),
};

export const adminTranslator = (locale: Locale): Translate<AdminMessageKey> => translators[locale];
