import type { Locale } from '../../contract/locale.ts';
import { adminMessages } from './admin.ts';
import { cartMessages } from './cart.ts';
import { checkoutMessages } from './checkout.ts';
import { en as coreEn } from './en.ts';
import { ru as coreRu } from './ru.ts';

/** One dictionary per language, assembled from the core texts and each area's file. */
const en = { ...coreEn, ...cartMessages.en, ...checkoutMessages.en, ...adminMessages.en };
export type MessageKey = keyof typeof en;
const ru: Record<MessageKey, string> = {
  ...coreRu,
  ...cartMessages.ru,
  ...checkoutMessages.ru,
  ...adminMessages.ru,
};

export const dictionaries: Record<Locale, Record<MessageKey, string>> = { ru, en };

export type Translate = (key: MessageKey, values?: Record<string, string | number>) => string;

export function translator(locale: Locale): Translate {
  const dictionary = dictionaries[locale];
  return (key, values) =>
    values
      ? dictionary[key].replace(/\{(\w+)\}/g, (whole, name: string) => String(values[name] ?? whole))
      : dictionary[key];
}
