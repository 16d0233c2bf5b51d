import { useEffect, useRef, useState } from 'react';
import { Link, useFetcher, useLocation, useRevalidator } from 'react-router';
import { INTENT } from '../lib/enhanced-forms.ts';
import type { FormFailure } from '../lib/forms.ts';
import { signInPath } from '../lib/redirects.ts';
import { useShop } from '../lib/shop.ts';
import { OrderDate } from './order-date.tsx';
import { EnhancedField, failureText, useReturnPath } from './shopper-buttons.tsx';

/** While the page waits for the release it asks the server again this often (clocks may disagree). */
const RETRY_MS = 1000;

/** `2 d 03:04:05`, or `03:04:05` under a day. */
function remainingText(milliseconds: number, days: (count: number) => string): string {
  const seconds = Math.max(0, Math.ceil(milliseconds / 1000));
  const clock = [Math.floor(seconds / 3600) % 24, Math.floor(seconds / 60) % 60, seconds % 60]
    .map((part) => String(part).padStart(2, '0'))
    .join(':');
  const whole = Math.floor(seconds / 86_400);
  return whole > 0 ? `${days(whole)} ${clock}` : clock;
}

/**
 * An announced product's release (ADR 0041): the time in the visitor's zone and a live countdown.
 * The server renders the time in UTC and no countdown (its clock and a kept page's age are not
 * the visitor's); the browser then shows its own zone and counts down each second. At zero the
 * page's data is loaded again with React Router's revalidator, no reload: the product is orderable
 * then, and the page shows Add to cart. Should the server not agree yet, it asks again each second.
 */
export function ReleaseCountdown({ releaseAt }: { releaseAt: string }) {
  const { t } = useShop();
  const revalidator = useRevalidator();
  const [now, setNow] = useState<number | null>(null);
  const at = Date.parse(releaseAt);

  useEffect(() => {
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);

  const due = now !== null && now >= at;
  const idle = revalidator.state === 'idle';
  const attempts = useRef(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the revalidator object changes each render
  useEffect(() => {
    if (!due || !idle) return;
    const retry = setTimeout(
      () => {
        attempts.current += 1;
        void revalidator.revalidate();
      },
      attempts.current === 0 ? 0 : RETRY_MS,
    );
    return () => clearTimeout(retry);
  }, [due, idle]);

  return (
    <div className="release">
      <p className="release__time">
        {t('release-on-sale-at')} <OrderDate iso={releaseAt} />
      </p>
      <p className="release__countdown" role="timer" aria-live="off">
        {now !== null ? (
          due ? (
            t('release-now')
          ) : (
            <>
              {t('release-in')}{' '}
              <span className="release__remaining">
                {remainingText(at - now, (count) => t('release-days', { count }))}
              </span>
            </>
          )
        ) : null}
      </p>
    </div>
  );
}

type ReminderAnswer = { reminded: boolean } | FormFailure;

/**
 * "Remind me" of an announced product: a signed-in shopper gets one mail at the release (and may
 * take the wish back); a guest is invited to sign in first. The product page's action handles the
 * form (`releaseReminderAction`).
 */
export function ReleaseReminder({
  productId,
  signedIn,
  waiting,
}: {
  productId: number;
  signedIn: boolean;
  waiting: boolean;
}) {
  const { t } = useShop();
  const { pathname, search } = useLocation();
  const fetcher = useFetcher<ReminderAnswer>({ key: `release-reminder-${productId}` });
  const returnPath = useReturnPath({}, ['added', 'reviewed']);
  if (!signedIn) {
    return (
      <p className="release-reminder">
        <Link to={signInPath(pathname, search)}>{t('remind-me-sign-in')}</Link>
      </p>
    );
  }
  const answer = fetcher.state === 'idle' ? fetcher.data : undefined;
  const refused = answer && 'errors' in answer ? failureText(answer) : undefined;
  // What is being sent counts at once, then what the shop answered: a shared page's data may not
  // know this shopper's reminder (ADR 0048), so the answer, not a reload, sets the button.
  const pending = fetcher.formData?.get('remind');
  const answered = answer && 'reminded' in answer ? answer.reminded : undefined;
  const reminded = pending !== undefined && pending !== null ? pending === '1' : (answered ?? waiting);
  return (
    <fetcher.Form method="post" action={pathname} className="release-reminder">
      <input type="hidden" name="intent" value={INTENT.releaseReminder} />
      <input type="hidden" name="product" value={productId} />
      <input type="hidden" name="remind" value={reminded ? '0' : '1'} />
      <input type="hidden" name="redirectTo" value={returnPath} />
      <EnhancedField />
      <button
        type="submit"
        className={reminded ? 'button' : 'button button--primary'}
        aria-pressed={reminded}
      >
        {t('remind-me')}
      </button>
      {reminded ? (
        <span className="release-reminder__done" role="status">
          {t('remind-me-done')}
        </span>
      ) : null}
      {refused ? (
        <span className="form-field__error" role="alert">
          {refused}
        </span>
      ) : null}
    </fetcher.Form>
  );
}
