import type { FastifyBaseLogger } from 'fastify';
import type { Locale } from '../contract/locale.ts';
import type { Services } from '../server/requests/services.ts';
import type { CheckoutActions } from '../server/requests/checkout-actions.ts';
import type { AccountActions } from '../server/requests/session-actions.ts';
import type { ShopperActions } from '../server/requests/shopper-actions.ts';
import type { CspNonce } from './lib/csp-nonce.ts';

/** What every loader and action receives from the server (see src/server/app/ssr.ts). */
declare module 'react-router' {
  interface AppLoadContext {
    services: Services;
    /** The signed-in user and the account actions, bound to this request's session. */
    account: AccountActions;
    /** Basket, wishlist and reviews of this request's visitor. */
    shopper: ShopperActions;
    /** The checkout's draft and order error, placing orders, payment checks and the order history. */
    checkout: CheckoutActions;
    /**
     * This document is shared by every visitor with a session who asks for it (a catalogue page,
     * ADR 0048): its loaders leave out the visitor's own data, which the page loads once hydrated.
     */
    ownDataLater: boolean;
    ip: string;
    locale: Locale;
    testMode: boolean;
    publicUrl: string;
    /** The request's logger: its lines carry the request id. */
    log: FastifyBaseLogger;
    /** The nonces this response's Content-Security-Policy allows inline scripts and styles by. */
    cspNonce: CspNonce;
  }
}
