import { createHash, timingSafeEqual } from 'node:crypto';
import { BlockList, isIPv4 } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import type { Database } from '../db/client.ts';
import { Forbidden, Unauthorized } from '../errors.ts';
import { refreshQueuedJobs } from '../jobs/metrics.ts';
import { gauge, histogram, metricsRegistry } from '../metrics.ts';
import { READINESS_TIMEOUT_MS, withinTimeout } from './health.ts';

const requestDuration = histogram({
  name: 'http_request_duration_seconds',
  help: 'Time to answer HTTP requests, by method, route pattern and status code (its _count is the request counter)',
  labelNames: ['method', 'route', 'status_code'],
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
});

const requestsInFlight = gauge({
  name: 'http_requests_in_flight',
  help: 'HTTP requests received and not yet answered',
});

/**
 * The route label: the route's pattern (`/api/products/:link`), never the URL, so the number of
 * series stays bounded. The React Router catch-all is one label, `page`; the web build's hashed
 * assets (one static route per file) are one label too; requests no route matched are `unmatched`.
 */
export function routeLabel(request: FastifyRequest): string {
  const pattern = request.routeOptions.url;
  if (pattern === undefined) return 'unmatched';
  if (pattern === '*' || pattern === '/*') return 'page';
  if (pattern.startsWith('/assets/')) return '/assets/*';
  return pattern;
}

/** Loopback, private (RFC 1918, RFC 4193) and link-local networks: where a scraper inside the deployment sits. */
const PRIVATE_NETWORKS = new BlockList();
PRIVATE_NETWORKS.addSubnet('127.0.0.0', 8, 'ipv4');
PRIVATE_NETWORKS.addSubnet('10.0.0.0', 8, 'ipv4');
PRIVATE_NETWORKS.addSubnet('172.16.0.0', 12, 'ipv4');
PRIVATE_NETWORKS.addSubnet('192.168.0.0', 16, 'ipv4');
PRIVATE_NETWORKS.addSubnet('169.254.0.0', 16, 'ipv4');
PRIVATE_NETWORKS.addAddress('::1', 'ipv6');
PRIVATE_NETWORKS.addSubnet('fc00::', 7, 'ipv6');
PRIVATE_NETWORKS.addSubnet('fe80::', 10, 'ipv6');

export const isPrivateAddress = (address: string | undefined) =>
  address !== undefined && PRIVATE_NETWORKS.check(address, isIPv4(address) ? 'ipv4' : 'ipv6');

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * Who may read `/metrics`. With a token configured: whoever sends `Authorization: Bearer <token>`.
 * Without one: only a client on a private network, judged by the connection's address and every
 * address of its `X-Forwarded-For` chain, so that a visitor coming through the proxy (whose real
 * address the proxy appends) or one forging a private address in the header is refused.
 */
function checkMetricsAccess(request: FastifyRequest, token: string | undefined) {
  if (token !== undefined) {
    const given = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
    if (given === undefined || !timingSafeEqual(digest(given), digest(token))) {
      throw new Unauthorized('The metrics need the bearer token set in METRICS_TOKEN');
    }
    return;
  }
  const chain = request.ips ?? [request.socket.remoteAddress];
  if (!chain.every(isPrivateAddress)) {
    throw new Forbidden('The metrics are served to private networks only, or set METRICS_TOKEN');
  }
}

/**
 * Prometheus metrics: the HTTP request histogram and in-flight gauge for every route, and
 * `GET /metrics` in the Prometheus text format, with the job queue read at each scrape.
 */
export const prometheusMetrics = fastifyPlugin(
  async (app: FastifyInstance, options: { db: Database; token: string | undefined }) => {
    // Callback hooks: on every request, without a promise each.
    app.addHook('onRequest', (_request, reply, done) => {
      requestsInFlight.inc();
      // The response's `close` comes for every request, answered or abandoned by its client.
      reply.raw.once('close', () => requestsInFlight.dec());
      done();
    });
    app.addHook('onResponse', (request, reply, done) => {
      requestDuration.observe(
        { method: request.method, route: routeLabel(request), status_code: String(reply.statusCode) },
        reply.elapsedTime / 1000,
      );
      done();
    });

    app.get('/metrics', { logLevel: 'warn' }, async (request, reply) => {
      checkMetricsAccess(request, options.token);
      try {
        await withinTimeout(refreshQueuedJobs(options.db), READINESS_TIMEOUT_MS, 'job queue');
      } catch (error) {
        // The job series are left out; the other metrics matter most when the database is in trouble.
        request.log.warn({ err: error }, 'job queue metrics not read');
      }
      return reply
        .header('content-type', metricsRegistry.contentType)
        .header('cache-control', 'no-store')
        .send(await metricsRegistry.metrics());
    });
  },
  { name: 'vitrina-prometheus' },
);
