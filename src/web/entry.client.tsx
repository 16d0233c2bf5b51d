import { StrictMode, startTransition } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { HydratedRouter } from 'react-router/dom';
import { DEFAULT_LOCALE, isLocale } from '../contract/locale.ts';
import { loadTexts } from './i18n/texts.ts';

/**
 * The page's language's texts, asked for at once (the server preloads them beside the scripts):
 * the first render needs them (ADR 0086). Hydration waits for them; were they to fail, it starts
 * anyway and asks again from the first render.
 */
const pageLanguage = document.documentElement.lang;
const texts = loadTexts(isLocale(pageLanguage) ? pageLanguage : DEFAULT_LOCALE);

/** Hands the server-rendered page over to React (React Router's default client entry). */
function hydrate() {
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <HydratedRouter />
      </StrictMode>,
    );
  });
}

/**
 * Hydration waits until the browser has shown the server's HTML (ADR 0090): on a fast connection
 * the scripts can arrive before the page is on screen, and hydrating first would hold its first
 * paint (on a product page, the picture) back behind hydration's work. The first contentful
 * paint, as the Paint Timing API reports it, is when the frame was presented, not merely drawn: a
 * phone's raster work can leave it a hundred milliseconds after the frame callback. A browser
 * without paint entries hydrates after the frame callback's timeout. A hidden tab paints nothing,
 * so it hydrates at once; and if no paint comes within a second, hydration starts anyway.
 */
let started = false;
function hydrateOnce() {
  if (started) return;
  started = true;
  texts.then(hydrate, hydrate);
}
const FIRST_CONTENTFUL_PAINT = 'first-contentful-paint';
if (document.visibilityState === 'hidden') {
  hydrateOnce();
} else if (PerformanceObserver.supportedEntryTypes?.includes('paint')) {
  const painted = new PerformanceObserver((entries) => {
    if (!entries.getEntriesByName(FIRST_CONTENTFUL_PAINT).length) return;
    painted.disconnect();
    setTimeout(hydrateOnce, 0);
  });
  painted.observe({ type: 'paint', buffered: true });
  setTimeout(hydrateOnce, 1000);
} else {
  requestAnimationFrame(() => setTimeout(hydrateOnce, 0));
  setTimeout(hydrateOnce, 200);
}
