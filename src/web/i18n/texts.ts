import type { Locale } from '../../contract/locale.ts';
import type { MessageKey } from './dictionary-en.ts';
import { type Translate, translatorOf } from './translate.ts';

/**
 * The shop's texts in one language, as a page uses them (ADR 0086). In the browser each language's
 * dictionary is a script of its own: the client entry loads the page's language before hydrating
 * (the server names that script in the page's head, for the browser to fetch it beside the others),
 * and a change of language loads the other when it is first needed. The server has both, given at
 * start by its entry (`provideTexts`).
 */
type Dictionary = Record<MessageKey, string>;

const dictionaryModules: Record<Locale, () => Promise<{ dictionary: Dictionary }>> = {
  en: () => import('./dictionary-en.ts'),
  ru: () => import('./dictionary-ru.ts'),
};

const translators: Partial<Record<Locale, Translate<MessageKey>>> = {};
const loading: Partial<Record<Locale, Promise<Translate<MessageKey>>>> = {};

/** The translator of a language whose texts are here already, else undefined. */
export function loadedTexts(locale: Locale): Translate<MessageKey> | undefined {
  return translators[locale];
}

/** Brings a language's texts (once; a failed load is tried again on the next call). */
export function loadTexts(locale: Locale): Promise<Translate<MessageKey>> {
  const loaded = translators[locale];
  if (loaded) return Promise.resolve(loaded);
  let pending = loading[locale];
  if (!pending) {
    pending = dictionaryModules[locale]().then(
      ({ dictionary }) => provideTexts(locale, dictionary),
      (error: unknown) => {
        delete loading[locale];
        throw error;
      },
    );
    loading[locale] = pending;
  }
  return pending;
}

/** Makes a language's texts available at once (the server's entry gives both at start). */
export function provideTexts(locale: Locale, dictionary: Dictionary): Translate<MessageKey> {
  const translator = translatorOf(dictionary);
  translators[locale] = translator;
  return translator;
}
