/** Looks a text up by its key, filling `{name}` placeholders from `values`. */
export type Translate<Key extends string = string> = (
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
