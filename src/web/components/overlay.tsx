import { useFetcher, useLocation } from 'react-router';
import { OVERLAY_COOKIE, useShop } from '../lib/shop.ts';

/** The test-mode notice; OK clears its stored flag so it does not come back. */
export function Overlay() {
  const { t } = useShop();
  const fetcher = useFetcher();
  const { pathname, search } = useLocation();
  if (fetcher.state !== 'idle' || fetcher.data) return null;
  return (
    <div className="overlay">
      <div role="dialog" aria-modal="true" aria-labelledby="overlay-text" className="overlay__dialog">
        <p id="overlay-text">{t('overlay-test-info')}</p>
        <form
          method="post"
          action="/overlay"
          onSubmit={(event) => {
            event.preventDefault();
            // Remember at once in the browser too, so a reload right away does not show it again.
            // biome-ignore lint/suspicious/noDocumentCookie: a constant flag, no user data; cookieStore is not in every browser
            document.cookie = `${OVERLAY_COOKIE}=hidden; path=/; max-age=${30 * 24 * 3600}; samesite=lax`;
            fetcher.submit({}, { method: 'post', action: '/overlay' });
          }}
        >
          <input type="hidden" name="redirectTo" value={`${pathname}${search}`} />
          <button type="submit" className="button button--primary">
            {t('ok')}
          </button>
        </form>
      </div>
    </div>
  );
}
