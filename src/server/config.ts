import path from 'node:path';
import { z } from 'zod';
import { LOCALES, type Locale } from '../contract/locale.ts';
import type { StorageSettings } from './files/storage.ts';
import { SANDBOX_BOXBERRY_TOKEN } from './providers/boxberry.ts';
import type { PaypalSettings } from './providers/paypal.ts';
import { ROBOKASSA_HASH_ALGORITHMS, type RobokassaSettings } from './providers/robokassa.ts';

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
  /** On by default; production must set it (see loadConfig). */
  TEST_MODE: flag.optional(),
  SEED_DEMO_DATA: flag.default(true),
  SESSION_SECRET: z.string().min(32, 'SESSION_SECRET must be at least 32 characters').optional(),
  SHOP_EMAIL: z.email().default('shop@vitrina.example'),
  /** The language of mails to the shop's own address (a new paid order). */
  SHOP_LOCALE: z.enum(LOCALES).default('ru'),
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
  RUSSIAN_POST_URL: z.url().optional(),
  RUSSIAN_POST_FROM_ZIP: z
    .string()
    .regex(
      /^\d{6}$/,
      'RUSSIAN_POST_FROM_ZIP must be the six-digit postcode of the post office parcels leave from',
    )
    .default('101000'),
  BOXBERRY_URL: z.url().optional(),
  BOXBERRY_TOKEN: z.string().min(1).optional(),
  BOXBERRY_TARGETSTART: z.string().min(1).default('010'),
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
  ADMIN_TWO_FACTOR: z.enum(['required', 'optional']).default('required'),
  PAGE_CACHE_MB: z.coerce.number().min(0).default(64),
  CDN_PURGE_URL: z.url().optional(),
  ORDER_EXPIRY_MINUTES: z.coerce.number().int().min(1).default(60),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: z
    .string()
    .regex(
      /^(true|false|[\w.:/]+(\s*,\s*[\w.:/]+)*)$/,
      'TRUST_PROXY must be true, false or a comma-separated list of proxy addresses/CIDRs (loopback, uniquelocal, 10.0.0.0/8 …)',
    )
    .default('loopback,linklocal,uniquelocal'),
  METRICS_TOKEN: z
    .string()
    .regex(/^\S{16,}$/, 'METRICS_TOKEN must be at least 16 characters without spaces')
    .optional(),
  SHUTDOWN_DRAIN_SECONDS: z.coerce.number().min(0).max(300).default(0),
  ROBOKASSA_LOGIN: z.string().min(1).optional(),
  ROBOKASSA_PASSWORD1: z.string().min(1).optional(),
  ROBOKASSA_PASSWORD2: z.string().min(1).optional(),
  ROBOKASSA_HASH: z.enum(ROBOKASSA_HASH_ALGORITHMS).default('md5'),
  ROBOKASSA_URL: z.url().optional(),
  ROBOKASSA_OPSTATE_URL: z.url().optional(),
  /** Signs refund API requests (Robokassa's "Password #3"). */
  ROBOKASSA_PASSWORD3: z.string().min(1).optional(),
  ROBOKASSA_REFUND_URL: z.url().optional(),
  ROBOKASSA_REFUND_STATE_URL: z.url().optional(),
  /** Robokassa's own test flag (IsTest=1 with the test passwords); defaults to TEST_MODE. */
  ROBOKASSA_IS_TEST: flag.optional(),
  PAYPAL_BUSINESS: z.string().min(1).optional(),
  PAYPAL_RECEIVER_ID: z.string().min(1).optional(),
  PAYPAL_URL: z.url().optional(),
  PAYPAL_IPN_VERIFY_URL: z.url().optional(),
  /** PayPal's NVP API (refunds) and its API credentials. */
  PAYPAL_API_URL: z.url().optional(),
  PAYPAL_API_USER: z.string().min(1).optional(),
  PAYPAL_API_PASSWORD: z.string().min(1).optional(),
  PAYPAL_API_SIGNATURE: z.string().min(1).optional(),
  /** Accept sandbox IPNs (`test_ipn=1`), e.g. against PayPal's sandbox; defaults to TEST_MODE. */
  PAYPAL_SANDBOX: flag.optional(),
  /** Uploads in an S3-compatible bucket instead of `DATA_DIR/uploads`. */
  S3_BUCKET: z
    .string()
    .regex(
      /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
      'S3_BUCKET must be a bucket name: 3 to 63 lowercase letters, digits, dots and hyphens',
    )
    .optional(),
  S3_ENDPOINT: z
    .url({
      protocol: /^https?$/,
      error:
        'S3_ENDPOINT must be the storage server URL, e.g. https://storage.yandexcloud.net or http://127.0.0.1:9000',
    })
    .optional(),
  S3_REGION: z
    .string()
    .regex(/^[a-z0-9-]+$/, 'S3_REGION must look like us-east-1 or ru-central1')
    .optional(),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  /** Path-style URLs (`host/bucket/key`); defaults to on when S3_ENDPOINT is set (MinIO needs it). */
  S3_FORCE_PATH_STYLE: flag.optional(),
});

export type Environment = z.input<typeof environmentSchema>;

export interface Config {
  mode: 'development' | 'production' | 'test';
  host: string;
  port: number;
  /** Origin the shop is reachable at, used for canonical URLs, sitemaps and provider callbacks. */
  publicUrl: string;
  dataDir: string;
  /** The local uploads directory, used when `storage` is the disk. */
  uploadsDir: string;
  /** Where uploads and images live: `uploadsDir` on the local disk, or an S3-compatible bucket. */
  storage: StorageSettings;
  /** PostgreSQL connection string; without it the embedded PGlite database in `dataDir/db` is used. */
  databaseUrl: string | undefined;
  /** Test mode: a banner on every page and local simulators instead of real providers. */
  testMode: boolean;
  seedDemoData: boolean;
  sessionSecret: string;
  shopEmail: string;
  /** The language the shop's staff read its own mails in (a new paid order). */
  shopLocale: Locale;
  admin: { email: string | undefined; password: string | undefined };
  /**
   * `required`: an admin turns two-step sign-in on before using the back office; `optional`: staff
   * may turn it on (ADR 0055).
   */
  adminTwoFactor: 'required' | 'optional';
  /** Outgoing mail: SMTP when `smtpUrl` is set, else `.eml` files written to `outboxDir`. */
  mail: { smtpUrl: string | undefined; from: string; outboxDir: string };
  rates: { refreshMinutes: number; moexUrl: string; cbrUrl: string };
  /** Delivery cost providers; in test mode their local simulators under `/sandbox/…`. */
  delivery: {
    russianPost: { url: string; fromZip: string };
    boxberry: { url: string; token: string; targetStart: string };
  };
  /** Redis for rate limits and cross-instance cache invalidation; in-process when unset. */
  redisUrl: string | undefined;
  /** Other origins allowed to call the API with credentials (a storefront served elsewhere). */
  corsOrigins: string[];
  /** Memory for kept server-rendered catalogue pages (http/page-cache.ts); 0 turns it off. */
  pageCacheBytes: number;
  /**
   * Where the keys of every catalogue change are POSTed for a CDN to purge (docs/production.md);
   * unset, anonymous pages tell shared caches to keep them one second only.
   */
  cdnPurgeUrl?: string;
  /** Scales every rate limit (tests and load runs raise it). */
  rateLimitMultiplier: number;
  /** Unpaid orders are cancelled and their stock released after this long. */
  orderExpiryMinutes: number;
  logLevel: string;
  /** Bearer token `GET /metrics` requires; without one only private-network clients may read it. */
  /**
   * Which peers may tell the client's address and protocol in X-Forwarded-*: by default proxies on
   * loopback and private networks, so a client on the internet cannot fake its address.
   */
  trustProxy: boolean | string;
  metricsToken: string | undefined;
  /** After SIGTERM, how long `/health/ready` answers 503 while requests are still served, before closing. */
  shutdownDrainMs: number;
  /** Payment providers: real endpoints, or the local simulators under /sandbox in test mode. */
  payments: { robokassa: RobokassaSettings; paypal: PaypalSettings };
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
const RUSSIAN_POST_URL = 'https://tariff.pochta.ru';
const BOXBERRY_URL = 'https://api.boxberry.ru/json.php';
const DEVELOPMENT_SESSION_SECRET = 'development-only-session-secret-not-for-production';
const ROBOKASSA_URL = 'https://auth.robokassa.ru/Merchant/Index.aspx';
const ROBOKASSA_OPSTATE_URL = 'https://auth.robokassa.ru/Merchant/WebService/Service.asmx/OpStateExt';
const PAYPAL_URL = 'https://www.paypal.com/cgi-bin/webscr';
const PAYPAL_IPN_VERIFY_URL = 'https://ipnpb.paypal.com/cgi-bin/webscr';
/** Robokassa's refund API; the paths are UNCONFIRMED (open-source integrations), hence settings. */
const ROBOKASSA_REFUND_URL = 'https://services.robokassa.ru/RefundService/Refund/Create';
const ROBOKASSA_REFUND_STATE_URL = 'https://services.robokassa.ru/RefundService/Refund/GetState';
const PAYPAL_API_URL = 'https://api-3t.paypal.com/nvp';
/** Sandbox credentials: the local simulators accept them; real providers do not know them. */
const SANDBOX_ROBOKASSA = {
  login: 'vitrina-test',
  password1: 'vitrina-sandbox-password-1',
  password2: 'vitrina-sandbox-password-2',
  password3: 'vitrina-sandbox-password-3',
};
const SANDBOX_PAYPAL_BUSINESS = 'shop-facilitator@vitrina.example';
const SANDBOX_PAYPAL_API = {
  user: 'shop-facilitator_api1.vitrina.example',
  password: 'vitrina-sandbox-api-password',
  signature: 'vitrina-sandbox-api-signature',
};

export function loadConfig(environment: Record<string, string | undefined> = process.env): Config {
  const parsed = environmentSchema.safeParse(
    Object.fromEntries(
      Object.entries(environment).filter(([, value]) => value !== undefined && value !== ''),
    ),
  );
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
  }
  const env = { ...parsed.data, TEST_MODE: parsed.data.TEST_MODE ?? true };
  const production = env.NODE_ENV === 'production';
  const realProviders = production && !env.TEST_MODE;

  const problems: string[] = [];
  if (production && !env.SESSION_SECRET) problems.push('SESSION_SECRET is required in production');
  if (production && !env.PUBLIC_URL) problems.push('PUBLIC_URL is required in production');
  // Test mode's simulators take any payment and call whatever they are told: production chooses knowingly.
  if (production && parsed.data.TEST_MODE === undefined) {
    problems.push(
      'TEST_MODE is required in production: false for the real providers, true for the local simulators',
    );
  }
  if (realProviders && !env.BOXBERRY_TOKEN) {
    problems.push('BOXBERRY_TOKEN is required in production outside test mode');
  }
  if (realProviders) {
    for (const name of [
      'ROBOKASSA_LOGIN',
      'ROBOKASSA_PASSWORD1',
      'ROBOKASSA_PASSWORD2',
      'ROBOKASSA_PASSWORD3',
      'PAYPAL_BUSINESS',
      'PAYPAL_API_USER',
      'PAYPAL_API_PASSWORD',
      'PAYPAL_API_SIGNATURE',
    ] as const) {
      if (!env[name]) problems.push(`${name} is required in production outside test mode`);
    }
  }
  problems.push(...storageProblems(env));
  if (problems.length > 0) throw new ConfigError(problems);

  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, '');
  const dataDir = path.resolve(env.DATA_DIR);
  const simulatorBase = `http://127.0.0.1:${env.PORT}/sandbox/rates`;
  const sandbox = `http://127.0.0.1:${env.PORT}/sandbox`;
  const boxberrySimulated = env.TEST_MODE && !env.BOXBERRY_URL;
  // The browser posts payment forms to the public origin; the server calls the simulators on loopback.
  const sandboxPages = `${publicUrl}/sandbox`;
  const sandboxServer = `http://127.0.0.1:${env.PORT}/sandbox`;

  return {
    mode: env.NODE_ENV,
    host: env.HOST,
    port: env.PORT,
    publicUrl,
    dataDir,
    uploadsDir: path.join(dataDir, 'uploads'),
    storage: storageSettings(env, path.join(dataDir, 'uploads')),
    databaseUrl: env.DATABASE_URL,
    testMode: env.TEST_MODE,
    seedDemoData: env.SEED_DEMO_DATA,
    sessionSecret: env.SESSION_SECRET ?? DEVELOPMENT_SESSION_SECRET,
    shopEmail: env.SHOP_EMAIL,
    shopLocale: env.SHOP_LOCALE,
    admin: { email: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD },
    mail: { smtpUrl: env.SMTP_URL, from: env.MAIL_FROM, outboxDir: path.join(dataDir, 'outbox') },
    rates: {
      refreshMinutes: env.RATE_REFRESH_MINUTES,
      moexUrl: env.RATES_MOEX_URL ?? (env.TEST_MODE ? `${simulatorBase}/moex` : MOEX_URL),
      cbrUrl: env.RATES_CBR_URL ?? (env.TEST_MODE ? `${simulatorBase}/cbr` : CBR_URL),
    },
    delivery: {
      russianPost: {
        url: env.RUSSIAN_POST_URL ?? (env.TEST_MODE ? `${sandbox}/russian-post` : RUSSIAN_POST_URL),
        fromZip: env.RUSSIAN_POST_FROM_ZIP,
      },
      boxberry: {
        url: env.BOXBERRY_URL ?? (env.TEST_MODE ? `${sandbox}/boxberry/json.php` : BOXBERRY_URL),
        // The built-in simulator only knows the sandbox token; another URL gets the configured one.
        token: boxberrySimulated
          ? SANDBOX_BOXBERRY_TOKEN
          : (env.BOXBERRY_TOKEN ?? (env.TEST_MODE ? SANDBOX_BOXBERRY_TOKEN : '')),
        targetStart: env.BOXBERRY_TARGETSTART,
      },
    },
    redisUrl: env.REDIS_URL,
    corsOrigins: env.CORS_ORIGINS,
    rateLimitMultiplier: env.RATE_LIMIT_MULTIPLIER,
    adminTwoFactor: env.ADMIN_TWO_FACTOR,
    pageCacheBytes: Math.round(env.PAGE_CACHE_MB * 1024 * 1024),
    cdnPurgeUrl: env.CDN_PURGE_URL,
    orderExpiryMinutes: env.ORDER_EXPIRY_MINUTES,
    logLevel: env.LOG_LEVEL,
    metricsToken: env.METRICS_TOKEN,
    trustProxy: env.TRUST_PROXY === 'true' ? true : env.TRUST_PROXY === 'false' ? false : env.TRUST_PROXY,
    shutdownDrainMs: env.SHUTDOWN_DRAIN_SECONDS * 1000,
    payments: {
      robokassa: {
        merchantLogin: env.ROBOKASSA_LOGIN ?? SANDBOX_ROBOKASSA.login,
        password1: env.ROBOKASSA_PASSWORD1 ?? SANDBOX_ROBOKASSA.password1,
        password2: env.ROBOKASSA_PASSWORD2 ?? SANDBOX_ROBOKASSA.password2,
        password3: env.ROBOKASSA_PASSWORD3 ?? SANDBOX_ROBOKASSA.password3,
        hashAlgorithm: env.ROBOKASSA_HASH,
        paymentUrl: env.ROBOKASSA_URL ?? (env.TEST_MODE ? `${sandboxPages}/robokassa` : ROBOKASSA_URL),
        opStateUrl:
          env.ROBOKASSA_OPSTATE_URL ??
          (env.TEST_MODE ? `${sandboxServer}/robokassa/opstate` : ROBOKASSA_OPSTATE_URL),
        refundCreateUrl:
          env.ROBOKASSA_REFUND_URL ??
          (env.TEST_MODE ? `${sandboxServer}/robokassa/refund/create` : ROBOKASSA_REFUND_URL),
        refundStateUrl:
          env.ROBOKASSA_REFUND_STATE_URL ??
          (env.TEST_MODE ? `${sandboxServer}/robokassa/refund/state` : ROBOKASSA_REFUND_STATE_URL),
        isTest: env.ROBOKASSA_IS_TEST ?? env.TEST_MODE,
      },
      paypal: {
        business: env.PAYPAL_BUSINESS ?? SANDBOX_PAYPAL_BUSINESS,
        receiverId: env.PAYPAL_RECEIVER_ID,
        paymentUrl: env.PAYPAL_URL ?? (env.TEST_MODE ? `${sandboxPages}/paypal` : PAYPAL_URL),
        ipnVerifyUrl:
          env.PAYPAL_IPN_VERIFY_URL ??
          (env.TEST_MODE ? `${sandboxServer}/paypal/ipn-verify` : PAYPAL_IPN_VERIFY_URL),
        apiUrl: env.PAYPAL_API_URL ?? (env.TEST_MODE ? `${sandboxServer}/paypal/nvp` : PAYPAL_API_URL),
        apiUser: env.PAYPAL_API_USER ?? SANDBOX_PAYPAL_API.user,
        apiPassword: env.PAYPAL_API_PASSWORD ?? SANDBOX_PAYPAL_API.password,
        apiSignature: env.PAYPAL_API_SIGNATURE ?? SANDBOX_PAYPAL_API.signature,
        sandbox: env.PAYPAL_SANDBOX ?? env.TEST_MODE,
      },
    },
  };
}

type ParsedEnvironment = z.output<typeof environmentSchema>;

const S3_OPTIONS = [
  'S3_ENDPOINT',
  'S3_REGION',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
  'S3_FORCE_PATH_STYLE',
] as const;

function storageProblems(env: ParsedEnvironment): string[] {
  const problems: string[] = [];
  const stray = S3_OPTIONS.filter((name) => env[name] !== undefined);
  if (!env.S3_BUCKET && stray.length > 0) {
    problems.push(`S3_BUCKET is required when ${stray.join(', ')} ${stray.length > 1 ? 'are' : 'is'} set`);
  }
  if ((env.S3_ACCESS_KEY_ID === undefined) !== (env.S3_SECRET_ACCESS_KEY === undefined)) {
    problems.push(
      'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together: set both, or neither to use the AWS default credentials',
    );
  }
  return problems;
}

function storageSettings(env: ParsedEnvironment, uploadsDir: string): StorageSettings {
  if (!env.S3_BUCKET) return { kind: 'local', root: uploadsDir };
  return {
    kind: 's3',
    bucket: env.S3_BUCKET,
    region: env.S3_REGION ?? 'us-east-1',
    endpoint: env.S3_ENDPOINT,
    forcePathStyle: env.S3_FORCE_PATH_STYLE ?? env.S3_ENDPOINT !== undefined,
    credentials:
      env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY
        ? { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY }
        : undefined,
  };
}
