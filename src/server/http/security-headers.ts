import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import type { Config } from '../config.ts';
import { paypalApproveOrigins } from '../providers/paypal.ts';

/**
 * Boxberry's pickup-point widget (web/lib/boxberry-widget.ts): its script and its map come from this
 * host. The shipping step is reached by client navigations, which keep the first page's policy, so
 * every page allows it.
 */
export const BOXBERRY_WIDGET_ORIGIN = 'https://points.boxberry.ru';

/** The nonces a page's inline scripts and styles carry, one pair per answer. */
export interface CspNonce {
  script: string;
  style: string;
}

declare module 'fastify' {
  interface FastifyReply {
    /** This answer's nonces; null for an answer that names none (the API's, ADR 0084). */
    cspNonce: CspNonce | null;
  }
  interface FastifyContextConfig {
    /**
     * `false`: the route's answers carry the policy without nonces (ADR 0084). A JSON answer has
     * no inline script or style a nonce could allow.
     */
    cspNonces?: false;
  }
}

/**
 * The security headers of every answer, pages, API, images and assets alike, by helmet (ADR 0026):
 * a Content-Security-Policy whose inline scripts and styles need this response's nonces
 * (`reply.cspNonce`, handed to the pages through the load context), no framing by anyone, nosniff,
 * `strict-origin-when-cross-origin` referrers, and HSTS when the shop is served over https.
 *
 * Helmet's middleware is built once, as helmet means it to be, and run on every answer; the
 * nonces reach its policy through helmet's function directives (ADR 0096). A route whose config
 * says `cspNonces: false` gets the same headers with a policy naming no nonce, a string helmet
 * builds once.
 *
 * Registered on the root after the page cache: a kept page is sent before this hook runs, with the
 * headers it was rendered with, its policy and nonces included (see page-cache.ts).
 */
export async function securityHeaders(app: FastifyInstance, config: Config) {
  const https = config.publicUrl.startsWith('https://');
  const { robokassa, paypal } = config.payments;
  // The payment step's form is sent to the provider's payment page (the sandbox's in test mode), or
  // to the shop, which sends the shopper on to PayPal's approve page: a redirect form-action covers too.
  const paymentPages = [new URL(robokassa.paymentUrl).origin, ...paypalApproveOrigins(paypal.apiUrl)];
  const directives = {
    'default-src': ["'self'"],
    'base-uri': ["'self'"],
    'object-src': ["'none'"],
    'frame-ancestors': ["'none'"],
    'form-action': ["'self'", ...paymentPages],
    'script-src': ["'self'", BOXBERRY_WIDGET_ORIGIN],
    'script-src-attr': ["'none'"],
    'style-src': ["'self'"],
    // Style attributes cannot run code; the review stars' width is one.
    'style-src-attr': ["'unsafe-inline'"],
    'img-src': ["'self'", 'data:', 'blob:'],
    'frame-src': [BOXBERRY_WIDGET_ORIGIN],
    'connect-src': ["'self'"],
    'worker-src': ["'self'"],
    ...(https ? { 'upgrade-insecure-requests': [] } : {}),
  };
  const options = {
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    strictTransportSecurity: https ? { maxAge: 365 * 24 * 3600, includeSubDomains: false } : false,
  } satisfies HelmetOptions;
  // The answer's nonces, for the policy's function directives, which helmet calls with the response.
  const nonces = new WeakMap<ServerResponse, CspNonce>();
  const nonceOf = (kind: keyof CspNonce) => (_request: unknown, response: ServerResponse) =>
    `'nonce-${nonces.get(response)?.[kind]}'`;
  const withNonces = helmet({
    ...options,
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        ...directives,
        'script-src': [...directives['script-src'], nonceOf('script')],
        'style-src': [...directives['style-src'], nonceOf('style')],
      },
    },
  });
  const withoutNonces = helmet({ ...options, contentSecurityPolicy: { useDefaults: false, directives } });

  app.decorateReply('cspNonce', null);
  app.addHook('onRequest', (request, reply, done) => {
    // Helmet calls it with nothing, or with the Error a function directive threw.
    const next = done as (error?: unknown) => void;
    if (request.routeOptions.config.cspNonces === false) {
      withoutNonces(request.raw, reply.raw, next);
      return;
    }
    const nonce = { script: randomBytes(16).toString('hex'), style: randomBytes(16).toString('hex') };
    reply.cspNonce = nonce;
    nonces.set(reply.raw, nonce);
    withNonces(request.raw, reply.raw, next);
  });
}
