import type { FastifyReply, FastifyRequest } from 'fastify';
import { cacheKeys } from '../caches/changes.ts';
import { SESSION_COOKIE } from './session.ts';

/**
 * What tells a CDN (or any shared cache) what it may keep, and under which keys it is purged
 * (ADR 0042, docs/production.md). The keys are the catalogue's own (catalog/changes.ts), plus
 * `shop` on everything, so a change of everything purges one key.
 */

/**
 * Without a purge hook a CDN learns of nothing, so it may keep a page only as long as stock may be
 * shown stale (STOCK_GRACE_MS); with one, it keeps pages until a purge names one of their keys.
 */
export const sharedMaxAge = (purging: boolean) => (purging ? 86_400 : 1);

/** An anonymous catalogue page or answer: the same for everyone with its address and language. */
export function sharedCacheHeaders(reply: FastifyReply, keys: readonly string[], purging: boolean) {
  const { surrogateKey, cacheTag } = keyHeaders(keys);
  reply.header('cache-control', purging ? PURGED_CACHE_CONTROL : SHORT_CACHE_CONTROL);
  reply.header('surrogate-key', surrogateKey);
  reply.header('cache-tag', cacheTag);
}

const SHORT_CACHE_CONTROL = `public, max-age=0, s-maxage=${sharedMaxAge(false)}`;
const PURGED_CACHE_CONTROL = `public, max-age=0, s-maxage=${sharedMaxAge(true)}`;

/** The key headers of a kept answer's keys, written once while the answer is kept. */
const keyHeadersOf = new WeakMap<readonly string[], { surrogateKey: string; cacheTag: string }>();
function keyHeaders(keys: readonly string[]) {
  let headers = keyHeadersOf.get(keys);
  if (!headers) {
    const all = [...new Set([cacheKeys.shop, ...keys])];
    headers = { surrogateKey: all.join(' '), cacheTag: all.join(',') };
    keyHeadersOf.set(keys, headers);
  }
  return headers;
}

/**
 * Anything personal (a session cookie came with it, or it sets one), or told apart by what the
 * address does not say (a language negotiated from the request's headers): no shared cache keeps it.
 */
export const PRIVATE_CACHE_CONTROL = 'private, no-cache';

/**
 * Headers of a catalogue API answer: shared-cacheable with its keys when its language is in the
 * address and no session came with it; private otherwise.
 */
export function catalogAnswerHeaders(
  request: FastifyRequest,
  reply: FastifyReply,
  answer: { keys: readonly string[] },
  options: { localeInAddress: boolean; purging: boolean },
) {
  if (options.localeInAddress && request.cookies[SESSION_COOKIE] === undefined)
    sharedCacheHeaders(reply, answer.keys, options.purging);
  else reply.header('cache-control', PRIVATE_CACHE_CONTROL);
}
