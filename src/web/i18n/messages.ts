import type { Locale } from '../../contract/locale.ts';
import { dictionary as en, type MessageKey } from './dictionary-en.ts';
import { dictionary as ru } from './dictionary-ru.ts';
import { type Translate as TranslateAny, translatorOf } from './translate.ts';

export type { MessageKey };
export { translatorOf };
export type Translate<Key extends string = MessageKey> = TranslateAny<Key>;

/**
 * The shop's dictionaries of both languages, for the server (mails, the web manifest, the back
 * office's dictionaries, tests). A shop page in the browser loads its own language's alone
 * (texts.ts): nothing the browser's landing pages import may import this module.
 */
export const dictionaries: Record<Locale, Record<MessageKey, string>> = { ru, en };

const translators: Record<Locale, Translate> = { ru: translatorOf(ru), en: translatorOf(en) };

export const translator = (locale: Locale): Translate => translators[locale];
