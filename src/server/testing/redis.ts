import { Redis } from 'ioredis';

/** The Redis that tests which need one talk to (the local server by default). */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Why the test Redis cannot be used, or null when it answers PING. */
export async function redisProblem(url = TEST_REDIS_URL): Promise<string | null> {
  const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await probe.connect();
    await probe.ping();
    return null;
  } catch (error) {
    return (error as Error).message;
  } finally {
    probe.disconnect();
  }
}
