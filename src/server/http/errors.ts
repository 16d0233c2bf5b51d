import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type ErrorKey, translateError, translateErrors } from '../../contract/error-messages.ts';
import { isLocale, negotiateLocale } from '../../contract/locale.ts';
import { isDatabaseUnavailable } from '../db/client.ts';
import { DomainError, TooManyRequests } from '../errors.ts';
import { NOT_FOUND_ANSWER } from './api.ts';
import { requestLocale } from './locale.ts';

/** Fastify's own refusals of a request, by code, as the error texts the caller reads. */
const FASTIFY_REFUSALS: Record<string, ErrorKey> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'body-too-large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'media-type-unsupported',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'request-invalid',
  FST_ERR_CTP_INVALID_JSON_BODY: 'request-invalid',
};

/** The language of error texts: the call's `locale` parameter, else the visitor's language. */
function errorLocale(request: FastifyRequest) {
  const fromQuery = (request.query as { locale?: unknown } | undefined)?.locale;
  const fromBody = (request.body as { locale?: unknown } | undefined)?.locale;
  return isLocale(fromQuery) ? fromQuery : isLocale(fromBody) ? fromBody : requestLocale(request);
}

/**
 * Maps every failure to the spec's `{ success: false, errors, message }` shape, with texts in the
 * visitor's language. Domain errors carry their own status; malformed requests Fastify itself
 * refuses (bad JSON, wrong media type, body too large) keep their 4xx; a database that is down or
 * restarting is a 503 with Retry-After; anything else is logged and answered 500 without details.
 */
/**
 * Requests Fastify refuses before routing them (a path that is not valid percent-encoding, a path
 * parameter over its length): answered in the same documented shape, not Fastify's own
 * `{ error, code, message }`. No hook has run yet, so the language comes from Accept-Language.
 */
export function refuseUnroutable(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const message = translateError(
    negotiateLocale(undefined, request.headers['accept-language']),
    'request-invalid',
  );
  request.log.info({ code: error.code, url: request.url }, 'request refused before routing');
  return reply
    .status(error.statusCode ?? 400)
    .send({ success: false, errors: { request: [message] }, message });
}

export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const locale = errorLocale(request);
    if (error instanceof DomainError) {
      if (error instanceof TooManyRequests) reply.header('retry-after', String(error.retryAfterSeconds));
      return reply.status(error.status).send({
        success: false,
        errors: translateErrors(locale, error.errors, error.details),
        message: translateError(locale, error.message, error.details),
        ...(error.intlError ? { intlError: error.intlError } : {}),
        ...error.details,
      });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const message = translateError(locale, FASTIFY_REFUSALS[error.code] ?? error.message);
      return reply.status(status).send({ success: false, errors: { request: [message] }, message });
    }
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'database unavailable');
      return reply
        .status(503)
        .header('retry-after', '5')
        .send({ success: false, errors: {}, message: translateError(locale, 'service-unavailable') });
    }
    request.log.error({ err: error }, 'request failed');
    const message = translateError(locale, 'internal-server-error');
    return reply.status(500).send({ success: false, errors: {}, message });
  });

  app.setNotFoundHandler((_request, reply) => reply.status(404).send(NOT_FOUND_ANSWER));
}
