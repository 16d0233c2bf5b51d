import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database, DatabaseConnection } from '../db/client.ts';
import { jobs } from '../db/schema.ts';
import { createTestDatabase } from '../testing/database.ts';
import {
  backoffMs,
  createWorker,
  DEFAULT_LOCK_TIMEOUT_MS,
  enqueue,
  type JobHandler,
  purgeEndedJobs,
  type QueueLog,
  recurringKey,
  scheduleRecurring,
} from './queue.ts';

let connection: DatabaseConnection;
let db: Database;

beforeAll(async () => {
  connection = await createTestDatabase();
  db = connection.db;
});

afterAll(async () => {
  await connection?.close();
});

beforeEach(async () => {
  await db.delete(jobs);
});

/** A clock the test moves by hand. */
function manualClock(start = '2026-11-21T09:00:00Z') {
  let now = new Date(start);
  return {
    now: () => new Date(now),
    advance(ms: number) {
      now = new Date(now.getTime() + ms);
    },
  };
}

function recordingLog() {
  const entries: { level: string; message: string; details: object }[] = [];
  const write = (level: string) => (details: object, message: string) => {
    entries.push({ level, message, details });
  };
  const log: QueueLog = { info: write('info'), warn: write('warn'), error: write('error') };
  return { log, entries };
}

const jobRow = async (id: number) => {
  const [row] = await db.select().from(jobs).where(eq(jobs.id, id));
  if (!row) throw new Error(`job ${id} is gone`);
  return row;
};

describe('job queue', () => {
  it('runs a due job once and marks it finished', async () => {
    const clock = manualClock();
    const seen: unknown[] = [];
    const worker = createWorker({
      db,
      clock: clock.now,
      log: recordingLog().log,
      handlers: {
        'mail.send': async (payload, context) => {
          seen.push({ payload, attempt: context.attempt });
        },
      },
    });
    const id = await enqueue(db, 'mail.send', { mailId: 7 }, { runAt: clock.now() });
    expect(id).toEqual(expect.any(Number));

    expect(await worker.runDue()).toBe(1);
    expect(await worker.runDue()).toBe(0);

    expect(seen).toEqual([{ payload: { mailId: 7 }, attempt: 1 }]);
    const row = await jobRow(id as number);
    expect(row.finishedAt).toEqual(clock.now());
    expect(row.failedAt).toBeNull();
    expect(row.lockedBy).toBeNull();
    expect(row.attempts).toBe(1);
  });

  it('leaves a job planned for later alone until its time comes', async () => {
    const clock = manualClock();
    let runs = 0;
    const worker = createWorker({
      db,
      clock: clock.now,
      log: recordingLog().log,
      handlers: { 'order.expire': async () => void runs++ },
    });
    await enqueue(db, 'order.expire', {}, { runAt: new Date(clock.now().getTime() + 60_000) });

    expect(await worker.runDue()).toBe(0);
    clock.advance(60_000);
    expect(await worker.runDue()).toBe(1);
    expect(runs).toBe(1);
  });

  it('retries a failing job with growing delays, then marks it failed after the last attempt', async () => {
    const clock = manualClock();
    const { log, entries } = recordingLog();
    const attempts: number[] = [];
    const worker = createWorker({
      db,
      clock: clock.now,
      log,
      handlers: {
        'notify.flaky': async (_payload, context) => {
          attempts.push(context.attempt);
          throw new Error(`provider refused, attempt ${context.attempt}`);
        },
      },
    });
    const id = (await enqueue(db, 'notify.flaky', {}, { runAt: clock.now(), maxAttempts: 3 })) as number;

    expect(await worker.runDue()).toBe(1);
    let row = await jobRow(id);
    expect(row.attempts).toBe(1);
    expect(row.failedAt).toBeNull();
    expect(row.lastError).toContain('provider refused, attempt 1');
    expect(row.runAt.getTime() - clock.now().getTime()).toBe(backoffMs(1));

    // Not yet due: one millisecond before the backoff ends nothing runs.
    clock.advance(backoffMs(1) - 1);
    expect(await worker.runDue()).toBe(0);
    clock.advance(1);
    expect(await worker.runDue()).toBe(1);
    row = await jobRow(id);
    expect(row.runAt.getTime() - clock.now().getTime()).toBe(backoffMs(2));
    expect(backoffMs(2)).toBeGreaterThan(backoffMs(1));

    clock.advance(backoffMs(2));
    expect(await worker.runDue()).toBe(1);
    row = await jobRow(id);
    expect(row.failedAt).toEqual(clock.now());
    expect(row.finishedAt).toBeNull();
    expect(row.attempts).toBe(3);
    expect(row.lastError).toContain('provider refused, attempt 3');

    clock.advance(24 * 3_600_000);
    expect(await worker.runDue()).toBe(0);
    expect(attempts).toEqual([1, 2, 3]);
    expect(entries.some((entry) => entry.level === 'error' && entry.message === 'job failed for good')).toBe(
      true,
    );
  });

  it('caps the backoff at an hour', () => {
    expect(backoffMs(1)).toBe(20_000);
    expect(backoffMs(20)).toBe(3_600_000);
  });

  it('fails a job of an unknown kind at once, saying so', async () => {
    const clock = manualClock();
    const worker = createWorker({ db, clock: clock.now, log: recordingLog().log, handlers: {} });
    const id = (await enqueue(db, 'no.such.kind', {}, { runAt: clock.now() })) as number;

    expect(await worker.runDue()).toBe(1);
    const row = await jobRow(id);
    expect(row.failedAt).not.toBeNull();
    expect(row.attempts).toBe(1);
    expect(row.lastError).toContain('No handler is registered for job kind "no.such.kind"');
  });

  it('enqueues a job with a unique key only once, even after it has finished', async () => {
    const clock = manualClock();
    let runs = 0;
    const worker = createWorker({
      db,
      clock: clock.now,
      log: recordingLog().log,
      handlers: { 'notify.paid': async () => void runs++ },
    });
    const first = await enqueue(
      db,
      'notify.paid',
      { orderId: 42 },
      { uniqueKey: 'order-paid:42', runAt: clock.now() },
    );
    const second = await enqueue(
      db,
      'notify.paid',
      { orderId: 42 },
      { uniqueKey: 'order-paid:42', runAt: clock.now() },
    );
    expect(first).toEqual(expect.any(Number));
    expect(second).toBeNull();

    await worker.runDue();
    const third = await enqueue(
      db,
      'notify.paid',
      { orderId: 42 },
      { uniqueKey: 'order-paid:42', runAt: clock.now() },
    );
    expect(third).toBeNull();
    expect(await worker.runDue()).toBe(0);
    expect(runs).toBe(1);
    expect(await db.select().from(jobs)).toHaveLength(1);
  });

  it('takes over a job whose worker died, once its lock has timed out', async () => {
    const clock = manualClock();
    const id = (await enqueue(db, 'mail.send', {}, { runAt: clock.now() })) as number;
    // A worker claimed it and vanished.
    await db
      .update(jobs)
      .set({ lockedAt: clock.now(), lockedBy: 'dead-worker', attempts: 1 })
      .where(eq(jobs.id, id));
    let runs = 0;
    const worker = createWorker({
      db,
      clock: clock.now,
      lockTimeoutMs: 5 * 60_000,
      log: recordingLog().log,
      handlers: { 'mail.send': async () => void runs++ },
    });

    expect(await worker.runDue()).toBe(0);
    clock.advance(5 * 60_000 + 1);
    expect(await worker.runDue()).toBe(1);
    expect(runs).toBe(1);
    const row = await jobRow(id);
    expect(row.finishedAt).not.toBeNull();
    expect(row.attempts).toBe(2);
  });

  it('takes over the job of a killed instance within seconds, with the default lease', async () => {
    const clock = manualClock();
    const id = (await enqueue(db, 'mail.send', {}, { runAt: clock.now() })) as number;
    // The killed instance's worker claimed it and then renewed nothing.
    await db
      .update(jobs)
      .set({ lockedAt: clock.now(), lockedBy: 'killed', attempts: 1 })
      .where(eq(jobs.id, id));
    let runs = 0;
    const restarted = createWorker({
      db,
      clock: clock.now,
      workerId: 'restarted',
      log: recordingLog().log,
      handlers: { 'mail.send': async () => void runs++ },
    });

    clock.advance(DEFAULT_LOCK_TIMEOUT_MS - 1);
    expect(await restarted.runDue()).toBe(0);
    clock.advance(2);
    expect(DEFAULT_LOCK_TIMEOUT_MS).toBeLessThanOrEqual(15_000);
    expect(await restarted.runDue()).toBe(1);
    expect(runs).toBe(1);
    expect(await jobRow(id)).toMatchObject({ attempts: 2, lockedBy: null });
    expect((await jobRow(id)).finishedAt).not.toBeNull();
  });

  it('keeps the lease of a job that runs longer than the lock timeout while its worker lives', async () => {
    const clock = manualClock();
    const id = (await enqueue(db, 'slow.job', {}, { runAt: clock.now() })) as number;
    let finishSlowJob = () => {};
    const slow = createWorker({
      db,
      clock: clock.now,
      workerId: 'slow',
      lockTimeoutMs: 3_000,
      heartbeatMs: 10,
      log: recordingLog().log,
      handlers: { 'slow.job': () => new Promise<void>((resolve) => (finishSlowJob = resolve)) },
    });
    const running = slow.runDue();
    await expect.poll(async () => (await jobRow(id)).lockedBy).toBe('slow');
    const other = createWorker({
      db,
      clock: clock.now,
      workerId: 'other',
      lockTimeoutMs: 3_000,
      log: recordingLog().log,
      handlers: { 'slow.job': async () => {} },
    });
    for (let second = 0; second < 10; second++) {
      clock.advance(1_000);
      const renewedAt = clock.now().getTime();
      // The heartbeat writes the moved clock into the lease.
      await expect.poll(async () => (await jobRow(id)).lockedAt?.getTime()).toBe(renewedAt);
      expect(await other.runDue()).toBe(0);
    }
    finishSlowJob();
    expect(await running).toBe(1);
    expect(await jobRow(id)).toMatchObject({ attempts: 1, lockedBy: null });
  });

  it('runs the jobs of one sequence in the order they were enqueued, an earlier retry first', async () => {
    const clock = manualClock();
    const ran: string[] = [];
    let placedFails = true;
    const worker = createWorker({
      db,
      clock: clock.now,
      log: recordingLog().log,
      handlers: {
        'order.mail': async (payload) => {
          if (payload.event === 'placed' && placedFails) {
            placedFails = false;
            throw new Error('SMTP is down');
          }
          ran.push(`${payload.order} ${payload.event}`);
        },
      },
    });
    const queue = (order: number, event: string) =>
      enqueue(db, 'order.mail', { order, event }, { runAt: clock.now(), sequence: `order:${order}` });
    await queue(1, 'placed');
    await queue(1, 'cancelled');
    await queue(2, 'placed');

    // Order 1's "placed" fails and waits for its retry; its "cancelled" waits for it; order 2 goes on.
    expect(await worker.runDue()).toBe(2);
    expect(ran).toEqual(['2 placed']);
    clock.advance(backoffMs(1));
    expect(await worker.runDue()).toBe(2);
    expect(ran).toEqual(['2 placed', '1 placed', '1 cancelled']);
  });

  it('runs each job exactly once when two workers race for them', async () => {
    const clock = manualClock();
    const runsPerJob = new Map<number, number>();
    const runsPerWorker = { a: 0, b: 0 };
    const handlerFor =
      (worker: 'a' | 'b'): JobHandler =>
      async (_payload, context) => {
        runsPerJob.set(context.jobId, (runsPerJob.get(context.jobId) ?? 0) + 1);
        runsPerWorker[worker] += 1;
        // Let the other worker get a word in while this job is "running".
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 3));
      };
    const options = { db, clock: clock.now, log: recordingLog().log };
    const a = createWorker({ ...options, workerId: 'worker-a', handlers: { 'race.job': handlerFor('a') } });
    const b = createWorker({ ...options, workerId: 'worker-b', handlers: { 'race.job': handlerFor('b') } });

    const ids: number[] = [];
    for (let round = 0; round < 3; round++) {
      for (let index = 0; index < 30; index++) {
        ids.push((await enqueue(db, 'race.job', { round, index }, { runAt: clock.now() })) as number);
      }
      const counts = await Promise.all([a.runDue(), b.runDue(), a.runDue(), b.runDue()]);
      expect(counts.reduce((sum, count) => sum + count, 0)).toBe(30);
    }

    expect(ids).toHaveLength(90);
    for (const id of ids) expect(runsPerJob.get(id), `job ${id}`).toBe(1);
    expect(runsPerWorker.a + runsPerWorker.b).toBe(90);
    const rows = await db.select().from(jobs);
    expect(rows.every((row) => row.finishedAt !== null && row.attempts === 1)).toBe(true);
  });

  it('brings a recurring job back after each run, keeping one pending occurrence', async () => {
    const clock = manualClock();
    let runs = 0;
    const worker = createWorker({
      db,
      clock: clock.now,
      log: recordingLog().log,
      handlers: { 'rates.tick': async () => void runs++ },
    });
    const hour = 3_600_000;
    await scheduleRecurring(db, 'rates.tick', hour, clock.now);
    // A second instance starting up changes nothing.
    await scheduleRecurring(db, 'rates.tick', hour, clock.now);
    expect(await db.select().from(jobs)).toHaveLength(1);

    expect(await worker.runDue()).toBe(1);
    expect(await worker.runDue()).toBe(0);
    clock.advance(hour - 1);
    expect(await worker.runDue()).toBe(0);
    clock.advance(1);
    expect(await worker.runDue()).toBe(1);
    expect(runs).toBe(2);

    const rows = await db.select().from(jobs).orderBy(jobs.id);
    expect(rows).toHaveLength(3);
    const pending = rows.filter((row) => row.finishedAt === null && row.failedAt === null);
    expect(pending).toHaveLength(1);
    expect(pending[0]?.uniqueKey).toBe(recurringKey('rates.tick'));
    expect(pending[0]?.runAt).toEqual(new Date(clock.now().getTime() + hour));
    expect(rows.filter((row) => row.finishedAt !== null).every((row) => row.uniqueKey === null)).toBe(true);
  });

  it('keeps a recurring job going after an occurrence fails for good', async () => {
    const clock = manualClock();
    let runs = 0;
    const worker = createWorker({
      db,
      clock: clock.now,
      log: recordingLog().log,
      handlers: {
        'rates.tick': async () => {
          runs++;
          throw new Error('both providers down');
        },
      },
    });
    await scheduleRecurring(db, 'rates.tick', 60_000, clock.now);
    await db.update(jobs).set({ maxAttempts: 1 });

    expect(await worker.runDue()).toBe(1);
    const rows = await db.select().from(jobs).orderBy(jobs.id);
    expect(rows).toHaveLength(2);
    expect(rows[0]?.failedAt).not.toBeNull();
    expect(rows[0]?.uniqueKey).toBeNull();
    expect(rows[1]?.uniqueKey).toBe(recurringKey('rates.tick'));
    clock.advance(60_000);
    expect(await worker.runDue()).toBe(1);
    expect(runs).toBe(2);
  });

  it('adopts a shorter period for a recurring job at the next start-up', async () => {
    const clock = manualClock();
    const worker = createWorker({
      db,
      clock: clock.now,
      log: recordingLog().log,
      handlers: { 'rates.tick': async () => {} },
    });
    await scheduleRecurring(db, 'rates.tick', 3_600_000, clock.now);
    await worker.runDue();

    await scheduleRecurring(db, 'rates.tick', 60_000, clock.now);
    const [pending] = await db
      .select()
      .from(jobs)
      .where(eq(jobs.uniqueKey, recurringKey('rates.tick')));
    expect(pending?.runAt).toEqual(new Date(clock.now().getTime() + 60_000));
    expect(pending?.payload).toEqual({ everyMs: 60_000 });
  });

  it('stops only after the job in flight has finished', async () => {
    const clock = manualClock();
    let release: () => void = () => {};
    let started: () => void = () => {};
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    let finished = false;
    const worker = createWorker({
      db,
      clock: clock.now,
      pollMs: 5,
      log: recordingLog().log,
      handlers: {
        'slow.job': async () => {
          started();
          await new Promise<void>((resolve) => {
            release = resolve;
          });
          finished = true;
        },
      },
    });
    const id = (await enqueue(db, 'slow.job', {}, { runAt: clock.now() })) as number;
    await enqueue(db, 'slow.job', {}, { runAt: clock.now() });

    worker.start();
    await running;
    const stopped = worker.stop();
    setTimeout(() => release(), 20);
    await stopped;

    expect(finished).toBe(true);
    expect((await jobRow(id)).finishedAt).not.toBeNull();
    // The second job was left for another worker.
    const pending = await db.select().from(jobs).where(eq(jobs.attempts, 0));
    expect(pending).toHaveLength(1);
  });
});

describe('a worker that gives way to requests', () => {
  it('waits while the event loop is busy, at most its budget, and at once when it is not', async () => {
    const ran: number[] = [];
    const worker = createWorker({
      db,
      log: recordingLog().log,
      pollMs: 60_000,
      yieldWhileBusyMs: 400,
      handlers: {
        'mail.send': async () => {
          ran.push(performance.now());
        },
      },
    });
    // Due by the worker's clock: the database's now() has microseconds, so a job it dated within
    // the claim's millisecond would wait for the next poll (a minute here).
    await enqueue(db, 'mail.send', {}, { runAt: new Date() });
    // Requests keep the loop busy for 1.5 s: 9 ms of work in every 10.
    const busyUntil = performance.now() + 1_500;
    const busy = setInterval(() => {
      const end = performance.now() + 9;
      while (performance.now() < end && performance.now() < busyUntil);
      if (performance.now() >= busyUntil) clearInterval(busy);
    }, 1);
    const started = performance.now();
    worker.start();
    await expect.poll(() => ran.length, { timeout: 5_000, interval: 20 }).toBe(1);
    const waited = (ran[0] ?? 0) - started;
    // Deferred by its budget, not until the loop was free.
    expect(waited).toBeGreaterThanOrEqual(350);
    expect(waited).toBeLessThan(1_400);
    await worker.stop();
    clearInterval(busy);

    // An idle loop: the next job goes at once.
    await enqueue(db, 'mail.send', {}, { runAt: new Date() });
    const idleStart = performance.now();
    worker.start();
    await expect.poll(() => ran.length, { timeout: 5_000, interval: 10 }).toBe(2);
    expect((ran[1] ?? 0) - idleStart).toBeLessThan(300);
    await worker.stop();
  });
});

describe('purging ended jobs', () => {
  it('deletes jobs that ended before the date, but keeps keyed, pending and recent ones', async () => {
    const now = new Date('2026-11-21T09:00:00Z');
    const daysAgo = (days: number) => new Date(now.getTime() - days * 24 * 3600_000);
    const rows = await db
      .insert(jobs)
      .values([
        { kind: 'mail.send', finishedAt: daysAgo(40) },
        { kind: 'mail.send', failedAt: daysAgo(40) },
        { kind: 'orders.expire', finishedAt: daysAgo(31) },
        { kind: 'mail.send', uniqueKey: 'order-paid:42', finishedAt: daysAgo(40) },
        { kind: 'mail.send', finishedAt: daysAgo(5) },
        { kind: 'mail.send', runAt: daysAgo(40) },
        { kind: 'orders.expire', uniqueKey: recurringKey('orders.expire'), runAt: now },
      ])
      .returning({ id: jobs.id, kind: jobs.kind, uniqueKey: jobs.uniqueKey });

    expect(await purgeEndedJobs(db, daysAgo(30))).toBe(3);
    const left = await db.select({ id: jobs.id }).from(jobs);
    expect(left.map((row) => row.id).sort((a, b) => a - b)).toEqual(rows.slice(3).map((row) => row.id));
    expect(await purgeEndedJobs(db, daysAgo(30))).toBe(0);
  });
});
