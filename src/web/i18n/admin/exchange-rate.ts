import type { AdminTexts } from './texts.ts';

/** Back-office texts for the dollar rate, each in English and Russian. */
export const exchangeRate = {
  'admin-rate': { en: 'Dollar rate', ru: 'Курс доллара' },
  'admin-rate-in-force': {
    en: '{rate} ₽ per dollar, for {date} ({source}).',
    ru: '{rate} ₽ за доллар, на {date} ({source}).',
  },
  'admin-rate-source-cbr': { en: 'Central Bank of Russia', ru: 'Банк России' },
  'admin-rate-source-moex': { en: 'Moscow Exchange', ru: 'Московская биржа' },
  'admin-rate-source-manual': { en: 'set by hand', ru: 'задан вручную' },
  'admin-rate-source-seed': { en: 'demo data', ru: 'демо-данные' },
  'admin-rate-set-by': { en: 'Set by {email}.', ru: 'Задал {email}.' },
  'admin-rate-withheld-old': {
    en: 'Dollar prices are withheld: the latest rate is for {date}, more than {days} days ago. Set one by hand until the Central Bank can be read.',
    ru: 'Цены в долларах не показываются: последний курс на {date}, больше {days} дн. назад. Задайте курс вручную, пока курс Банка России недоступен.',
  },
  'admin-rate-withheld-none': {
    en: 'Dollar prices are withheld: there is no dollar rate yet. Set one by hand until the Central Bank can be read.',
    ru: 'Цены в долларах не показываются: курса доллара ещё нет. Задайте курс вручную, пока курс Банка России недоступен.',
  },
  'admin-rate-manual': { en: 'Roubles per dollar', ru: 'Рублей за доллар' },
  'admin-rate-manual-hint': {
    en: 'Your rate is used from now on, for today; the Central Bank’s rate for a later day replaces it.',
    ru: 'Ваш курс действует с этой минуты, на сегодня; курс Банка России на следующий день заменит его.',
  },
  'admin-rate-set': { en: 'Set the rate', ru: 'Задать курс' },
  'admin-rate-saved': { en: 'The rate is set.', ru: 'Курс задан.' },
} satisfies AdminTexts;
