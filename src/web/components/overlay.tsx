import { useEffect, useRef } from 'react';
import { useFetcher, useLocation } from 'react-router';
import { OVERLAY_COOKIE, useShop } from '../lib/shop.ts';

/**
 * The test-mode notice; OK (or Escape) clears its stored flag so it does not come back. The server
 * sends it as an open `<dialog>` with a form, which works without JavaScript; in the browser it
 * becomes modal, so focus is inside it and Tab stays there until it is answered.
 */
export function Overlay() {
  const { t } = useShop();
  const fetcher = useFetcher();
  const { pathname, search } = useLocation();
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const notice = dialog.current;
    if (!notice || notice.matches(':modal')) return;
    notice.close();
    notice.showModal();
  }, []);
  if (fetcher.state !== 'idle' || fetcher.data) return null;
  const dismiss = () => {
    // Remember at once in the browser too, so a reload right away does not show it again.
    // biome-ignore lint/suspicious/noDocumentCookie: a constant flag, no user data; cookieStore is not in every browser
    document.cookie = `${OVERLAY_COOKIE}=hidden; path=/; max-age=${30 * 24 * 3600}; samesite=lax`;
    fetcher.submit({}, { method: 'post', action: '/overlay' });
  };
  return (
    <dialog ref={dialog} open className="overlay" aria-labelledby="overlay-text" onCancel={dismiss}>
      <p id="overlay-text">{t('overlay-test-info')}</p>
      <form
        method="post"
        action="/overlay"
        onSubmit={(event) => {
          event.preventDefault();
          dismiss();
        }}
      >
        <input type="hidden" name="redirectTo" value={`${pathname}${search}`} />
        <button type="submit" className="button button--primary">
          {t('ok')}
        </button>
      </form>
    </dialog>
  );
}
