/**
 * The shop's stylesheet is inlined in every page's head: it is small, and inlined it costs no
 * render-blocking request. React renders the `<style>` element empty; the server's entry
 * (entry.server.tsx) writes the stylesheet into it from bytes prepared once, instead of React
 * encoding the same 30 KB on every request, and the browser reads it back from the page, so the
 * scripts carry no second copy.
 */
export const STYLESHEET_ID = 'stylesheet';

/** The stylesheet's text as React renders it: none on the server, the page's own in the browser. */
export const renderedStylesheet = () =>
  typeof document === 'undefined' ? '' : (document.getElementById(STYLESHEET_ID)?.textContent ?? '');

/**
 * The nonce the page's stylesheet came with, in the browser: a style element added later (the
 * description editor's) needs it to pass the page's Content-Security-Policy (ADR 0026).
 */
export const stylesheetNonce = () =>
  typeof document === 'undefined' ? undefined : document.getElementById(STYLESHEET_ID)?.nonce || undefined;
