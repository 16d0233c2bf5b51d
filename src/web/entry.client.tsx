import { StrictMode, startTransition } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { HydratedRouter } from 'react-router/dom';

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
  hydrate();
}
requestAnimationFrame(() => setTimeout(hydrateOnce, 0));
setTimeout(hydrateOnce, 200);
