import fastifyHelmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import { paypalApproveOrigins } from '../providers/paypal.ts';

/**
 * Boxberry's pickup-point widget (web/lib/boxberry-widget.ts): its script and its map come from this
 * host. The shipping step is reached by client navigations, which keep the first page's policy, so
 * every page allows it.
 */
export const BOXBERRY_WIDGET_ORIGIN = 'https://points.boxberry.ru';

/**
 * The security headers of every answer, pages, API, images and assets alike, by helmet (ADR 0026):
 * a Content-Security-Policy whose inline scripts and styles need this response's nonces
 * (`reply.cspNonce`, handed to the pages through the load context), no framing by anyone, nosniff,
 * `strict-origin-when-cross-origin` referrers, and HSTS when the shop is served over https.
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
  await app.register(fastifyHelmet, {
    enableCSPNonces: true,
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        'default-src': ["'self'"],
        'base-uri': ["'self'"],
        'object-src': ["'none'"],
        'frame-ancestors': ["'none'"],
        'form-action': ["'self'", ...paymentPages],
        // helmet adds this response's nonces to both.
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
      },
    },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    strictTransportSecurity: https ? { maxAge: 365 * 24 * 3600, includeSubDomains: false } : false,
  });
}
