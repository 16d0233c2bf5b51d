import { useEffect, useState } from 'react';
import { enableOfflineReading, isOfflineReadingOff, unregisterServiceWorker } from '../lib/service-worker.ts';
import { useShop } from '../lib/shop.ts';
import { AboutText, aboutHead } from '../static-pages/about.tsx';
import { StaticPageArticle, staffText } from '../static-pages/static-page.tsx';
import type { Route } from './+types/about';

export async function loader({ context }: Route.LoaderArgs) {
  return { text: await staffText(context, 'about') };
}

type OfflineState = 'on' | 'working' | 'off' | 'failed';

/** Offline reading: the service worker can be removed (and brought back) from here. */
function OfflineReading() {
  const { t } = useShop();
  const [state, setState] = useState<OfflineState>('on');

  // Read after hydration: the stored choice exists only in the browser.
  useEffect(() => {
    if (isOfflineReadingOff()) setState('off');
  }, []);

  async function turnOff() {
    setState('working');
    setState((await unregisterServiceWorker()) ? 'off' : 'failed');
  }

  async function turnOn() {
    setState('working');
    await enableOfflineReading();
    setState('on');
  }

  return (
    <section aria-labelledby="offline-reading">
      <h2 id="offline-reading">{t('offline-reading')}</h2>
      <p>{t('offline-reading-text')}</p>
      {state === 'off' ? (
        <button type="button" className="button" onClick={turnOn}>
          {t('offline-reading-on')}
        </button>
      ) : (
        <button type="button" className="button" onClick={turnOff} disabled={state === 'working'}>
          {t('offline-reading-off')}
        </button>
      )}
      <p role="status" className="static-page__status">
        {state === 'off'
          ? t('offline-reading-done')
          : state === 'failed'
            ? t('offline-reading-failed')
            : null}
      </p>
    </section>
  );
}

export default function AboutPage({ loaderData }: Route.ComponentProps) {
  const { data, locale, t } = useShop();
  const head = aboutHead(locale);
  return (
    <StaticPageArticle
      path="/about"
      title={t('about')}
      heading={head.title}
      description={head.description}
      text={loaderData.text}
      builtIn={<AboutText locale={locale} email={data?.shopEmail ?? ''} />}
    >
      <OfflineReading />
    </StaticPageArticle>
  );
}
