import type { Locale } from '../../contract/locale.ts';
import type { Currency } from '../../contract/money.ts';
import type { DeliveryMethod } from './mail-data.ts';

/** How mails write amounts, hours, order numbers, delivery methods and names, in each language. */

export const intlLocale = (locale: Locale) => (locale === 'ru' ? 'ru-RU' : 'en-US');

/** Number formats are slow to make (a mail of an order formats a dozen amounts): made once each. */
const amountFormats = new Map<string, Intl.NumberFormat>();

/** An amount in `currency` (roubles or dollars) as the reader's locale writes it. */
export function formatAmount(amount: number, currency: Currency, locale: Locale): string {
  const wholeRoubles = currency === 'RUB' && Number.isInteger(amount);
  const key = `${locale}:${currency}:${wholeRoubles}`;
  let format = amountFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(intlLocale(locale), {
      style: 'currency',
      currency,
      currencyDisplay: 'narrowSymbol',
      minimumFractionDigits: wholeRoubles ? 0 : 2,
      maximumFractionDigits: wholeRoubles ? 0 : 2,
    });
    amountFormats.set(key, format);
  }
  return format.format(amount);
}

export function hours(count: number, locale: Locale): string {
  const form = new Intl.PluralRules(intlLocale(locale)).select(count);
  const words: Record<Locale, Partial<Record<Intl.LDMLPluralRule, string>> & { other: string }> = {
    ru: { one: 'час', few: 'часа', many: 'часов', other: 'часа' },
    en: { one: 'hour', other: 'hours' },
  };
  return `${count}\u00a0${words[locale][form] ?? words[locale].other}`;
}

export const DELIVERY_NAMES: Record<Locale, Record<DeliveryMethod, string>> = {
  ru: {
    russian_post: 'Почта России',
    boxberry: 'Boxberry, пункт выдачи',
    'boxberry.courier': 'Boxberry, курьер',
  },
  en: {
    russian_post: 'Russian Post',
    boxberry: 'Boxberry pickup point',
    'boxberry.courier': 'Boxberry courier',
  },
};

/** Order numbers: «№ 42» in Russian, «#42» in English. */
export const orderNumber = (orderId: number, locale: Locale) =>
  locale === 'ru' ? `№\u00a0${orderId}` : `#${orderId}`;

/** A visitor's name in a subject line: one line, not endless. */
export function oneLine(value: string, limit = 60): string {
  const line = value.replace(/\s+/g, ' ').trim();
  return line.length > limit ? `${line.slice(0, limit - 1)}…` : line;
}
