import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('runs on embedded defaults: port 3000, data in ./data, test mode on, PGlite', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.dataDir).toMatch(/\/data$/);
    expect(config.testMode).toBe(true);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.rates.moexUrl).toBe('http://127.0.0.1:3000/sandbox/rates/moex');
  });

  it('switches to PostgreSQL with DATABASE_URL and to real providers outside test mode', () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://shop@db/shop', TEST_MODE: 'false' });
    expect(config.databaseUrl).toBe('postgres://shop@db/shop');
    expect(config.rates.moexUrl).toMatch(/^https:\/\/iss\.moex\.com\//);
  });

  it('refuses to start in production without its secrets and names each one', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(ConfigError);
    try {
      loadConfig({ NODE_ENV: 'production' });
    } catch (error) {
      expect((error as ConfigError).problems).toEqual([
        'SESSION_SECRET is required in production',
        'PUBLIC_URL is required in production',
        'TEST_MODE is required in production: false for the real providers, true for the local simulators',
      ]);
    }
  });

  it('starts in production when the secrets are given and test mode is chosen either way', () => {
    const secrets = {
      NODE_ENV: 'production',
      SESSION_SECRET: 'x'.repeat(40),
      PUBLIC_URL: 'https://shop.example/',
    };
    const config = loadConfig({ ...secrets, TEST_MODE: 'true' });
    expect(config.publicUrl).toBe('https://shop.example');
    expect(config.testMode).toBe(true);
    const real = loadConfig({
      ...secrets,
      TEST_MODE: 'false',
      BOXBERRY_TOKEN: 'token',
      ROBOKASSA_LOGIN: 'shop',
      ROBOKASSA_PASSWORD1: 'one',
      ROBOKASSA_PASSWORD2: 'two',
      ROBOKASSA_PASSWORD3: 'three',
      PAYPAL_CLIENT_ID: 'client',
      PAYPAL_CLIENT_SECRET: 'secret',
      PAYPAL_WEBHOOK_ID: 'webhook',
    });
    expect(real.testMode).toBe(false);
  });

  describe('providers a shop switches on (ADR 0054)', () => {
    const production = {
      NODE_ENV: 'production',
      TEST_MODE: 'false',
      SESSION_SECRET: 'x'.repeat(40),
      PUBLIC_URL: 'https://shop.example',
    };
    const robokassa = {
      ROBOKASSA_LOGIN: 'shop',
      ROBOKASSA_PASSWORD1: 'one',
      ROBOKASSA_PASSWORD2: 'two',
      ROBOKASSA_PASSWORD3: 'three',
    };
    const problemsOf = (environment: Record<string, string>) => {
      try {
        loadConfig(environment);
        return [];
      } catch (error) {
        if (error instanceof ConfigError) return error.problems;
        throw error;
      }
    };

    it('offers every method by default', () => {
      expect(loadConfig({}).offered).toEqual({
        payment: ['robokassa', 'paypal'],
        delivery: ['russian_post', 'boxberry', 'boxberry.courier'],
      });
    });

    it("starts in production with Robokassa's credentials alone when only Robokassa and Russian Post are on", () => {
      const config = loadConfig({
        ...production,
        ...robokassa,
        PAYMENT_METHODS: 'robokassa',
        DELIVERY_METHODS: 'russian_post',
      });
      expect(config.offered).toEqual({ payment: ['robokassa'], delivery: ['russian_post'] });
    });

    // ADR 0087: Russian Post quotes without an account, so the shop starts; its parcels and their
    // tracking need the "Отправка" and tracking credentials, which the start warns about.
    it('warns at start in production when Russian Post is on without its shipment or tracking credentials', () => {
      const environment = {
        ...production,
        ...robokassa,
        PAYMENT_METHODS: 'robokassa',
        DELIVERY_METHODS: 'russian_post',
      };
      expect(loadConfig(environment).warnings).toEqual([
        'Russian Post parcels cannot be created from the back office: set RUSSIAN_POST_ACCESS_TOKEN, RUSSIAN_POST_LOGIN, RUSSIAN_POST_PASSWORD (docs/production.md)',
        'Russian Post parcels are not tracked: set RUSSIAN_POST_TRACKING_LOGIN, RUSSIAN_POST_TRACKING_PASSWORD (docs/production.md)',
      ]);
      const configured = loadConfig({
        ...environment,
        RUSSIAN_POST_ACCESS_TOKEN: 'token',
        RUSSIAN_POST_LOGIN: 'shop@example.com',
        RUSSIAN_POST_PASSWORD: 'password',
        RUSSIAN_POST_TRACKING_LOGIN: 'tracking',
        RUSSIAN_POST_TRACKING_PASSWORD: 'password',
      });
      expect(configured.warnings).toEqual([]);
      expect(
        loadConfig({ ...environment, DELIVERY_METHODS: 'boxberry', BOXBERRY_TOKEN: 'token' }).warnings,
      ).toEqual([]);
      // Test mode's simulators need no credentials.
      expect(loadConfig({ ...environment, TEST_MODE: 'true' }).warnings).toEqual([]);
    });

    it('asks for the credentials of enabled providers only, each named once', () => {
      expect(
        problemsOf({
          ...production,
          PAYMENT_METHODS: 'paypal',
          DELIVERY_METHODS: 'boxberry,boxberry.courier',
        }),
      ).toEqual([
        'PAYPAL_CLIENT_ID is required in production outside test mode',
        'PAYPAL_CLIENT_SECRET is required in production outside test mode',
        'PAYPAL_WEBHOOK_ID is required in production outside test mode',
        'BOXBERRY_TOKEN is required in production outside test mode',
      ]);
      expect(
        problemsOf({
          ...production,
          PAYMENT_METHODS: ' robokassa , robokassa',
          DELIVERY_METHODS: 'russian_post',
        }),
      ).toEqual([
        'ROBOKASSA_LOGIN is required in production outside test mode',
        'ROBOKASSA_PASSWORD1 is required in production outside test mode',
        'ROBOKASSA_PASSWORD2 is required in production outside test mode',
        'ROBOKASSA_PASSWORD3 is required in production outside test mode',
      ]);
    });

    it('refuses to start with no payment or no delivery method, or one it does not know', () => {
      expect(
        problemsOf({ ...production, ...robokassa, PAYMENT_METHODS: ' , ', DELIVERY_METHODS: 'russian_post' }),
      ).toEqual([
        'PAYMENT_METHODS: PAYMENT_METHODS must name at least one method: the shop cannot take orders without one',
      ]);
      expect(problemsOf({ PAYMENT_METHODS: 'robokassa', DELIVERY_METHODS: ',' })).toEqual([
        'DELIVERY_METHODS: DELIVERY_METHODS must name at least one method: the shop cannot take orders without one',
      ]);
      expect(problemsOf({ PAYMENT_METHODS: 'robokassa,stripe' })).toEqual([
        'PAYMENT_METHODS.1: PAYMENT_METHODS names methods among robokassa, paypal, separated by commas',
      ]);
    });
  });

  it('never falls back to test mode in production: an unset or empty TEST_MODE is named, nothing else', () => {
    const secrets = {
      NODE_ENV: 'production',
      SESSION_SECRET: 'x'.repeat(40),
      PUBLIC_URL: 'https://shop.example',
    };
    for (const environment of [secrets, { ...secrets, TEST_MODE: '' }]) {
      expect(() => loadConfig(environment)).toThrow(
        /TEST_MODE is required in production: false for the real providers, true for the local simulators$/,
      );
    }
    // Outside production the embedded default stays: test mode on.
    expect(loadConfig({ NODE_ENV: 'development' }).testMode).toBe(true);
  });

  it('writes mail to data/outbox unless SMTP_URL is set', () => {
    expect(loadConfig({}).mail).toEqual({
      smtpUrl: undefined,
      from: 'Vitrina <shop@vitrina.example>',
      outboxDir: expect.stringMatching(/\/data\/outbox$/),
    });
    const config = loadConfig({
      SMTP_URL: 'smtp://user:pass@mail.example:587',
      MAIL_FROM: 'Shop <s@x.example>',
    });
    expect(config.mail).toMatchObject({
      smtpUrl: 'smtp://user:pass@mail.example:587',
      from: 'Shop <s@x.example>',
    });
    expect(() => loadConfig({ SMTP_URL: 'mail.example:587' })).toThrow(/SMTP_URL/);
  });

  it('explains a malformed value', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ TEST_MODE: 'maybe' })).toThrow(/TEST_MODE/);
  });

  it('keeps uploads in data/uploads unless S3_BUCKET names a bucket', () => {
    expect(loadConfig({}).storage).toEqual({
      kind: 'local',
      root: expect.stringMatching(/\/data\/uploads$/),
    });
    expect(
      loadConfig({
        S3_BUCKET: 'vitrina-uploads',
        S3_ENDPOINT: 'https://storage.yandexcloud.net',
        S3_REGION: 'ru-central1',
        S3_ACCESS_KEY_ID: 'key-id',
        S3_SECRET_ACCESS_KEY: 'secret',
      }).storage,
    ).toEqual({
      kind: 's3',
      bucket: 'vitrina-uploads',
      region: 'ru-central1',
      endpoint: 'https://storage.yandexcloud.net',
      forcePathStyle: true,
      credentials: { accessKeyId: 'key-id', secretAccessKey: 'secret' },
    });
    // AWS itself: virtual-hosted URLs and the SDK's own credential chain (e.g. an instance role).
    expect(loadConfig({ S3_BUCKET: 'vitrina-uploads' }).storage).toEqual({
      kind: 's3',
      bucket: 'vitrina-uploads',
      region: 'us-east-1',
      endpoint: undefined,
      forcePathStyle: false,
      credentials: undefined,
    });
  });

  it('names what is wrong with the bucket settings', () => {
    const problems = (environment: Record<string, string>) => {
      try {
        loadConfig(environment);
        return [];
      } catch (error) {
        return (error as ConfigError).problems;
      }
    };
    expect(
      problems({ S3_ENDPOINT: 'http://127.0.0.1:9000', S3_ACCESS_KEY_ID: 'id', S3_SECRET_ACCESS_KEY: 's' }),
    ).toEqual(['S3_BUCKET is required when S3_ENDPOINT, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY are set']);
    expect(problems({ S3_BUCKET: 'uploads', S3_ACCESS_KEY_ID: 'id' })).toEqual([
      'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together: set both, or neither to use the AWS default credentials',
    ]);
    expect(problems({ S3_BUCKET: 'Uploads_Here' })).toEqual([
      expect.stringMatching(/^S3_BUCKET: S3_BUCKET must be a bucket name/),
    ]);
    expect(problems({ S3_BUCKET: 'uploads', S3_ENDPOINT: 'minio:9000' })).toEqual([
      expect.stringMatching(/^S3_ENDPOINT: S3_ENDPOINT must be the storage server URL/),
    ]);
  });

  it('believes forwarded headers from local and private-network proxies only, unless told otherwise', () => {
    expect(loadConfig({}).trustProxy).toBe('loopback,linklocal,uniquelocal');
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.5' }).trustProxy).toBe('10.0.0.0/8, 192.168.1.5');
    expect(() => loadConfig({ TRUST_PROXY: 'every one!' })).toThrow(/TRUST_PROXY must be/);
  });

  it('reads the metrics token and the shutdown drain, refusing a guessable token', () => {
    expect(loadConfig({})).toMatchObject({ metricsToken: undefined, shutdownDrainMs: 0 });
    const config = loadConfig({ METRICS_TOKEN: 'a'.repeat(32), SHUTDOWN_DRAIN_SECONDS: '2.5' });
    expect(config).toMatchObject({ metricsToken: 'a'.repeat(32), shutdownDrainMs: 2500 });
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN must be at least 16/);
    expect(() => loadConfig({ SHUTDOWN_DRAIN_SECONDS: '-1' })).toThrow(/SHUTDOWN_DRAIN_SECONDS/);
  });
});
