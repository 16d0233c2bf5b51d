import type { FastifyInstance, FastifyRequest } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import { Forbidden } from '../errors.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Every state-changing request from a browser must come from this site or an allowed origin
 * (Origin header, else Sec-Fetch-Site). Server-to-server calls send neither header and pass; the
 * payment providers' callbacks are exempt because their signatures authenticate them.
 */
export const originCheck = fastifyPlugin(
  async (app: FastifyInstance, options: { allowedOrigins: string[]; exemptPaths: string[] }) => {
    const allowed = new Set(options.allowedOrigins);
    const ownOrigin = (request: FastifyRequest) => `${request.protocol}://${request.host}`;
    app.addHook('onRequest', async (request) => {
      if (SAFE_METHODS.has(request.method)) return;
      if (options.exemptPaths.some((path) => request.url.startsWith(path))) return;
      const origin = request.headers.origin;
      if (origin !== undefined) {
        if (origin === ownOrigin(request) || allowed.has(origin)) return;
        throw new Forbidden('origin-refused', { origin: ['origin-refused'] });
      }
      if (request.headers['sec-fetch-site'] === 'cross-site') {
        throw new Forbidden('origin-refused', { origin: ['origin-refused'] });
      }
    });
  },
  { name: 'vitrina-origin-check' },
);
