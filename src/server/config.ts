import path from 'node:path';
import { z } from 'zod';

/**
 * Environment → typed configuration. Every variable has an embedded default so that
 * `npm start` runs the shop with nothing else installed; production mode refuses to start
 * when a secret it needs is missing, and names it.
 */

const flag = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no', 'on', 'off'])
  .transform((value) => ['1', 'true', 'yes', 'on'].includes(value));

const environmentSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().min(1).default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  PUBLIC_URL: z.url().optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z.string().min(1).optional(),
  TEST_MODE: flag.default(true),
  SEED_DEMO_DATA: flag.default(true),
  SESSION_SECRET: z.string().min(32, 'SESSION_SECRET must be at least 32 characters').optional(),
  SHOP_EMAIL: z.email().default('shop@vitrina.example'),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/[^/?#]/i, 'SMTP_URL must look like smtp://user:pass@host:587 or smtps://…')
    .optional(),
  MAIL_FROM: z.string().min(1).default('Vitrina <shop@vitrina.example>'),
  ADMIN_EMAIL: z.email().optional(),
  ADMIN_PASSWORD: z.string().min(10, 'ADMIN_PASSWORD must be at least 10 characters').optional(),
  RATE_REFRESH_MINUTES: z.coerce.number().int().min(1).default(60),
  RATES_MOEX_URL: z.url().optional(),
  RATES_CBR_URL: z.url().optional(),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'REDIS_URL must look like redis://host:6379')
    .optional(),
  CORS_ORIGINS: z
    .string()
    .transform((value) =>
      value
        .split(',')
        .map((origin) => origin.trim())
        .filter(Boolean),
    )
    .pipe(
      z.array(z.url('CORS_ORIGINS must be a comma-separated list of origins such as https://shop.example')),
    )
    .default([]),
  RATE_LIMIT_MULTIPLIER: z.coerce.number().positive().default(1),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type Environment = z.input<typeof environmentSchema>;

export interface Config {
  mode: 'development' | 'production' | 'test';
  host: string;
  port: number;
  /** Origin the shop is reachable at, used for canonical URLs, sitemaps and provider callbacks. */
  publicUrl: string;
  dataDir: string;
  uploadsDir: string;
  /** PostgreSQL connection string; without it the embedded PGlite database in `dataDir/db` is used. */
  databaseUrl: string | undefined;
  /** Test mode: a banner on every page and local simulators instead of real providers. */
  testMode: boolean;
  seedDemoData: boolean;
  sessionSecret: string;
  shopEmail: string;
  admin: { email: string | undefined; password: string | undefined };
  /** Outgoing mail: SMTP when `smtpUrl` is set, else `.eml` files written to `outboxDir`. */
  mail: { smtpUrl: string | undefined; from: string; outboxDir: string };
  rates: { refreshMinutes: number; moexUrl: string; cbrUrl: string };
  /** Redis for rate limits and cross-instance cache invalidation; in-process when unset. */
  redisUrl: string | undefined;
  /** Other origins allowed to call the API with credentials (a storefront served elsewhere). */
  corsOrigins: string[];
  /** Scales every rate limit (tests and load runs raise it). */
  rateLimitMultiplier: number;
  logLevel: string;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Refusing to start, the configuration is incomplete:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

const MOEX_URL =
  'https://iss.moex.com/iss/engines/currency/markets/selt/boards/CETS/securities/USD000UTSTOM.json?iss.meta=off&iss.only=marketdata,securities';
const CBR_URL = 'https://www.cbr.ru/scripts/XML_daily.asp';
const DEVELOPMENT_SESSION_SECRET = 'development-only-session-secret-not-for-production';

export function loadConfig(environment: Record<string, string | undefined> = process.env): Config {
  const parsed = environmentSchema.safeParse(
    Object.fromEntries(
      Object.entries(environment).filter(([, value]) => value !== undefined && value !== ''),
    ),
  );
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
  }
  const env = parsed.data;
  const production = env.NODE_ENV === 'production';

  const problems: string[] = [];
  if (production && !env.SESSION_SECRET) problems.push('SESSION_SECRET is required in production');
  if (production && !env.PUBLIC_URL) problems.push('PUBLIC_URL is required in production');
  if (problems.length > 0) throw new ConfigError(problems);

  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, '');
  const dataDir = path.resolve(env.DATA_DIR);
  const simulatorBase = `http://127.0.0.1:${env.PORT}/sandbox/rates`;

  return {
    mode: env.NODE_ENV,
    host: env.HOST,
    port: env.PORT,
    publicUrl,
    dataDir,
    uploadsDir: path.join(dataDir, 'uploads'),
    databaseUrl: env.DATABASE_URL,
    testMode: env.TEST_MODE,
    seedDemoData: env.SEED_DEMO_DATA,
    sessionSecret: env.SESSION_SECRET ?? DEVELOPMENT_SESSION_SECRET,
    shopEmail: env.SHOP_EMAIL,
    admin: { email: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD },
    mail: { smtpUrl: env.SMTP_URL, from: env.MAIL_FROM, outboxDir: path.join(dataDir, 'outbox') },
    rates: {
      refreshMinutes: env.RATE_REFRESH_MINUTES,
      moexUrl: env.RATES_MOEX_URL ?? (env.TEST_MODE ? `${simulatorBase}/moex` : MOEX_URL),
      cbrUrl: env.RATES_CBR_URL ?? (env.TEST_MODE ? `${simulatorBase}/cbr` : CBR_URL),
    },
    redisUrl: env.REDIS_URL,
    corsOrigins: env.CORS_ORIGINS,
    rateLimitMultiplier: env.RATE_LIMIT_MULTIPLIER,
    logLevel: env.LOG_LEVEL,
  };
}
