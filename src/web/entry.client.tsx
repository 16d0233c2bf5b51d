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
 * Hydration waits for the first paint of the server's HTML: on a fast connection the scripts can
 * arrive before it, and hydrating first would hold the page's first paint back behind all of
 * them. A frame callback runs just before that paint, and the timeout it schedules after it. A
 * hidden tab paints nothing, so a plain timeout makes sure it hydrates too.
 */
let started = false;
function hydrateOnce() {
  if (started) return;
  started = true;
  texts.then(hydrate, hydrate);
}
requestAnimationFrame(() => setTimeout(hydrateOnce, 0));
setTimeout(hydrateOnce, 200);
