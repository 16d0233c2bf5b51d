import type { Locale } from '../../contract/locale.ts';
import type { MessageKey, Translate } from './messages.ts';

/** The plural categories our languages use: English one/other, Russian one/few/many/other. */
const CATEGORIES = ['one', 'few', 'many', 'other'] as const;
type Category = (typeof CATEGORIES)[number];

/** Message keys that come in one form per category: `review-count-one` … `review-count-other`. */
type PluralBase<Key extends string = MessageKey> = Key extends `${infer Base}-other`
  ? `${Base}-one` extends MessageKey
    ? Base
    : never
  : never;

const rules: Record<Locale, Intl.PluralRules> = {
  ru: new Intl.PluralRules('ru'),
  en: new Intl.PluralRules('en'),
};

/**
 * The text of `base` in the plural form `count` takes in the language (CLDR rules through
 * Intl.PluralRules): "1 день", "2 дня", "5 дней", "21 день"; `values` fill the placeholders.
 */
export function plural(
  t: Translate,
  locale: Locale,
  base: PluralBase,
  count: number,
  values: Record<string, string | number> = { count },
): string {
  const category = rules[locale].select(count);
  const form: Category = (CATEGORIES as readonly string[]).includes(category)
    ? (category as Category)
    : 'other';
  return t(`${base}-${form}` as MessageKey, values);
}
