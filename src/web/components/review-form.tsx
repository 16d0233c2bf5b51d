import { useEffect, useRef, useState } from 'react';
import { useFetcher } from 'react-router';
import { INTENT } from '../lib/enhanced-forms.ts';
import type { FormFailure } from '../lib/forms.ts';
import { useShop } from '../lib/shop.ts';
import { FormAlert, FormSuccess, TextAreaField } from './form-field.tsx';
import type { ReviewThreadData } from './reviews.tsx';
import { EnhancedField } from './shopper-buttons.tsx';
import { StarShape } from './stars.tsx';

type ReviewAnswer = { reviewed: true } | FormFailure;

const isFailure = (answer: unknown): answer is FormFailure =>
  typeof answer === 'object' && answer !== null && 'errors' in answer;

/** Rating 1..5 as radio buttons drawn as stars (arrow keys move between them), and the text. */
export function ReviewForm({
  thread,
  reviewed,
  failure: plainFailure,
}: {
  thread: ReviewThreadData;
  reviewed: boolean;
  failure: FormFailure | undefined;
}) {
  const { t } = useShop();
  const fetcher = useFetcher<ReviewAnswer>({ key: `review-${thread.productId}` });
  const form = useRef<HTMLFormElement>(null);
  const answer = fetcher.data;
  const failure = answer === undefined ? plainFailure : isFailure(answer) ? answer : undefined;
  const published = fetcher.state === 'idle' && (answer === undefined ? reviewed : !isFailure(answer));
  const [length, setLength] = useState(failure?.values?.body?.length ?? 0);

  useEffect(() => {
    if (fetcher.state === 'idle' && fetcher.data && !isFailure(fetcher.data)) {
      form.current?.reset();
      setLength(0);
    }
  }, [fetcher.state, fetcher.data]);

  const ratingError = failure?.errors.rating?.join(' ');
  return (
    <section className="review-form" aria-labelledby="review-form-heading">
      <h3 id="review-form-heading">{t('write-review')}</h3>
      {published ? <FormSuccess>{t('review-published')}</FormSuccess> : null}
      <FormAlert>{failure?.formError}</FormAlert>
      <fetcher.Form method="post" action={`/product/${thread.productLink}`} ref={form} noValidate>
        <input type="hidden" name="intent" value={INTENT.review} />
        <input type="hidden" name="product" value={thread.productId} />
        <EnhancedField />
        <fieldset
          className={`star-rating ${ratingError ? 'star-rating--invalid' : ''}`}
          aria-describedby={ratingError ? 'review-rating-error' : undefined}
        >
          <legend>{t('your-rating')}</legend>
          <div className="star-rating__options">
            {[1, 2, 3, 4, 5].map((rating) => (
              <label key={rating} className="star-rating__option">
                <input
                  type="radio"
                  name="rating"
                  value={rating}
                  required
                  defaultChecked={failure?.values?.rating === String(rating)}
                />
                <StarShape size={32} />
                <span className="visually-hidden">{t('rating-of-5', { rating })}</span>
              </label>
            ))}
          </div>
          {ratingError ? (
            <p id="review-rating-error" className="form-field__error">
              {ratingError}
            </p>
          ) : null}
        </fieldset>
        <TextAreaField
          name="body"
          label={t('your-review')}
          rows={5}
          required
          maxLength={thread.maxLength}
          defaultValue={failure?.values?.body ?? ''}
          errors={failure?.errors.body}
          hint={t('review-characters', { count: length, max: thread.maxLength })}
          onChange={(event) => setLength(event.target.value.length)}
        />
        <button
          type="submit"
          className="button button--primary"
          disabled={fetcher.state !== 'idle'}
          aria-busy={fetcher.state !== 'idle'}
        >
          {t('submit-review')}
        </button>
      </fetcher.Form>
    </section>
  );
}
