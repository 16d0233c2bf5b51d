import type { FastifyError, FastifyInstance } from 'fastify';
import { DomainError } from '../errors.ts';

/**
 * Maps every failure to the spec's `{ success: false, errors, message }` shape. Domain errors carry
 * their own status; malformed requests Fastify itself refuses (bad JSON, wrong media type, body too
 * large) keep their 4xx; anything else is logged and answered 500 without details.
 */
export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof DomainError) {
      return reply.status(error.status).send({
        success: false,
        errors: error.errors,
        message: error.message,
        ...(error.intlError ? { intlError: error.intlError } : {}),
      });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      if (status === 429 && error.message)
        reply.header('retry-after', reply.getHeader('retry-after') ?? '60');
      return reply
        .status(status)
        .send({ success: false, errors: { request: [error.message] }, message: error.message });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send({ success: false, errors: {}, message: 'Internal server error' });
  });

  const notFound = { success: false, errors: { path: ['No such API call'] }, message: 'Not found' };
  app.setNotFoundHandler((_request, reply) => reply.status(404).send(notFound));
  // The server-rendered app answers every other path; unknown API paths stay JSON.
  app.all('/api/*', async (_request, reply) => reply.status(404).send(notFound));
}
