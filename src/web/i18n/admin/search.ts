import type { AdminTexts } from './texts.ts';

/** Back-office texts for search statistics, each in English and Russian. */
export const search = {
  'admin-search-section': { en: 'Search', ru: 'Поиск' },
  'admin-search-period': { en: 'Period', ru: 'Период' },
  'admin-search-days': { en: 'Last {days} days', ru: 'За {days} дней' },
  'admin-search-top': { en: 'Top searches', ru: 'Частые запросы' },
  'admin-search-empty': { en: 'Searches that found nothing', ru: 'Запросы без результатов' },
  'admin-search-query': { en: 'Search text', ru: 'Запрос' },
  'admin-search-searches': { en: 'Searches', ru: 'Поисков' },
  'admin-search-found': { en: 'Products found', ru: 'Найдено товаров' },
  'admin-synonyms': { en: 'Synonyms', ru: 'Синонимы' },
  'admin-synonyms-hint': {
    en: 'Search also reads the word as its meaning: “tee” finds T-shirts.',
    ru: 'Поиск читает слово и как его значение: «кофта» находит худи.',
  },
  'admin-new-synonym': { en: 'New synonym', ru: 'Новый синоним' },
  'admin-synonym-term': { en: 'Word shoppers type', ru: 'Слово покупателя' },
  'admin-synonym-term-hint': { en: 'One word, e.g. tee', ru: 'Одно слово, например кофта' },
  'admin-synonym-meaning': { en: 'Means', ru: 'Значит' },
  'admin-synonym-meaning-hint': {
    en: 'A word or phrase of the catalogue, e.g. T-shirt',
    ru: 'Слово или фраза каталога, например худи',
  },
  'admin-synonym-saved': { en: 'Synonym added.', ru: 'Синоним добавлен.' },
  'admin-rating': { en: 'Rating {rating}/5', ru: 'Оценка {rating}/5' },
} satisfies AdminTexts;
