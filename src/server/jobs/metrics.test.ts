import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseConnection } from '../db/client.ts';
import { metricsRegistry } from '../metrics.ts';
import { createTestDatabase } from '../testing/database.ts';
import { refreshQueuedJobs } from './metrics.ts';
import { createWorker, enqueue, type QueueLog } from './queue.ts';

let connection: DatabaseConnection;
beforeAll(async () => {
  connection = await createTestDatabase();
});
afterAll(() => connection.close());

const quiet: QueueLog = { info() {}, warn() {}, error() {} };

async function series(name: string) {
  const metric = (await metricsRegistry.getMetricsAsJSON()).find((candidate) => candidate.name === name);
  return (
    metric?.values.map(({ labels, value }): Record<string, string | number> => ({ ...labels, value })) ?? []
  );
}

describe('job metrics', () => {
  it('counts what became of each job this instance ran', async () => {
    const clock = () => new Date('2026-11-21T09:00:00Z');
    await enqueue(connection.db, 'metrics.works', {}, { runAt: clock() });
    await enqueue(connection.db, 'metrics.works', {}, { runAt: clock() });
    await enqueue(connection.db, 'metrics.breaks', {}, { runAt: clock(), maxAttempts: 2 });
    await enqueue(connection.db, 'metrics.breaks', {}, { runAt: clock(), maxAttempts: 1 });
    const worker = createWorker({
      db: connection.db,
      clock,
      log: quiet,
      handlers: {
        'metrics.works': async () => {},
        'metrics.breaks': async () => {
          throw new Error('no luck');
        },
      },
    });
    expect(await worker.runDue()).toBe(4);
    expect(await series('vitrina_jobs_processed_total')).toEqual(
      expect.arrayContaining([
        { kind: 'metrics.works', outcome: 'finished', value: 2 },
        { kind: 'metrics.breaks', outcome: 'retried', value: 1 },
        { kind: 'metrics.breaks', outcome: 'failed', value: 1 },
      ]),
    );
  });

  it('drops the queue series of kinds that have nothing left to do', async () => {
    await refreshQueuedJobs(connection.db, new Date('2026-11-21T09:00:00Z'));
    // The retried job waits for its backoff; the finished and failed ones are gone from the gauge.
    expect(await series('vitrina_jobs')).toEqual(
      expect.arrayContaining([{ kind: 'metrics.breaks', state: 'scheduled', value: 1 }]),
    );
    expect((await series('vitrina_jobs')).some((sample) => sample.kind === 'metrics.works')).toBe(false);
  });
});
