import path from 'node:path';
import fastifyCompress from '@fastify/compress';
import fastifyCookie from '@fastify/cookie';
import fastifyCors from '@fastify/cors';
import fastifyFormbody from '@fastify/formbody';
import fastifyMultipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import type { Redis } from 'ioredis';
import type { StaffRole } from '../../contract/accounts.ts';
import { MAX_UPLOAD_BYTES } from '../../contract/admin.ts';
import { adminAuditRoutes } from '../admin/audit-routes.ts';
import { adminCatalogueRoutes } from '../admin/catalogue-routes.ts';
import { adminContentRoutes, bufferUploadedFile, registerCsvBody } from '../admin/content-routes.ts';
import { adminCustomerRoutes } from '../admin/customer-routes.ts';
import { adminDashboardRoutes } from '../admin/dashboard-routes.ts';
import { adminDropRoutes } from '../admin/drop-routes.ts';
import { adminOrderPaymentRoutes } from '../admin/order-payment-routes.ts';
import { adminOrderRoutes } from '../admin/order-routes.ts';
import { adminProductRoutes } from '../admin/product-routes.ts';
import { adminPromoCodeRoutes } from '../admin/promo-routes.ts';
import { adminSearchRoutes } from '../admin/search-routes.ts';
import { adminShipmentRoutes } from '../admin/shipment-routes.ts';
import { adminStaffRoutes } from '../admin/staff-routes.ts';
import { type ApiRoute, openApiDocument, registerApi } from '../http/api.ts';
import { bodyLimits } from '../http/body-limits.ts';
import { deviceCookies } from '../http/device-cookies.ts';
import { refuseUnroutable, registerErrorHandling } from '../http/errors.ts';
import { healthChecks } from '../http/health.ts';
import { inputChecks } from '../http/input-checks.ts';
import { rememberAddressLocale } from '../http/locale.ts';
import { loggerOptions, registerRequestIdHeader, requestIdOptions } from '../http/logging.ts';
import { prometheusMetrics } from '../http/prometheus.ts';
import { securityHeaders } from '../http/security-headers.ts';
import { sessionPlugin } from '../http/session.ts';
import type { Services } from '../requests/services.ts';
import { accountActions } from '../requests/session-actions.ts';
import { accountRoutes } from '../routes/accounts.ts';
import { basketRoutes } from '../routes/cart.ts';
import { catalogRoutes } from '../routes/catalog.ts';
import { paymentNotifications, paymentPageRoutes } from '../routes/checkout.ts';
import { deliveryRoutes } from '../routes/delivery.ts';
import { feedbackRoutes } from '../routes/feedback.ts';
import { imagesFromStorage, variantsMadeOnDemand } from '../routes/images.ts';
import { orderRoutes } from '../routes/orders.ts';
import { staticPageRoutes } from '../routes/pages.ts';
import { partnerRoutes } from '../routes/partners.ts';
import { rateRoutes } from '../routes/rates.ts';
import { reviewRoutes } from '../routes/reviews.ts';
import { wishlistRoutes } from '../routes/wishlist.ts';
import { originCheck } from '../security/origin.ts';
import { searchCounting } from './search-counting.ts';
import { catalogPageCache, serverRenderedApp } from './ssr.ts';

export interface AppOptions {
  services: Services;
  /** Serve the React Router app (needs `npm run build`); API tests leave it off. */
  web?: boolean;
  /** Serve the web app through Vite's dev server instead of the build. */
  dev?: boolean;
  logger?: FastifyServerOptions['logger'];
  /** The Redis client the services use, if any: `/health/ready` checks it. */
  redis?: Redis | undefined;
  /** Extra plugins mounted in test mode, such as the providers' local simulators. */
  sandboxes?: Array<(app: import('fastify').FastifyInstance) => Promise<void>>;
}

const ONE_YEAR = 365 * 24 * 3600;
/** Payment providers' server-to-server callbacks: authenticated by their signatures, not by origin. */
const PROVIDER_CALLBACKS = ['/api/robokassa/result', '/api/paypal/webhook'];

export async function buildApp(options: AppOptions) {
  const { services } = options;
  const app = Fastify({
    logger: loggerOptions(options.logger),
    ...requestIdOptions,
    trustProxy: options.services.config.trustProxy,
    bodyLimit: 1024 * 1024,
    frameworkErrors: refuseUnroutable,
  });

  registerErrorHandling(app);
  const { config } = services;
  // Operations (docs/decisions/0012): request ids, probes and metrics, outside the /api contract.
  registerRequestIdHeader(app);
  await app.register(healthChecks, { db: services.db, redis: options.redis });
  await app.register(prometheusMetrics, { db: services.db, token: config.metricsToken });
  await app.register(fastifyCookie);
  // A kept page goes out with the security headers it was rendered with (page-cache.ts).
  if (options.web) catalogPageCache(app, services);
  await securityHeaders(app, config);
  rememberAddressLocale(app);
  // Before the session and every parser: an oversized or unmeasured body is refused unread.
  await app.register(bodyLimits);
  searchCounting(app, services);
  await app.register(originCheck, { allowedOrigins: config.corsOrigins, exemptPaths: PROVIDER_CALLBACKS });
  // The session and the device cookie, in the scopes of what reads a visitor (the pages, the API's
  // visitor calls) only: a catalogue read, an image or a probe makes no session (ADR 0091).
  const withVisitors = async (scope: FastifyInstance) => {
    const secure = config.publicUrl.startsWith('https://');
    await scope.register(sessionPlugin, { db: services.db, secret: config.sessionSecret, secure });
    await scope.register(deviceCookies, { secure });
  };
  await app.register(fastifyFormbody);
  // Multipart forms (feedback) arrive as plain fields; one file part of at most 10 MB is taken
  // only by the file manager's upload, where it arrives as { filename, mimetype, data }.
  await app.register(fastifyMultipart, {
    attachFieldsToBody: 'keyValues',
    limits: { files: 1, fileSize: MAX_UPLOAD_BYTES, fieldSize: 64 * 1024 },
    onFile: bufferUploadedFile,
  });
  // After the body parsers: it reads the parsed bodies, multipart fields included.
  await app.register(inputChecks);
  await app.register(fastifyCompress, { global: true, threshold: 1024, encodings: ['br', 'gzip'] });

  const visitorFree: ApiRoute[] = [
    ...catalogRoutes(services),
    ...partnerRoutes(services),
    ...feedbackRoutes(services),
  ];
  const visitors: ApiRoute[] = [
    ...accountRoutes(services),
    ...basketRoutes(services),
    ...wishlistRoutes(services),
    ...reviewRoutes(services),
    ...deliveryRoutes(services),
    ...orderRoutes(services),
    ...paymentPageRoutes(services),
    ...adminCatalogueRoutes(services),
    ...adminProductRoutes(services),
    ...adminOrderRoutes(services),
    ...adminOrderPaymentRoutes(services),
    ...adminDashboardRoutes(services),
    ...adminAuditRoutes(services),
    ...adminSearchRoutes(services),
    ...adminContentRoutes(services),
    ...adminCustomerRoutes(services),
    ...adminStaffRoutes(services),
    ...adminDropRoutes(services),
    ...rateRoutes(services),
    ...adminPromoCodeRoutes(services),
    ...adminShipmentRoutes(services),
    ...staticPageRoutes(services),
  ];
  const guards = {
    staff: (request: FastifyRequest, role: StaffRole) => accountActions(services, request).requireStaff(role),
  };
  // The API lives in its own scope: CORS (with its preflight route) applies to it alone and cannot
  // collide with the server-rendered app's catch-all route.
  await app.register(
    async (api) => {
      await api.register(fastifyCors, {
        origin: config.corsOrigins,
        credentials: true,
        methods: ['GET', 'POST', 'PATCH', 'DELETE'],
      });
      registerCsvBody(api);
      await registerApi(api, { visitorFree, visitors }, guards, withVisitors);
    },
    { prefix: '/api' },
  );
  await app.register(paymentNotifications, { services });

  const document = openApiDocument([...visitorFree, ...visitors], services.config.publicUrl);
  await app.register(fastifySwagger, { mode: 'static', specification: { document: document as never } });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });

  // Uploaded and generated images: content-addressed names, so they can be cached forever.
  const { storage } = services.config;
  await app.register(
    async (images) => {
      if (storage.kind === 'local') {
        await images.register(fastifyStatic, {
          root: path.join(storage.root, 'img'),
          prefix: '/',
          decorateReply: false,
          immutable: true,
          maxAge: ONE_YEAR * 1000,
        });
      } else {
        await images.register(imagesFromStorage(services.storage));
      }
      variantsMadeOnDemand(images, services.storage);
    },
    { prefix: '/img' },
  );

  if (services.config.testMode) {
    for (const sandbox of options.sandboxes ?? []) await app.register(sandbox);
  }

  if (options.web) {
    await app.register(async (pages) => {
      await withVisitors(pages);
      await pages.register(serverRenderedApp, { services, dev: options.dev ?? false });
    });
  }
  return app;
}
