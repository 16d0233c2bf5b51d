import { useEffect, useState } from 'react';
import { useShop } from '../lib/shop.ts';

/**
 * A date and time in the visitor's language. The server writes it in UTC; the browser then shows its
 * own time zone (the two could not agree on a zone during hydration).
 */
export function OrderDate({ iso }: { iso: string }) {
  const { locale } = useShop();
  const format = (timeZone?: string) =>
    new Intl.DateTimeFormat(locale === 'ru' ? 'ru-RU' : 'en-GB', {
      year: 'numeric',
      month: 'short',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      ...(timeZone ? { timeZone, timeZoneName: 'short' } : {}),
    }).format(new Date(iso));
  const [text, setText] = useState(() => format('UTC'));
  // biome-ignore lint/correctness/useExhaustiveDependencies: formats once in the browser's zone
  useEffect(() => setText(format()), [iso, locale]);
  return <time dateTime={iso}>{text}</time>;
}
