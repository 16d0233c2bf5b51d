import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueue } from '../jobs/queue.ts';
import { counter } from '../metrics.ts';
import { createTestApp } from '../testing/app.ts';
import { isPrivateAddress } from './prometheus.ts';

const PUBLIC_ADDRESS = '203.0.113.7';

/** The value of one series in Prometheus text format, or undefined when it is absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('GET /metrics without a token', () => {
  let shop: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    shop = await createTestApp();
  });
  afterAll(() => shop.close());

  const scrape = async (remoteAddress = '127.0.0.1') => {
    const response = await shop.app.inject({ url: '/metrics', remoteAddress });
    expect(response.statusCode).toBe(200);
    return response.body;
  };

  it('serves the Prometheus text format with the process metrics', async () => {
    const response = await shop.app.inject('/metrics');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(response.body).toContain('# TYPE process_cpu_user_seconds_total counter');
    expect(response.body).toContain('# TYPE nodejs_eventloop_lag_seconds gauge');
  });

  it('times requests by route pattern, never by the URL itself', async () => {
    const series =
      'http_request_duration_seconds_count{method="GET",route="/api/order/:id",status_code="401"}';
    const before = sample(await scrape(), series) ?? 0;
    for (const id of [101, 102]) {
      expect((await shop.app.inject(`/api/order/${id}`)).statusCode).toBe(401);
    }
    const text = await scrape();
    expect(sample(text, series)).toBe(before + 2);
    expect(text).toContain(
      'http_request_duration_seconds_bucket{le="10",method="GET",route="/api/order/:id",status_code="401"}',
    );
    expect(text).not.toContain('/api/order/101');
  });

  it('counts requests no route matched under one label', async () => {
    await shop.app.inject('/no/such/page/4815162342');
    const text = await scrape();
    expect(
      sample(text, 'http_request_duration_seconds_count{method="GET",route="unmatched",status_code="404"}'),
    ).toBeGreaterThan(0);
    expect(text).not.toContain('4815162342');
  });

  it('shows the unfinished jobs of the queue by kind and state', async () => {
    await enqueue(shop.db, 'metrics.due', {});
    await enqueue(shop.db, 'metrics.due', {});
    await enqueue(shop.db, 'metrics.later', {}, { runAt: new Date(Date.now() + 3600_000) });
    const text = await scrape();
    expect(sample(text, 'vitrina_jobs{kind="metrics.due",state="pending"}')).toBe(2);
    expect(sample(text, 'vitrina_jobs{kind="metrics.due",state="scheduled"}')).toBe(0);
    expect(sample(text, 'vitrina_jobs{kind="metrics.later",state="scheduled"}')).toBe(1);
    expect(sample(text, 'vitrina_jobs{kind="metrics.later",state="running"}')).toBe(0);
  });

  it('serves counters other modules define', async () => {
    const hits = counter({ name: 'vitrina_test_hits_total', help: 'Hits counted by a test' });
    hits.inc(3);
    expect(sample(await scrape(), 'vitrina_test_hits_total')).toBe(3);
  });

  it('answers clients on private networks, directly or through a private proxy', async () => {
    await scrape('10.1.2.3');
    const proxied = await shop.app.inject({
      url: '/metrics',
      remoteAddress: '172.18.0.5',
      headers: { 'x-forwarded-for': '192.168.1.20' },
    });
    expect(proxied.statusCode).toBe(200);
  });

  it('refuses a public client, also when it comes through the proxy or forges a private address', async () => {
    const attempts = [
      { remoteAddress: PUBLIC_ADDRESS },
      { remoteAddress: '172.18.0.5', headers: { 'x-forwarded-for': PUBLIC_ADDRESS } },
      { remoteAddress: '172.18.0.5', headers: { 'x-forwarded-for': `10.0.0.1, ${PUBLIC_ADDRESS}` } },
      { remoteAddress: PUBLIC_ADDRESS, headers: { 'x-forwarded-for': '127.0.0.1' } },
    ];
    for (const attempt of attempts) {
      const response = await shop.app.inject({ url: '/metrics', ...attempt });
      expect(response.statusCode, JSON.stringify(attempt)).toBe(403);
      expect(response.body).not.toContain('process_cpu');
    }
  });
});

describe('GET /metrics with METRICS_TOKEN', () => {
  const token = 'scrape-token-0123456789abcdef';
  let shop: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    shop = await createTestApp({ env: { METRICS_TOKEN: token } });
  });
  afterAll(() => shop.close());

  it('answers whoever shows the bearer token, from any address', async () => {
    const response = await shop.app.inject({
      url: '/metrics',
      remoteAddress: PUBLIC_ADDRESS,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('http_request_duration_seconds');
  });

  it('refuses a missing or wrong token, even on loopback', async () => {
    for (const authorization of [undefined, 'Bearer wrong-token', `Basic ${token}`, `Bearer ${token}x`]) {
      const response = await shop.app.inject({
        url: '/metrics',
        headers: authorization === undefined ? {} : { authorization },
      });
      expect(response.statusCode, authorization).toBe(401);
      expect(response.body).not.toContain('process_cpu');
    }
  });
});

describe('isPrivateAddress', () => {
  it.each([
    ['127.0.0.1', true],
    ['10.20.30.40', true],
    ['172.31.255.1', true],
    ['172.32.0.1', false],
    ['192.168.0.10', true],
    ['::1', true],
    ['fd12:3456::1', true],
    ['::ffff:10.0.0.8', true],
    ['::ffff:8.8.8.8', false],
    ['8.8.8.8', false],
    ['2001:db8::1', false],
  ])('%s → %s', (address, expected) => {
    expect(isPrivateAddress(address)).toBe(expected);
  });
});
