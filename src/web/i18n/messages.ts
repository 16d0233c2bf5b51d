import type { Locale } from '../../contract/locale.ts';
import { cartMessages } from './cart.ts';
import { checkoutMessages } from './checkout.ts';
import { en as coreEn } from './en.ts';
import { ru as coreRu } from './ru.ts';

/**
 * The shop's dictionaries, one per language, assembled from the core texts and each area's file.
 * The back office's texts are not here: they are added by admin-messages.ts, which only the
 * back office's pages load, so shoppers' pages do not carry them.
 */
const en = { ...coreEn, ...cartMessages.en, ...checkoutMessages.en };
export type MessageKey = keyof typeof en;
const ru: Record<MessageKey, string> = { ...coreRu, ...cartMessages.ru, ...checkoutMessages.ru };

export const dictionaries: Record<Locale, Record<MessageKey, string>> = { ru, en };

export type Translate<Key extends string = MessageKey> = (
  key: Key,
  values?: Record<string, string | number>,
) => string;

/**
 * Quotes inside a value the text itself quotes go one level down (Russian «Удалить „Футболка
 * «Роза ветров»“»? is wrong; «Футболка „Роза ветров“» is right; English “…‘…’…”).
 */
const INNER_QUOTES: Record<string, { pair: RegExp; open: string; close: string }> = {
  '«': { pair: /«([^«»]*)»/g, open: '„', close: '“' },
  '“': { pair: /“([^“”]*)”/g, open: '‘', close: '’' },
};

function placed(text: string, before: string | undefined): string {
  const inner = before === undefined ? undefined : INNER_QUOTES[before];
  return inner
    ? text.replace(inner.pair, (_, quoted: string) => `${inner.open}${quoted}${inner.close}`)
    : text;
}

/** Looks texts up in a dictionary, filling `{name}` placeholders from `values`. */
export function translatorOf<Key extends string>(dictionary: Record<Key, string>): Translate<Key> {
  return (key, values) =>
    values
      ? dictionary[key].replace(/\{(\w+)\}/g, (whole, name: string, offset: number, template: string) =>
          values[name] === undefined ? whole : placed(String(values[name]), template[offset - 1]),
        )
      : dictionary[key];
}

const translators: Record<Locale, Translate> = { ru: translatorOf(ru), en: translatorOf(en) };

export const translator = (locale: Locale): Translate => translators[locale];
