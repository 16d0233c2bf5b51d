import { createContext, useContext } from 'react';

/**
 * The nonces of this response's Content-Security-Policy (ADR 0026): the server's entry provides
 * them, and every inline script or style the page renders carries one. In the browser they are
 * empty: a browser hides a parsed nonce from the page's markup, so hydration expects none, and
 * what React adds later (client navigations) needs none, its scripts being modules of our origin.
 */
export interface CspNonce {
  script: string;
  style: string;
}

export const CspNonceContext = createContext<CspNonce>({ script: '', style: '' });

export const useCspNonce = () => useContext(CspNonceContext);

/**
 * In the browser, the style nonce the page came with (the root gives it to its stylesheet links): a
 * style element added later (the description editor's) needs it to pass the page's policy.
 */
export const pageStyleNonce = () =>
  typeof document === 'undefined'
    ? undefined
    : document.querySelector<HTMLLinkElement>('link[rel="stylesheet"][nonce]')?.nonce || undefined;
