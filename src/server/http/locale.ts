import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  isPreviewSearch,
  LOCALE_COOKIE,
  type Locale,
  localeCookie,
  localeOfSearch,
  negotiateLocale,
} from '../../contract/locale.ts';

const searchOf = (url: string) => {
  const queryStart = url.indexOf('?');
  return queryStart === -1 ? '' : url.slice(queryStart);
};

/** The request's language: the address's `?lang=`, else the `locale` cookie, else Accept-Language. */
export const requestLocale = (request: Pick<FastifyRequest, 'cookies' | 'headers' | 'url'>): Locale =>
  negotiateLocale(
    request.cookies[LOCALE_COOKIE],
    request.headers['accept-language'],
    localeOfSearch(searchOf(request.url)),
  );

/**
 * A page opened at an address that fixes its language (`?lang=en`, a search engine's link) stores
 * that language as the visitor's choice, so the links it follows from there, which carry no
 * language, stay in it (ADR 0034). Added as the reply goes out, after the page cache has kept or
 * sent the page, which is the same for everyone who opens that address. A preview (`&preview=1`,
 * the back office's "open the English page") stores nothing. A callback hook, as it waits for
 * nothing: a kept page's answer goes out in the turn its request came in (page-cache.ts).
 */
export function rememberAddressLocale(app: FastifyInstance) {
  app.addHook('onSend', (request, reply, payload, done) => {
    const search = searchOf(request.url);
    const locale = localeOfSearch(search);
    // A back-office preview (`&preview=1`) shows the language without making it the visitor's.
    const chosen = locale && request.cookies[LOCALE_COOKIE] !== locale && !isPreviewSearch(search);
    if (request.method === 'GET' && chosen) {
      reply.header('set-cookie', localeCookie(locale));
    }
    done(null, payload);
  });
}
