import { cityWithoutKind } from '../../contract/delivery.ts';

/**
 * Finding a Russian city by the name a shopper types, in Cyrillic or in Latin letters. Boxberry's
 * `ListCities` names cities in Russian only (`Name`, `UniqName`; no English field), so the English
 * interface's "Moscow" or "Yekaterinburg" is matched here: both sides become a spelling-tolerant
 * Latin key (a transliteration with the usual romanization variants made one), and the few cities
 * whose English name is not a transliteration ("Moscow", "Saint Petersburg") are known by name.
 */

const LATIN: Record<string, string> = {
  а: 'a',
  б: 'b',
  в: 'v',
  г: 'g',
  д: 'd',
  е: 'e',
  ё: 'e',
  ж: 'zh',
  з: 'z',
  и: 'i',
  й: 'y',
  к: 'k',
  л: 'l',
  м: 'm',
  н: 'n',
  о: 'o',
  п: 'p',
  р: 'r',
  с: 's',
  т: 't',
  у: 'u',
  ф: 'f',
  х: 'kh',
  ц: 'ts',
  ч: 'ch',
  ш: 'sh',
  щ: 'shch',
  ъ: '',
  ы: 'y',
  ь: '',
  э: 'e',
  ю: 'yu',
  я: 'ya',
};

/**
 * "Москва", "moskva", "Moskwa" → "moskva"; "Екатеринбург", "Yekaterinburg", "Ekaterinburg" →
 * "ekaterinburg"; "Нижний Новгород", "Nizhniy Novgorod", "Nizhny Novgorod" → "nizhnynovgorod".
 */
export function cityNameKey(name: string): string {
  const latin = [...cityWithoutKind(name).toLocaleLowerCase('ru')]
    .map((letter) => LATIN[letter] ?? letter)
    .join('')
    .normalize('NFKD')
    .replace(/[^a-z]/g, '');
  return latin
    .replace(/kh/g, 'h')
    .replace(/x/g, 'ks')
    .replace(/w/g, 'v')
    .replace(/j/g, 'y')
    .replace(/tz/g, 'ts')
    .replace(/iy|yy|ii/g, 'y')
    .replace(/ye/g, 'e')
    .replace(/ia/g, 'ya')
    .replace(/iu/g, 'yu')
    .replace(/([a-z])\1+/g, '$1');
}

/** English names that are not a transliteration of the Russian one: key of the English → Russian. */
const ENGLISH_NAMES = new Map(
  (
    [
      [['Moscow'], 'Москва'],
      [['Saint Petersburg', 'St Petersburg', 'St. Petersburg', 'Petersburg'], 'Санкт-Петербург'],
      [['Rostov-on-Don', 'Rostov on Don'], 'Ростов-на-Дону'],
      [['Togliatti'], 'Тольятти'],
      [['Archangel'], 'Архангельск'],
      [['Komsomolsk-on-Amur', 'Komsomolsk on Amur'], 'Комсомольск-на-Амуре'],
    ] as const
  ).flatMap(([english, russian]) =>
    english.map((name) => [cityNameKey(name), cityNameKey(russian)] as const),
  ),
);

/** The key a typed city name is looked for by: its Russian name's key when it is a known English one. */
export const searchedCityKey = (typed: string): string => {
  const key = cityNameKey(typed);
  return ENGLISH_NAMES.get(key) ?? key;
};

/**
 * The first of `cities` the shopper means by `typed`: the one named exactly so (case aside, without
 * the kind of settlement) first, else the first whose name reads the same in Latin letters.
 */
export function findCity<City>(cities: readonly City[], nameOf: (city: City) => string, typed: string) {
  const wanted = cityWithoutKind(typed).toLocaleLowerCase('ru').replace(/ё/g, 'е');
  if (wanted === '') return undefined;
  const exact = cities.find(
    (city) => cityWithoutKind(nameOf(city)).toLocaleLowerCase('ru').replace(/ё/g, 'е') === wanted,
  );
  if (exact) return exact;
  const key = searchedCityKey(typed);
  if (key === '') return undefined;
  return cities.find((city) => cityNameKey(nameOf(city)) === key);
}
