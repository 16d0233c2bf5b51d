import type { Locale } from '../../contract/locale.ts';

/** Intl formatters cost far more to build than to use: one of each per language. */
export function perLocale<T>(build: (locale: Locale) => T): (locale: Locale) => T {
  const built = new Map<Locale, T>();
  return (locale) => {
    let value = built.get(locale);
    if (value === undefined) {
      value = build(locale);
      built.set(locale, value);
    }
    return value;
  };
}

const ratingFormat = perLocale((locale) => new Intl.NumberFormat(locale, { maximumFractionDigits: 1 }));

/** A rating as a number in the page's language: "4.5", "4,5". */
export const formatRating = (locale: Locale, rating: number) => ratingFormat(locale).format(rating);

const STAR_PATH = 'M12 2.8l2.8 5.9 6.4.8-4.7 4.4 1.2 6.4L12 17.2l-5.7 3.1 1.2-6.4-4.7-4.4 6.4-.8z';

export function StarShape({ size = 18 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d={STAR_PATH} />
    </svg>
  );
}

/** Five stars, filled up to `value` (fractions too); decorative, the number is said in text. */
export function Stars({ value, size = 18 }: { value: number; size?: number }) {
  const stars = [1, 2, 3, 4, 5].map((star) => <StarShape key={star} size={size} />);
  return (
    <span className="stars" aria-hidden="true">
      <span className="stars__empty">{stars}</span>
      <span className="stars__full" style={{ width: `${Math.max(0, Math.min(5, value)) * 20}%` }}>
        {stars}
      </span>
    </span>
  );
}
