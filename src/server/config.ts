import path from 'node:path';
import { z } from 'zod';
import { DELIVERY_METHODS, type DeliveryMethod } from '../contract/delivery.ts';
import { LOCALES, type Locale } from '../contract/locale.ts';
import { PAYMENT_METHODS, type PaymentMethod } from '../contract/orders.ts';
import type { StorageSettings } from './files/storage.ts';
import type { OfferedMethods } from './orders/checkout-rules.ts';
import { type BoxberrySettings, SANDBOX_BOXBERRY_TOKEN } from './providers/boxberry.ts';
import { type Box, parseBox } from './providers/parcel.ts';
import type { RussianPostTrackingSettings } from './providers/parcel-tracking.ts';
import type { PaypalSettings } from './providers/paypal.ts';
import {
  ROBOKASSA_HASH_ALGORITHMS,
  ROBOKASSA_TAX_SYSTEMS,
  ROBOKASSA_TAXES,
  type RobokassaSettings,
  type RobokassaTax,
  type RobokassaTaxSystem,
} from './providers/robokassa.ts';
import { parsePacks, type RussianPostSettings } from './providers/russian-post.ts';
import { OTPRAVKA_URL, type OtpravkaSettings, SANDBOX_OTPRAVKA } from './providers/russian-post-shipments.ts';

/**
 * Environment → typed configuration. Every variable has an embedded default so that
 * `npm start` runs the shop with nothing else installed; production mode refuses to start
 * when a secret it needs is missing, and names it.
 */

const flag = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no', 'on', 'off'])
  .transform((value) => ['1', 'true', 'yes', 'on'].includes(value));

/** A comma-separated list of method names, each one of `names`, at least one. */
const methodList = <const T extends readonly [string, ...string[]]>(setting: string, names: T) =>
  z
    .string()
    .transform((value) => [
      ...new Set(
        value
          .split(',')
          .map((name) => name.trim())
          .filter(Boolean),
      ),
    ])
    .pipe(
      z
        .array(z.enum(names, `${setting} names methods among ${names.join(', ')}, separated by commas`))
        .min(1, `${setting} must name at least one method: the shop cannot take orders without one`)
        .transform((methods) => methods as unknown as readonly [T[number], ...T[number][]]),
    );

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
  /** A dollar rate for a day older than this is not used: dollar prices are withheld (ADR 0053). */
  RATE_MAX_AGE_DAYS: z.coerce.number().int().min(0).default(3),
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
  RUSSIAN_POST_PACKS: z
    .string()
    .refine(
      (value) => parsePacks(value) !== null,
      'RUSSIAN_POST_PACKS must list pack codes with their boxes in cm, like 10:26x17x8,20:30x20x15',
    )
    .default('10:26x17x8,20:30x20x15,30:40x27x18,40:53x36x22'),
  PARCEL_DEFAULT_SIZE: z
    .string()
    .refine((value) => parseBox(value) !== null, 'PARCEL_DEFAULT_SIZE must be a box in cm, like 30x20x15')
    .default('30x20x15'),
  RUSSIAN_POST_OTPRAVKA_URL: z.url().optional(),
  RUSSIAN_POST_ACCESS_TOKEN: z.string().min(1).optional(),
  RUSSIAN_POST_LOGIN: z.string().min(1).optional(),
  RUSSIAN_POST_PASSWORD: z.string().min(1).optional(),
  RUSSIAN_POST_MAIL_TYPE: z.string().min(1).default('POSTAL_PARCEL'),
  RUSSIAN_POST_MAIL_CATEGORY: z.string().min(1).default('ORDINARY'),
  RUSSIAN_POST_TRACKING_URL: z.url().optional(),
  RUSSIAN_POST_TRACKING_LOGIN: z.string().min(1).optional(),
  RUSSIAN_POST_TRACKING_PASSWORD: z.string().min(1).optional(),
  TRACKING_EVERY_MINUTES: z.coerce.number().int().min(1).default(60),
  SHIPMENT_STALLED_DAYS: z.coerce.number().int().min(1).default(7),
  RUSSIAN_POST_CN23_PATH: z
    .string()
    .regex(/^\/.*\{id\}/, 'RUSSIAN_POST_CN23_PATH must be a path with {id}, like /1.0/forms/{id}/forms')
    .default('/1.0/forms/{id}/forms'),
  BOXBERRY_URL: z.url().optional(),
  BOXBERRY_TOKEN: z.string().min(1).optional(),
  /** The public key of Boxberry's pickup-point widget (never the API token, which stays on the server). */
  BOXBERRY_WIDGET_KEY: z.string().min(1).optional(),
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
  PAGE_CACHE_MB: z.coerce.number().min(0).default(16),
  CATALOG_CACHE_MB: z.coerce.number().min(1).default(16),
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
  /** The payment and delivery methods the shop offers (ADR 0054). */
  PAYMENT_METHODS: methodList('PAYMENT_METHODS', PAYMENT_METHODS).default([...PAYMENT_METHODS]),
  DELIVERY_METHODS: methodList('DELIVERY_METHODS', DELIVERY_METHODS).default([...DELIVERY_METHODS]),
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
  /** RoboFiscal `Receipt/Attach`: the second (full payment) receipt of a prepaid order. */
  ROBOKASSA_SECOND_RECEIPT_URL: z.url().optional(),
  /** 54-FZ receipts through Robokassa's cloud register (ADR 0051); off when the shop's register is elsewhere. */
  RECEIPTS: flag.default(true),
  /** The receipts' tax system (`sno`); unset when it is set in Robokassa's cabinet. */
  RECEIPT_SNO: z.enum(ROBOKASSA_TAX_SYSTEMS).optional(),
  /** VAT code of goods without their own and of the delivery. */
  RECEIPT_VAT: z.enum(ROBOKASSA_TAXES).default('none'),
  /** Receipts record payment as prepayment (goods handed over later), with a second receipt on shipping. */
  RECEIPT_PREPAYMENT: flag.default(true),
  /** PayPal's REST app (Orders v2, refunds, webhooks), ADR 0052. */
  PAYPAL_CLIENT_ID: z.string().min(1).optional(),
  PAYPAL_CLIENT_SECRET: z.string().min(1).optional(),
  /** The id PayPal shows for the webhook subscribed to `/api/paypal/webhook`. */
  PAYPAL_WEBHOOK_ID: z.string().min(1).optional(),
  /** https://api-m.sandbox.paypal.com (PayPal's sandbox) or https://api-m.paypal.com (live, the default). */
  PAYPAL_API_URL: z.url().optional(),
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
  rates: { refreshMinutes: number; moexUrl: string; cbrUrl: string; maxAgeDays: number };
  /** What the shop offers: the checkout, the API and the back office's choices show only these. */
  offered: OfferedMethods;
  /** What the shop starts without but will refuse for it (missing carrier credentials); logged at start. */
  warnings: string[];
  /** Delivery cost providers; in test mode their local simulators under `/sandbox/…`. */
  delivery: {
    russianPost: RussianPostSettings;
    boxberry: BoxberrySettings;
    /** The box of a product without its own size (ADR 0057). */
    parcel: { defaultBox: Box };
    /** The public key Boxberry's widget is opened with; without one the built-in picker is used. */
    boxberryWidgetKey: string | undefined;
  };
  /** Russian Post's "Отправка" API for shipments (ADR 0057); its simulator in test mode. */
  otpravka: OtpravkaSettings;
  /** Parcel tracking (ADR 0057): Russian Post's SOAP service, how often, and when a parcel is stalled. */
  tracking: { russianPost: RussianPostTrackingSettings; everyMinutes: number; stalledDays: number };
  /** Redis for rate limits and cross-instance cache invalidation; in-process when unset. */
  redisUrl: string | undefined;
  /** Other origins allowed to call the API with credentials (a storefront served elsewhere). */
  corsOrigins: string[];
  /** Memory for kept server-rendered catalogue pages (http/page-cache.ts); 0 turns it off. */
  pageCacheBytes: number;
  /** Memory for kept catalogue answers (caches/cache.ts), counted as three times their JSON. */
  catalogCacheBytes: number;
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
  /** 54-FZ receipts (ADR 0051). */
  receipts: ReceiptSettings;
}

export interface ReceiptSettings {
  /** Robokassa registers receipts with payments, refunds and shipments. */
  enabled: boolean;
  sno: RobokassaTaxSystem | undefined;
  /** VAT code of goods without their own and of the delivery. */
  vat: RobokassaTax;
  /** `full_prepayment` with a second `full_payment` receipt on shipping, else `full_payment` at once. */
  prepayment: boolean;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Refusing to start, the configuration is incomplete:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

type ParsedEnvironment = z.output<typeof environmentSchema>;
type Setting = keyof ParsedEnvironment;

/**
 * The credentials each provider needs with real providers (production outside test mode); only
 * enabled methods are asked for theirs. One line per provider: change a provider's names here.
 */
const PROVIDER_CREDENTIALS: Record<PaymentMethod | DeliveryMethod, readonly Setting[]> = {
  robokassa: ['ROBOKASSA_LOGIN', 'ROBOKASSA_PASSWORD1', 'ROBOKASSA_PASSWORD2', 'ROBOKASSA_PASSWORD3'],
  paypal: ['PAYPAL_CLIENT_ID', 'PAYPAL_CLIENT_SECRET', 'PAYPAL_WEBHOOK_ID'],
  russian_post: [],
  boxberry: ['BOXBERRY_TOKEN'],
  'boxberry.courier': ['BOXBERRY_TOKEN'],
};

/** The credentials the enabled methods need and the environment lacks, each named once. */
function missingCredentials(env: ParsedEnvironment): string[] {
  const needed = new Set(
    [...env.PAYMENT_METHODS, ...env.DELIVERY_METHODS].flatMap((method) => PROVIDER_CREDENTIALS[method]),
  );
  return [...needed]
    .filter((name) => !env[name])
    .map((name) => `${name} is required in production outside test mode`);
}

/**
 * What a shop with real providers can start without but not ship without (ADR 0087): Russian Post
 * quotes prices with no account, while its parcels ("Отправка") and their tracking need the
 * account's credentials. Starting is allowed (a shop may hand parcels in by hand at first); each
 * missing group is a warning at start, and creating a parcel is refused as unconfigured.
 */
function shippingWarnings(env: ParsedEnvironment): string[] {
  if (!env.DELIVERY_METHODS.includes('russian_post')) return [];
  const groups: Array<[readonly Setting[], string]> = [
    [
      ['RUSSIAN_POST_ACCESS_TOKEN', 'RUSSIAN_POST_LOGIN', 'RUSSIAN_POST_PASSWORD'],
      'Russian Post parcels cannot be created from the back office',
    ],
    [
      ['RUSSIAN_POST_TRACKING_LOGIN', 'RUSSIAN_POST_TRACKING_PASSWORD'],
      'Russian Post parcels are not tracked',
    ],
  ];
  return groups.flatMap(([names, effect]) => {
    const missing = names.filter((name) => !env[name]);
    return missing.length > 0 ? [`${effect}: set ${missing.join(', ')} (docs/production.md)`] : [];
  });
}

const MOEX_URL =
  'https://iss.moex.com/iss/engines/currency/markets/selt/boards/CETS/securities/USD000UTSTOM.json?iss.meta=off&iss.only=marketdata,securities';
const CBR_URL = 'https://www.cbr.ru/scripts/XML_daily.asp';
const RUSSIAN_POST_URL = 'https://tariff.pochta.ru';
const BOXBERRY_URL = 'https://api.boxberry.ru/json.php';
const DEVELOPMENT_SESSION_SECRET = 'development-only-session-secret-not-for-production';
const ROBOKASSA_URL = 'https://auth.robokassa.ru/Merchant/Index.aspx';
const ROBOKASSA_OPSTATE_URL = 'https://auth.robokassa.ru/Merchant/WebService/Service.asmx/OpStateExt';
/** Robokassa's refund API, as its own WordPress plugin calls it (cms-wordpress RefundApi.php). */
const ROBOKASSA_REFUND_URL = 'https://services.robokassa.ru/RefundService/Refund/Create';
const ROBOKASSA_REFUND_STATE_URL = 'https://services.robokassa.ru/RefundService/Refund/GetState';
const ROBOKASSA_SECOND_RECEIPT_URL = 'https://ws.roboxchange.com/RoboFiscal/Receipt/Attach';
const PAYPAL_API_URL = 'https://api-m.paypal.com';
/** Sandbox credentials: the local simulators accept them; real providers do not know them. */
const SANDBOX_ROBOKASSA = {
  login: 'vitrina-test',
  password1: 'vitrina-sandbox-password-1',
  password2: 'vitrina-sandbox-password-2',
  password3: 'vitrina-sandbox-password-3',
};
const SANDBOX_PAYPAL = {
  clientId: 'vitrina-sandbox-client',
  clientSecret: 'vitrina-sandbox-client-secret',
  webhookId: 'VITRINA-SANDBOX-WEBHOOK',
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
  if (realProviders) problems.push(...missingCredentials(env));
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
      maxAgeDays: env.RATE_MAX_AGE_DAYS,
    },
    offered: { payment: env.PAYMENT_METHODS, delivery: env.DELIVERY_METHODS },
    warnings: realProviders ? shippingWarnings(env) : [],
    delivery: {
      russianPost: {
        url: env.RUSSIAN_POST_URL ?? (env.TEST_MODE ? `${sandbox}/russian-post` : RUSSIAN_POST_URL),
        fromZip: env.RUSSIAN_POST_FROM_ZIP,
        packs: parsePacks(env.RUSSIAN_POST_PACKS) ?? [],
      },
      boxberry: {
        url: env.BOXBERRY_URL ?? (env.TEST_MODE ? `${sandbox}/boxberry/json.php` : BOXBERRY_URL),
        // The built-in simulator only knows the sandbox token; another URL gets the configured one.
        token: boxberrySimulated
          ? SANDBOX_BOXBERRY_TOKEN
          : (env.BOXBERRY_TOKEN ?? (env.TEST_MODE ? SANDBOX_BOXBERRY_TOKEN : '')),
        targetStart: env.BOXBERRY_TARGETSTART,
      },
      boxberryWidgetKey: env.BOXBERRY_WIDGET_KEY,
      parcel: { defaultBox: parseBox(env.PARCEL_DEFAULT_SIZE) as Box },
    },
    otpravka: otpravkaSettings(env, sandbox),
    tracking: {
      russianPost: {
        url:
          env.RUSSIAN_POST_TRACKING_URL ??
          (env.TEST_MODE ? `${sandbox}/russian-post-tracking` : 'https://tracking.russianpost.ru/rtm34'),
        login:
          env.TEST_MODE && !env.RUSSIAN_POST_TRACKING_URL
            ? SANDBOX_OTPRAVKA.login
            : (env.RUSSIAN_POST_TRACKING_LOGIN ?? ''),
        password:
          env.TEST_MODE && !env.RUSSIAN_POST_TRACKING_URL
            ? SANDBOX_OTPRAVKA.password
            : (env.RUSSIAN_POST_TRACKING_PASSWORD ?? ''),
      },
      everyMinutes: env.TRACKING_EVERY_MINUTES,
      stalledDays: env.SHIPMENT_STALLED_DAYS,
    },
    redisUrl: env.REDIS_URL,
    corsOrigins: env.CORS_ORIGINS,
    rateLimitMultiplier: env.RATE_LIMIT_MULTIPLIER,
    adminTwoFactor: env.ADMIN_TWO_FACTOR,
    pageCacheBytes: Math.round(env.PAGE_CACHE_MB * 1024 * 1024),
    catalogCacheBytes: Math.round(env.CATALOG_CACHE_MB * 1024 * 1024),
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
        secondReceiptUrl:
          env.ROBOKASSA_SECOND_RECEIPT_URL ??
          (env.TEST_MODE ? `${sandboxServer}/robokassa/receipt/attach` : ROBOKASSA_SECOND_RECEIPT_URL),
      },
      paypal: {
        clientId: env.PAYPAL_CLIENT_ID ?? SANDBOX_PAYPAL.clientId,
        clientSecret: env.PAYPAL_CLIENT_SECRET ?? SANDBOX_PAYPAL.clientSecret,
        webhookId: env.PAYPAL_WEBHOOK_ID ?? SANDBOX_PAYPAL.webhookId,
        apiUrl: (env.PAYPAL_API_URL ?? (env.TEST_MODE ? `${sandboxServer}/paypal` : PAYPAL_API_URL)).replace(
          /\/$/,
          '',
        ),
      },
    },
    receipts: {
      enabled: env.RECEIPTS,
      sno: env.RECEIPT_SNO,
      vat: env.RECEIPT_VAT,
      prepayment: env.RECEIPT_PREPAYMENT,
    },
  };
}

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

/** The "Отправка" account: the sandbox one with the built-in simulator, else the configured one. */
function otpravkaSettings(env: ParsedEnvironment, sandbox: string): OtpravkaSettings {
  const simulated = env.TEST_MODE && !env.RUSSIAN_POST_OTPRAVKA_URL;
  return {
    url: env.RUSSIAN_POST_OTPRAVKA_URL ?? (env.TEST_MODE ? `${sandbox}/otpravka` : OTPRAVKA_URL),
    accessToken: simulated ? SANDBOX_OTPRAVKA.accessToken : (env.RUSSIAN_POST_ACCESS_TOKEN ?? ''),
    login: simulated ? SANDBOX_OTPRAVKA.login : (env.RUSSIAN_POST_LOGIN ?? ''),
    password: simulated ? SANDBOX_OTPRAVKA.password : (env.RUSSIAN_POST_PASSWORD ?? ''),
    fromZip: env.RUSSIAN_POST_FROM_ZIP,
    mailType: env.RUSSIAN_POST_MAIL_TYPE,
    mailCategory: env.RUSSIAN_POST_MAIL_CATEGORY,
    cn23Path: env.RUSSIAN_POST_CN23_PATH,
  };
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
