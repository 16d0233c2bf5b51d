import type { FastifyInstance } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import { Invalid } from '../errors.ts';

/**
 * Two kinds of malformed input refused before any route sees them, so that they get a 4xx and
 * change nothing instead of failing deep down with a 500:
 * - a multipart body whose content type has no boundary, which busboy rejects with a plain error;
 * - text holding U+0000 in the path parameters, the query or a parsed body: PostgreSQL cannot store
 *   that character in text and fails the whole statement.
 */

/**
 * Dotted path of the first string holding U+0000 in a parsed value (JSON, form, query), or null.
 * Streams (a page form arrives as the raw request), buffers and values seen before are skipped.
 */
export function nulCharacterAt(value: unknown, path: readonly string[] = []): string | null {
  const found = nulPath(value, undefined);
  return found === null ? null : [...path, ...found].join('.') || 'input';
}

const walked = (value: unknown): value is Record<string, unknown> =>
  value !== null &&
  typeof value === 'object' &&
  !ArrayBuffer.isView(value) &&
  typeof (value as { pipe?: unknown }).pipe !== 'function';

/**
 * The keys down to the first string holding U+0000, or null. Every request's query and
 * parameters pass here, mostly flat objects of strings: nothing is allocated for them, and the
 * guard against cycles only once a nested object is met.
 */
function nulPath(value: unknown, seen: WeakSet<object> | undefined): string[] | null {
  if (typeof value === 'string') return value.includes('\u0000') ? [] : null;
  if (!walked(value)) return null;
  for (const key of Object.keys(value)) {
    const item = value[key];
    if (typeof item === 'string') {
      if (item.includes('\u0000')) return [key];
    } else if (walked(item)) {
      seen ??= new WeakSet<object>([value]);
      if (seen.has(item)) continue;
      seen.add(item);
      const found = nulPath(item, seen);
      if (found !== null) return [key, ...found];
    }
  }
  return null;
}

class MalformedMultipart extends Error {
  readonly statusCode = 400;
}

export const inputChecks = fastifyPlugin(
  async (app: FastifyInstance) => {
    // Callback hooks: on every request, without a promise each.
    app.addHook('onRequest', (request, _reply, done) => {
      const type = request.headers['content-type'] ?? '';
      if (/^\s*multipart\//i.test(type) && !/;\s*boundary=/i.test(type))
        done(new MalformedMultipart('A multipart body needs a boundary in its Content-Type'));
      else done();
    });
    // preValidation: after every body parser, multipart fields included.
    app.addHook('preValidation', (request, _reply, done) => {
      const field =
        nulCharacterAt(request.params, ['params']) ??
        nulCharacterAt(request.query, ['query']) ??
        nulCharacterAt(request.body, []);
      if (field !== null) done(new Invalid('request-invalid', { [field]: ['request-invalid'] }));
      else done();
    });
  },
  { name: 'vitrina-input-checks' },
);
