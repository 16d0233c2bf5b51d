import { lazy, Suspense } from 'react';
import { Link } from 'react-router';
import type { Locale } from '../../contract/locale.ts';
import type { Review } from '../../contract/shopping.ts';
import type { Translate } from '../i18n/messages.ts';
import { plural } from '../i18n/plural.ts';
import type { FormFailure } from '../lib/forms.ts';
import { signInPath } from '../lib/redirects.ts';
import { useShop } from '../lib/shop.ts';
import { formatRating, perLocale, Stars } from './stars.tsx';

/**
 * The form to write a review: only a signed-in shopper sees it, so its code (and the form fields')
 * is a chunk of its own, downloaded by the pages that show it (ADR 0064).
 */
const ReviewForm = lazy(() => import('./review-form.tsx').then((module) => ({ default: module.ReviewForm })));

/**
 * The reviews thread under a product, keyed by the product id (spec section 2). The page renders
 * this one component with its loader's data; an embedded comments service, if the shop is ever
 * configured with one, replaces what is inside it and nothing outside.
 */

/** What the product loader gives the thread: the pages shown so far, newest first. */
export interface ReviewThreadData {
  productId: number;
  productLink: string;
  average: number | null;
  count: number;
  /** Pages 1..page, each a list of reviews. */
  pages: Review[][];
  page: number;
  lastPage: number;
  maxLength: number;
}

/** Dates in UTC, so the server's and the browser's renderings agree. */
const dateFormat = perLocale(
  (locale) => new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }),
);

/** "2 reviews", "2 отзыва", "5 отзывов". */
export const reviewCount = (t: Translate, locale: Locale, count: number): string =>
  plural(t, locale, 'review-count', count);

/** "★★★★½ 4.5 of 5 · 2 reviews", linking to the thread; nothing before the first review. */
export function RatingSummary({ average, count }: { average: number | null; count: number }) {
  const { locale, t } = useShop();
  if (count === 0 || average === null) return null;
  return (
    <a href="#reviews" className="rating-summary">
      <Stars value={average} />
      <span>
        {t('rating-of-5', { rating: formatRating(locale, average) })} · {reviewCount(t, locale, count)}
      </span>
    </a>
  );
}

const formatDate = (locale: Locale, iso: string) => dateFormat(locale).format(new Date(iso));

function ReviewItem({ review, anchor }: { review: Review; anchor?: string | undefined }) {
  const { locale, t } = useShop();
  return (
    <li id={anchor}>
      <article className="review">
        <header className="review__header">
          <span className="review__author">{review.author || t('review-anonymous')}</span>
          <time className="review__date" dateTime={review.date}>
            {formatDate(locale, review.date)}
          </time>
        </header>
        <p className="review__rating">
          <Stars value={review.rating} size={16} />
          <span className="visually-hidden">{t('rating-of-5', { rating: review.rating })}</span>
        </p>
        {/* Plain text: React escapes it; line breaks are kept by CSS. */}
        <p className="review__body">{review.body}</p>
      </article>
    </li>
  );
}

export function ReviewsThread({
  thread,
  signedIn,
  reviewed,
  failure,
}: {
  thread: ReviewThreadData;
  signedIn: boolean;
  /** Published by a plain form post (the page came back with `?reviewed=1`). */
  reviewed: boolean;
  /** Refused by a plain form post. */
  failure: FormFailure | undefined;
}) {
  const { locale, t } = useShop();
  const next = thread.page + 1;
  return (
    <section id="reviews" className="reviews" aria-labelledby="reviews-heading">
      <h2 id="reviews-heading">{t('reviews')}</h2>
      {thread.count > 0 && thread.average !== null ? (
        <p className="reviews__summary">
          <Stars value={thread.average} size={22} />
          <span>
            {t('rating-of-5', { rating: formatRating(locale, thread.average) })} ·{' '}
            {reviewCount(t, locale, thread.count)}
          </span>
        </p>
      ) : (
        <p className="reviews__none">{t('no-reviews')}</p>
      )}
      <div className="reviews__body">
        {thread.count > 0 ? (
          <div className="reviews__list">
            <ol className="review-list">
              {thread.pages.map((page, pageIndex) =>
                page.map((review, index) => (
                  <ReviewItem
                    key={review.id}
                    review={review}
                    anchor={pageIndex > 0 && index === 0 ? `reviews-page-${pageIndex + 1}` : undefined}
                  />
                )),
              )}
            </ol>
            {thread.page < thread.lastPage ? (
              <Link
                to={`/product/${thread.productLink}?reviews=${next}#reviews-page-${next}`}
                className="button reviews__more"
              >
                {t('more-reviews')}
              </Link>
            ) : null}
          </div>
        ) : null}
        {signedIn ? (
          <Suspense fallback={null}>
            <ReviewForm thread={thread} reviewed={reviewed} failure={failure} />
          </Suspense>
        ) : (
          <p className="reviews__sign-in">
            <Link to={signInPath(`/product/${thread.productLink}`)}>{t('review-sign-in')}</Link>
          </p>
        )}
      </div>
    </section>
  );
}
