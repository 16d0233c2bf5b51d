import type { Locale } from '../../contract/locale.ts';
import { en, type MessageKey } from './en.ts';
import { ru } from './ru.ts';

export type { MessageKey };

const dictionaries: Record<Locale, Record<MessageKey, string>> = { ru, en };

export type Translate = (key: MessageKey, values?: Record<string, string | number>) => string;

export function translator(locale: Locale): Translate {
  const dictionary = dictionaries[locale];
  return (key, values) =>
    values
      ? dictionary[key].replace(/\{(\w+)\}/g, (whole, name: string) => String(values[name] ?? whole))
      : dictionary[key];
}
