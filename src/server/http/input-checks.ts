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
export function nulCharacterAt(
  value: unknown,
  path: string[] = [],
  seen = new WeakSet<object>(),
): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path.join('.') || 'input' : null;
  if (value === null || typeof value !== 'object' || ArrayBuffer.isView(value) || seen.has(value))
    return null;
  if (typeof (value as { pipe?: unknown }).pipe === 'function') return null;
  seen.add(value);
  for (const [key, item] of Object.entries(value)) {
    const found = nulCharacterAt(item, [...path, key], seen);
    if (found !== null) return found;
  }
  return null;
}

class MalformedMultipart extends Error {
  readonly statusCode = 400;
}

export const inputChecks = fastifyPlugin(
  async (app: FastifyInstance) => {
    app.addHook('onRequest', async (request) => {
      const type = request.headers['content-type'] ?? '';
      if (/^\s*multipart\//i.test(type) && !/;\s*boundary=/i.test(type))
        throw new MalformedMultipart('A multipart body needs a boundary in its Content-Type');
    });
    // preValidation: after every body parser, multipart fields included.
    app.addHook('preValidation', async (request) => {
      const field =
        nulCharacterAt(request.params, ['params']) ??
        nulCharacterAt(request.query, ['query']) ??
        nulCharacterAt(request.body, []);
      if (field !== null) throw new Invalid('request-invalid', { [field]: ['request-invalid'] });
    });
  },
  { name: 'vitrina-input-checks' },
);
