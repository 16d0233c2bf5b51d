import type { Locale } from '../../contract/locale.ts';
import type { DeliveryMethod } from './mail-data.ts';

/**
 * How mails write hours, order numbers, delivery methods and names, in each language. Amounts are
 * written by the shop's one formatter, `formatMoney` in contract/money.ts (ADR 0082).
 */

export const intlLocale = (locale: Locale) => (locale === 'ru' ? 'ru-RU' : 'en-US');

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
