import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import type { ErrorKey } from '../../contract/error-messages.ts';

/**
 * Bodies the shop will not read, refused before anything reads them:
 * - a body larger than its route's `bodyLimit` (1 MB; the file manager's upload and the products
 *   CSV declare their own), told by Content-Length, answered 413 at once; Node discards the rest as
 *   it arrives (as after Fastify's own 413), so none of it is kept. This holds for every reader:
 *   Fastify's parsers, the multipart plugin and the server-rendered app, which reads the raw
 *   request itself;
 * - a body without Content-Length (chunked), 411: its size is only known once read, and browsers
 *   and the payment providers always send the length;
 * - JSON nested deeper than MAX_JSON_DEPTH, 400 before it is parsed: every recursive walk of the
 *   value (prototype-poisoning check, input checks, zod) would otherwise overflow the stack.
 *
 * And no answer leaves a body half read on a kept-alive connection (ADR 0055): the next request on
 * it would wait behind the unread bytes, which nobody reads once the answer is out (a page that
 * answers a POST without an action, a refusal above). Such an answer either discards the rest of
 * a body within its route's limit as it arrives, keeping the connection, or, for a body over its
 * limit or of unknown length, says `Connection: close` and ends the connection after the answer.
 */

export const MAX_JSON_DEPTH = 64;

/** A refusal whose message is an error key (contract/error-messages.ts), told in the caller's language. */
class RefusedBody extends Error {
  constructor(
    readonly statusCode: 400 | 411 | 413,
    message: ErrorKey,
  ) {
    super(message);
  }
}

/** How deep arrays and objects nest in JSON text, counted up to `limit + 1` without parsing it. */
export function jsonDepthExceeds(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const character = text.charCodeAt(index);
    if (inString) {
      if (character === 0x5c)
        index++; // a backslash escapes the next character
      else if (character === 0x22) inString = false;
    } else if (character === 0x22) {
      inString = true;
    } else if (character === 0x5b || character === 0x7b) {
      if (++depth > limit) return true;
    } else if (character === 0x5d || character === 0x7d) {
      depth--;
    }
  }
  return false;
}

/**
 * How long, and how many more bytes, a connection ended after an unread body still takes in: its
 * end (FIN) follows the answer, and the bytes still coming are read and dropped, so the client
 * reads the answer before the connection closes. Closed at once with bytes unread, it would be
 * reset, and a reset can discard the answer on the client's side before it is read.
 */
const LINGER = { ms: 2_000, bytes: 16 * 1024 * 1024 };

/** The rest of a body nobody will read, read and dropped as it arrives; answers a byte counter. */
function discardRest(raw: IncomingMessage, onBytes?: (bytes: number) => void) {
  // Whoever was reading it (a page's form reader) has answered without it.
  raw.removeAllListeners('data');
  if (onBytes) raw.on('data', (chunk: Buffer) => onBytes(chunk.length));
  raw.resume();
}

/** Ends the connection once the answer is out, after at most LINGER more of the body. */
function closeLingering(raw: IncomingMessage) {
  const { socket } = raw;
  let taken = 0;
  discardRest(raw, (bytes) => {
    taken += bytes;
    if (taken > LINGER.bytes) socket.destroy();
  });
  // Node calls it once an answer marked `Connection: close` is written; by default it destroys
  // the socket as soon as its end is sent.
  socket.destroySoon = () => {
    socket.end();
    setTimeout(() => socket.destroy(), LINGER.ms).unref();
  };
}

export const bodyLimits = fastifyPlugin(
  async (app: FastifyInstance) => {
    app.addHook('onRequest', async (request) => {
      const { headers } = request;
      if (headers['content-length'] === undefined) {
        if (headers['transfer-encoding'] !== undefined) {
          throw new RefusedBody(411, 'body-length-required');
        }
        return;
      }
      const limit = request.routeOptions.bodyLimit;
      if (Number(headers['content-length']) > limit) {
        throw new RefusedBody(413, 'body-too-large');
      }
    });

    // A callback hook, as it waits for nothing: a kept page goes out in its request's turn (page-cache.ts).
    app.addHook('onSend', (request, reply, payload, done) => {
      const { raw } = request;
      const declared = Number(raw.headers['content-length']);
      const hasBody = declared > 0 || raw.headers['transfer-encoding'] !== undefined;
      if (hasBody && !raw.complete && !reply.raw.headersSent) {
        if (declared <= request.routeOptions.bodyLimit) {
          discardRest(raw);
        } else {
          reply.header('connection', 'close');
          closeLingering(raw);
        }
      }
      done(null, payload);
    });

    const parseJson = app.getDefaultJsonParser('error', 'error');
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
      const text = String(body);
      if (jsonDepthExceeds(text, MAX_JSON_DEPTH)) {
        done(new RefusedBody(400, 'body-too-deep'), undefined);
        return;
      }
      parseJson(request, text, done);
    });
  },
  { name: 'vitrina-body-limits' },
);
