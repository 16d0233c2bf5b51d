import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { type FastifyInstance, type FastifyRequest, type FastifyServerOptions, LogController } from 'fastify';

/**
 * Request ids and what the logs may hold. Every log line of a request carries `requestId`; the id
 * comes from the proxy's `x-request-id` (nginx's `$request_id`, a load balancer's trace id) when
 * it looks sane, else it is a new UUID, and the answer always returns it in `x-request-id`.
 */
export const REQUEST_ID_HEADER = 'x-request-id';
/** What an incoming id may look like: short, and nothing that could forge or break a log line. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestIdOf(request: IncomingMessage): string {
  const incoming = request.headers[REQUEST_ID_HEADER];
  return typeof incoming === 'string' && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/** Query parameters whose values are secrets or personal data: one-time tokens of mailed links, e-mails. */
const HIDDEN_QUERY_PARAMETERS = ['token', 'email', 'password'];

/** The URL as logged: sensitive query values (`/reset?token=…&email=…`) replaced by `[hidden]`. */
export function loggableUrl(url: string): string {
  const query = url.indexOf('?');
  if (query === -1) return url;
  const parameters = new URLSearchParams(url.slice(query + 1));
  let hidden = false;
  for (const name of HIDDEN_QUERY_PARAMETERS) {
    if (parameters.has(name)) {
      parameters.set(name, '[hidden]');
      hidden = true;
    }
  }
  return hidden ? `${url.slice(0, query)}?${parameters}` : url;
}

type LoggerOptions = Exclude<FastifyServerOptions['logger'], boolean | undefined>;

/**
 * pino's JSON lines with Fastify's request logging, minus what must not reach log storage: a
 * request is logged as method, URL (secrets hidden), host and client address, never its headers
 * (cookies, authorization); headers logged by hand elsewhere are redacted all the same.
 */
export function loggerOptions(logger: FastifyServerOptions['logger']): FastifyServerOptions['logger'] {
  if (!logger) return false;
  const given: LoggerOptions = logger === true ? {} : logger;
  return {
    ...given,
    serializers: {
      req: (request: FastifyRequest) => ({
        method: request.method,
        url: loggableUrl(request.url),
        host: request.host,
        remoteAddress: request.ip,
      }),
      ...given.serializers,
    },
    redact: {
      paths: [
        'headers.cookie',
        'headers.authorization',
        'headers["set-cookie"]',
        '*.headers.cookie',
        '*.headers.authorization',
        '*.headers["set-cookie"]',
      ],
      censor: '[redacted]',
    },
  };
}

/** Fastify's request-id options: ids from `requestIdOf`, logged under `requestId`. */
export const requestIdOptions = {
  genReqId: requestIdOf,
  // The header is read (and checked) by requestIdOf: Fastify would take any value as it is.
  requestIdHeader: false,
  logController: new LogController({ requestIdLogLabel: 'requestId' }),
} satisfies FastifyServerOptions;

/** Every answer names its request id, so a user's report or a proxy log leads to the server's lines. */
export function registerRequestIdHeader(app: FastifyInstance) {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });
}
