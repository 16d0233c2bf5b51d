import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Redis } from 'ioredis';
import { trackingSettings } from '../admin/shipment-routes.ts';
import {
  RELEASE_REMINDERS_JOB,
  releaseRemindersHandler,
  scheduleReleaseReminders,
} from '../catalog/release-reminders.ts';
import { ConfigError, loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { createStorage } from '../files/storage.ts';
import { purgeExpiredSessions } from '../http/session.ts';
import { createWorker, ENDED_JOBS_KEPT_DAYS, purgeEndedJobs, scheduleRecurring } from '../jobs/queue.ts';
import { mailSendHandler } from '../mail/jobs.ts';
import { MAIL_SEND_JOB } from '../mail/outbox.ts';
import { createMailTransport } from '../mail/transport.ts';
import { ORDER_EXPIRY_JOB, orderExpiryHandler, scheduleOrderExpiry } from '../orders/jobs.ts';
import { SETTLEMENT_RECEIPT_JOB, settlementReceiptHandler } from '../orders/receipts.ts';
import { createBoxberrySimulator } from '../providers/simulators/boxberry.ts';
import { createExchangeRateSimulator } from '../providers/simulators/exchange-rates.ts';
import { createPaypalSimulator } from '../providers/simulators/paypal.ts';
import { createRobokassaSimulator } from '../providers/simulators/robokassa.ts';
import { createRussianPostSimulator } from '../providers/simulators/russian-post.ts';
import { createOtpravkaSimulator } from '../providers/simulators/russian-post-shipments.ts';
import { RATE_REFRESH_JOB, rateRefreshHandler } from '../rates/jobs.ts';
import { createRateKeeper } from '../rates/service.ts';
import { createServices } from '../requests/services.ts';
import { seedDemoData } from '../seed/seed.ts';
import { isSeedProcess, openServingDatabase } from '../seed/seed-process.ts';
import { scheduleTracking, TRACKING_JOB, trackingHandler, trackingSandbox } from '../shipping/tracking.ts';
import { buildApp } from './app.ts';
import { hasWebBuild } from './ssr.ts';

const SESSION_PURGE_JOB = 'sessions.purge';
const JOB_PURGE_JOB = 'jobs.purge';

/**
 * Test mode's payment pages. They call the shop back on the loopback address, as the real
 * providers call the public one; the browser returns to the public URLs.
 */
function paymentSimulators(config: ReturnType<typeof loadConfig>) {
  const internal = `http://127.0.0.1:${config.port}`;
  const robokassa = createRobokassaSimulator({
    ...config.payments.robokassa,
    resultUrl: `${internal}/api/robokassa/result`,
    successUrl: `${config.publicUrl}/order/result/robokassa`,
    failUrl: `${config.publicUrl}/order/cancel/robokassa`,
  });
  const paypal = createPaypalSimulator({
    ...config.payments.paypal,
    shopUrl: config.publicUrl,
    webhookUrl: `${internal}/api/paypal/webhook`,
  });
  return [robokassa.plugin, paypal.plugin];
}
const DAY = 24 * 3600_000;

/** Composition root: config → database → migrations → demo data → services → HTTP → jobs. */
async function main() {
  const config = loadConfig();
  const dev = process.env.NODE_ENV === 'development' && process.env.VITE_DEV === '1';
  const storage = createStorage(config.storage);
  if (config.storage.kind === 'local') mkdirSync(path.join(config.storage.root, 'img'), { recursive: true });

  const pgliteDirectory = config.databaseUrl ? undefined : path.join(config.dataDir, 'db');
  const open = () => openDatabase({ databaseUrl: config.databaseUrl, dataDir: pgliteDirectory });
  const log = (line: string) => console.log(line);
  if (!isSeedProcess()) for (const warning of config.warnings) console.warn(`Warning: ${warning}`);
  if (isSeedProcess()) {
    // The child of a first start (ADR 0070, 0085): creates and migrates a new PGlite database,
    // seeds the demo data when wanted, then exits; its memory leaves with it.
    const seeding = await open();
    await seeding.migrate();
    if (config.seedDemoData) {
      const { seeded } = await seedDemoData(seeding.db, { storage, admin: config.admin, log });
      if (seeded) log('Demo data seeded.');
    }
    await seeding.close();
    process.exit(0);
  }

  const connection = await openServingDatabase({
    open,
    pgliteDirectory,
    seedDemoData: config.seedDemoData,
  });

  let services: ReturnType<typeof createServices> | undefined;
  const rates = createRateKeeper(connection.db, {
    moexUrl: config.rates.moexUrl,
    cbrUrl: config.rates.cbrUrl,
    maxAgeDays: config.rates.maxAgeDays,
    onChange: () => void services?.catalog.apply({ everything: true }),
  });
  await rates.load();
  const redis = config.redisUrl ? new Redis(config.redisUrl, { maxRetriesPerRequest: 2 }) : undefined;
  redis?.on('error', (error) => console.error('redis:', error.message));
  services = createServices({
    db: connection.db,
    config,
    usdRate: rates.current,
    reloadUsdRate: rates.load,
    redis,
    log,
    storage,
  });

  if (!hasWebBuild() && !dev) {
    console.error('The web app is not built: run `npm run build` (npm start does it for you).');
    process.exit(1);
  }
  const app = await buildApp({
    services,
    web: true,
    dev,
    logger: { level: config.logLevel },
    redis,
    sandboxes: [
      createExchangeRateSimulator().plugin,
      createRussianPostSimulator().plugin,
      createBoxberrySimulator().plugin,
      createOtpravkaSimulator().plugin,
      trackingSandbox(connection.db, trackingSettings(services)),
      ...paymentSimulators(config),
    ],
  });

  const mailTransport = createMailTransport(config.mail, app.log);
  const worker = createWorker({
    db: connection.db,
    // Requests first: a drop's mails wait (2 s at most) while its orders are being answered.
    yieldWhileBusyMs: 2_000,
    handlers: {
      [RATE_REFRESH_JOB]: rateRefreshHandler(rates),
      [MAIL_SEND_JOB]: mailSendHandler({
        db: connection.db,
        transport: mailTransport,
        from: config.mail.from,
      }),
      [SESSION_PURGE_JOB]: () => purgeExpiredSessions(connection.db),
      [JOB_PURGE_JOB]: async (_payload, { now }) => {
        await purgeEndedJobs(connection.db, new Date(now.getTime() - ENDED_JOBS_KEPT_DAYS * DAY));
      },
      [ORDER_EXPIRY_JOB]: orderExpiryHandler({
        db: connection.db,
        shop: services.mailShop,
        onExpired: (orderIds) => services.catalog.apply({ ordersOf: orderIds }),
      }),
      [RELEASE_REMINDERS_JOB]: releaseRemindersHandler(connection.db, services.mailShop),
      [TRACKING_JOB]: trackingHandler(connection.db, trackingSettings(services)),
      [SETTLEMENT_RECEIPT_JOB]: settlementReceiptHandler({ db: connection.db, config }),
    },
    log: app.log,
  });
  await scheduleRecurring(connection.db, RATE_REFRESH_JOB, config.rates.refreshMinutes * 60_000);
  await scheduleRecurring(connection.db, SESSION_PURGE_JOB, DAY);
  await scheduleRecurring(connection.db, JOB_PURGE_JOB, DAY);
  await scheduleOrderExpiry(connection.db);
  await scheduleReleaseReminders(connection.db);
  await scheduleTracking(connection.db, config.tracking.everyMinutes * 60_000);
  await app.listen({ host: config.host, port: config.port });
  // From the moment the server listens, a signal means a graceful shutdown: no await in between.
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    // Readiness turns 503 at once; during the drain the load balancer takes the instance out while
    // it still answers, then close() refuses new connections and waits for the requests in flight.
    app.beginShutdown();
    app.log.info(`${signal}: draining for ${config.shutdownDrainMs} ms, then finishing in-flight requests`);
    await new Promise((resolve) => setTimeout(resolve, config.shutdownDrainMs));
    await app.close();
    await worker.stop();
    mailTransport.close();
    await services.close();
    redis?.disconnect();
    await connection.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  worker.start();
  // The instance that ran the refresh job knows the new rate at once; the others read it here.
  const rateReload = setInterval(() => {
    rates.load().catch((error: unknown) => app.log.warn({ err: error }, 'could not reload the USD rate'));
  }, 60_000);
  rateReload.unref();

  log(`Vitrina is serving ${config.publicUrl}${config.testMode ? ' (test mode)' : ''}`);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(error.message);
  } else {
    console.error(error);
  }
  process.exit(1);
});
