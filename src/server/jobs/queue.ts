import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { and, eq, isNull, lt, lte, notExists, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Database, Executor } from '../db/client.ts';
import { jobs } from '../db/schema.ts';
import { type JobOutcome, jobOutcomes } from './metrics.ts';

/**
 * A durable job queue in the `jobs` table, shared by every instance of the shop.
 *
 * Claiming: one `update … where id = (select … for update skip locked limit 1) returning *`
 * statement marks a due job as taken (`locked_at`, `locked_by`, `attempts + 1`) and commits at once,
 * so two workers — in one process or in many — never take the same job. The handler then runs
 * outside any transaction; the lock is a short lease (ADR 0055): while the handler runs, the worker
 * renews it (`locked_at` = now) every third of the lock timeout, so a job whose worker died — a
 * crashed or killed instance renews nothing — is taken again by any instance within seconds, once
 * its `locked_at` is older than the lock timeout. Finishing and failing check that the lease is
 * still ours (`locked_by` and `attempts` unchanged), so a worker that lost its lease cannot
 * overwrite the outcome of the worker that took the job over.
 *
 * Sequences: jobs enqueued with the same `sequence` (kept in `payload.sequence`) run one after
 * another in the order they were enqueued: a job is not claimed while an earlier one of its
 * sequence has neither finished nor failed for good, even while that one waits for a retry. The
 * mails of one order are such a sequence, so they go out in the order of the order's events.
 *
 * Unique keys: the unique index `jobs_unique_key` covers all rows, finished ones included. For
 * ordinary jobs that is the point (a notification keyed `order-paid:42` is enqueued once, ever).
 *
 * Recurring jobs use the key `recurring:<kind>` and carry their period in `payload.everyMs`. The key
 * marks the one pending occurrence; when an occurrence finishes (or fails for good) the worker, in
 * one transaction, clears that row's `unique_key` and inserts the next occurrence with the key, due
 * `everyMs` later. The key therefore always belongs to the single pending occurrence, there is never
 * a moment with no pending occurrence (a crash rolls both changes back), and `scheduleRecurring` at
 * start-up is a no-op apart from adopting a changed period. A failed attempt of a recurring job is
 * retried with backoff like any job; after the last attempt it is marked failed and the next
 * occurrence is still scheduled, so one bad run never stops the schedule.
 */

export type JobPayload = Record<string, unknown>;

export interface JobContext {
  jobId: number;
  kind: string;
  /** 1 for the first run, 2 for the first retry, … */
  attempt: number;
  maxAttempts: number;
  /** The worker's clock at the moment the job was claimed. */
  now: Date;
}

export type JobHandler = (payload: JobPayload, context: JobContext) => Promise<void>;

/** The part of a pino (Fastify) logger the queue uses. */
export interface QueueLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface EnqueueOptions {
  /** Not before this moment; now by default. */
  runAt?: Date;
  /** A second job with the same key is never enqueued, not even after the first has finished. */
  uniqueKey?: string;
  maxAttempts?: number;
  /** Runs only after every earlier job of this sequence has finished or failed for good. */
  sequence?: string;
}

/** Unique key prefix reserved for recurring jobs; do not use it in `enqueue`. */
export const RECURRING_KEY_PREFIX = 'recurring:';
export const recurringKey = (kind: string) => `${RECURRING_KEY_PREFIX}${kind}`;

/**
 * After this long without its lease renewed, a claimed job counts as abandoned and may be claimed
 * again. A running job's worker renews the lease every third of it.
 */
export const DEFAULT_LOCK_TIMEOUT_MS = 15_000;
const DEFAULT_POLL_MS = 1_000;
const BACKOFF_BASE_MS = 10_000;
const BACKOFF_CAP_MS = 60 * 60_000;
const LAST_ERROR_LIMIT = 4_000;

/** Delay before the next attempt after `attempts` failed ones: 2^attempts × 10 s, at most an hour. */
export function backoffMs(attempts: number): number {
  return Math.min(2 ** attempts * BACKOFF_BASE_MS, BACKOFF_CAP_MS);
}

/** A job's payload as stored: a sequence is kept in it (`payload.sequence`). */
export const jobPayload = (payload: JobPayload, sequence: string | undefined): JobPayload =>
  sequence === undefined ? payload : { ...payload, sequence };

/**
 * Adds a job. Takes a transaction too, so a job can be enqueued together with the change that
 * calls for it. With `uniqueKey`, returns null when a job with that key already exists.
 */
export async function enqueue(
  db: Executor,
  kind: string,
  payload: JobPayload,
  options: EnqueueOptions = {},
): Promise<number | null> {
  const values = {
    kind,
    payload: jobPayload(payload, options.sequence),
    uniqueKey: options.uniqueKey ?? null,
    ...(options.runAt ? { runAt: options.runAt } : {}),
    ...(options.maxAttempts ? { maxAttempts: options.maxAttempts } : {}),
  };
  const inserted =
    options.uniqueKey === undefined
      ? await db.insert(jobs).values(values).returning({ id: jobs.id })
      : await db
          .insert(jobs)
          .values(values)
          .onConflictDoNothing({ target: jobs.uniqueKey })
          .returning({ id: jobs.id });
  return inserted[0]?.id ?? null;
}

/**
 * Makes sure exactly one pending occurrence of the recurring job `kind` exists. The first one is due
 * at once; when one is already pending it stays as it is, except that a changed period is adopted
 * and an occurrence planned further away than `everyMs` is brought forward.
 */
export async function scheduleRecurring(
  db: Executor,
  kind: string,
  everyMs: number,
  clock: () => Date = () => new Date(),
): Promise<void> {
  if (!Number.isFinite(everyMs) || everyMs <= 0)
    throw new RangeError(`everyMs must be positive, got ${everyMs}`);
  const now = clock();
  const latest = new Date(now.getTime() + everyMs);
  await db
    .insert(jobs)
    .values({ kind, payload: { everyMs }, uniqueKey: recurringKey(kind), runAt: now })
    .onConflictDoUpdate({
      target: jobs.uniqueKey,
      set: {
        payload: sql`excluded.payload`,
        runAt: sql`least(${jobs.runAt}, ${latest.toISOString()}::timestamptz)`,
      },
    });
}

/** How long a finished or failed job stays in the table for inspection. */
export const ENDED_JOBS_KEPT_DAYS = 30;

/**
 * Deletes jobs that ended (finished or failed for good) before `before`, except those holding a
 * unique key: the key is what keeps a keyed notification from ever being enqueued twice. Ended
 * occurrences of recurring jobs hold none (the next occurrence takes the key). Returns how many.
 */
export async function purgeEndedJobs(db: Executor, before: Date): Promise<number> {
  const deleted = await db
    .delete(jobs)
    .where(and(isNull(jobs.uniqueKey), or(lt(jobs.finishedAt, before), lt(jobs.failedAt, before))))
    .returning({ id: jobs.id });
  return deleted.length;
}

export interface WorkerOptions {
  db: Database;
  handlers: Record<string, JobHandler>;
  clock?: () => Date;
  /** Names this worker in `locked_by`; unique per process. */
  workerId?: string;
  /** Pause between polls when no job is due. */
  pollMs?: number;
  lockTimeoutMs?: number;
  /** How often a running job's lease is renewed; a third of `lockTimeoutMs` by default. */
  heartbeatMs?: number;
  /**
   * The polling worker gives way to the process's requests: before each job it waits while the
   * event loop is busy, up to this long in all per poll (0, the default, never waits). A drop's
   * 200 "order placed" mails then go out just after its orders are answered, in their order.
   */
  yieldWhileBusyMs?: number;
  log: QueueLog;
}

export interface Worker {
  /** Polls for due jobs every `pollMs` until `stop()`. */
  start(): void;
  /** Stops polling and waits for the job in flight, if any. */
  stop(): Promise<void>;
  /** Runs due jobs one at a time until none is due; returns how many it ran. */
  runDue(): Promise<number>;
}

type JobRow = typeof jobs.$inferSelect;

/** The earlier jobs of a sequence, in the claim's subquery. */
const earlier = alias(jobs, 'earlier');

type Outcome = { ok: true } | { ok: false; error: string; final?: boolean };

/** The event loop counts as busy while it runs code this share of the time or more. */
const BUSY_UTILIZATION = 0.5;
/** How long each look at the event loop's utilisation lasts. */
const BUSY_LOOK_MS = 10;

/**
 * Waits while the event loop is busy (its utilisation over a short look at or above
 * BUSY_UTILIZATION), at most `budgetMs`; answers how long it waited.
 */
async function waitWhileBusy(budgetMs: number): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < budgetMs) {
    const before = performance.eventLoopUtilization();
    await sleep(BUSY_LOOK_MS);
    if (performance.eventLoopUtilization(before).utilization < BUSY_UTILIZATION) break;
  }
  return performance.now() - started;
}

export function createWorker(options: WorkerOptions): Worker {
  const { db, handlers, log } = options;
  const clock = options.clock ?? (() => new Date());
  const workerId = options.workerId ?? `worker-${process.pid}-${Math.random().toString(36).slice(2, 10)}`;
  const pollMs = options.pollMs ?? DEFAULT_POLL_MS;
  const lockTimeoutMs = options.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS;
  const heartbeatMs = options.heartbeatMs ?? lockTimeoutMs / 3;

  let stopping = false;
  let polling = false;
  let timer: NodeJS.Timeout | undefined;
  const active = new Set<Promise<unknown>>();

  async function claim(): Promise<JobRow | undefined> {
    const now = clock();
    const staleBefore = new Date(now.getTime() - lockTimeoutMs);
    const due = db
      .select({ id: jobs.id })
      .from(jobs)
      .where(
        and(
          isNull(jobs.finishedAt),
          isNull(jobs.failedAt),
          lte(jobs.runAt, now),
          or(isNull(jobs.lockedAt), lt(jobs.lockedAt, staleBefore)),
          or(
            sql`${jobs.payload}->>'sequence' is null`,
            notExists(
              db
                .select({ id: earlier.id })
                .from(earlier)
                .where(
                  and(
                    sql`${earlier.payload}->>'sequence' = ${jobs.payload}->>'sequence'`,
                    lt(earlier.id, jobs.id),
                    isNull(earlier.finishedAt),
                    isNull(earlier.failedAt),
                  ),
                ),
            ),
          ),
        ),
      )
      .orderBy(jobs.runAt, jobs.id)
      .limit(1)
      .for('update', { skipLocked: true });
    const [claimed] = await db
      .update(jobs)
      .set({ lockedAt: now, lockedBy: workerId, attempts: sql`${jobs.attempts} + 1` })
      .where(eq(jobs.id, sql`(${due})`))
      .returning();
    return claimed;
  }

  /** The lease is still ours: nobody took the job over after our lock timed out. */
  const stillOurs = (job: JobRow) =>
    and(eq(jobs.id, job.id), eq(jobs.lockedBy, workerId), eq(jobs.attempts, job.attempts));

  /** The running job's lease, renewed: it stays ours while this worker is alive. */
  async function renew(job: JobRow): Promise<void> {
    try {
      const renewed = await db
        .update(jobs)
        .set({ lockedAt: clock() })
        .where(stillOurs(job))
        .returning({ id: jobs.id });
      if (renewed.length === 0) {
        log.warn({ jobId: job.id, kind: job.kind, workerId }, 'job lease lost: another worker took it over');
      }
    } catch (error) {
      log.warn({ err: error, jobId: job.id, kind: job.kind, workerId }, 'job lease renewal failed');
    }
  }

  const isRecurring = (job: JobRow) =>
    job.uniqueKey === recurringKey(job.kind) &&
    typeof job.payload.everyMs === 'number' &&
    job.payload.everyMs > 0;

  /** Ends a recurring occurrence (finished or failed) and plans the next one, atomically. */
  async function closeRecurring(job: JobRow, end: Partial<JobRow>, now: Date): Promise<boolean> {
    return db.transaction(async (transaction) => {
      const [closed] = await transaction
        .update(jobs)
        .set({ ...end, uniqueKey: null, lockedAt: null, lockedBy: null })
        .where(stillOurs(job))
        .returning({ payload: jobs.payload });
      if (!closed) return false;
      // The period as stored now: scheduleRecurring may have changed it while the job ran.
      const everyMs =
        typeof closed.payload.everyMs === 'number' ? closed.payload.everyMs : Number(job.payload.everyMs);
      await enqueue(transaction, job.kind, closed.payload, {
        uniqueKey: recurringKey(job.kind),
        runAt: new Date(now.getTime() + everyMs),
        maxAttempts: job.maxAttempts,
      });
      return true;
    });
  }

  async function settle(job: JobRow, outcome: Outcome): Promise<void> {
    const now = clock();
    const recurring = isRecurring(job);
    let recorded: boolean;
    let reached: JobOutcome;
    if (outcome.ok) {
      reached = 'finished';
      const end = { finishedAt: now };
      recorded = recurring
        ? await closeRecurring(job, end, now)
        : (
            await db
              .update(jobs)
              .set({ ...end, lockedAt: null, lockedBy: null })
              .where(stillOurs(job))
              .returning({ id: jobs.id })
          ).length > 0;
    } else if (outcome.final || job.attempts >= job.maxAttempts) {
      reached = 'failed';
      const end = { failedAt: now, lastError: outcome.error.slice(0, LAST_ERROR_LIMIT) };
      // A job nobody can run is not planned again, recurring or not.
      recorded =
        recurring && Object.hasOwn(handlers, job.kind)
          ? await closeRecurring(job, end, now)
          : (
              await db
                .update(jobs)
                .set({ ...end, lockedAt: null, lockedBy: null, ...(recurring ? { uniqueKey: null } : {}) })
                .where(stillOurs(job))
                .returning({ id: jobs.id })
            ).length > 0;
      if (recorded)
        log.error(
          { jobId: job.id, kind: job.kind, attempts: job.attempts, error: outcome.error },
          'job failed for good',
        );
    } else {
      reached = 'retried';
      const retryAt = new Date(now.getTime() + backoffMs(job.attempts));
      recorded =
        (
          await db
            .update(jobs)
            .set({
              runAt: retryAt,
              lastError: outcome.error.slice(0, LAST_ERROR_LIMIT),
              lockedAt: null,
              lockedBy: null,
            })
            .where(stillOurs(job))
            .returning({ id: jobs.id })
        ).length > 0;
      if (recorded) {
        log.warn(
          { jobId: job.id, kind: job.kind, attempts: job.attempts, retryAt, error: outcome.error },
          'job failed, will retry',
        );
      }
    }
    jobOutcomes.inc({ kind: job.kind, outcome: recorded ? reached : 'dropped' });
    if (!recorded) {
      log.warn(
        { jobId: job.id, kind: job.kind, workerId },
        'job outcome dropped: its lock expired and another worker took it',
      );
    }
  }

  async function runOne(job: JobRow): Promise<void> {
    const handler = Object.hasOwn(handlers, job.kind) ? handlers[job.kind] : undefined;
    if (!handler) {
      await settle(job, {
        ok: false,
        final: true,
        error: `No handler is registered for job kind "${job.kind}"`,
      });
      return;
    }
    if (job.attempts > job.maxAttempts) {
      // Its last attempt never reported back (the process died while running it).
      await settle(job, {
        ok: false,
        final: true,
        error: `Abandoned: attempt ${job.maxAttempts} of ${job.maxAttempts} never finished (last error: ${job.lastError ?? 'none'})`,
      });
      return;
    }
    let outcome: Outcome;
    const heartbeat = setInterval(() => void renew(job), heartbeatMs);
    try {
      await handler(job.payload, {
        jobId: job.id,
        kind: job.kind,
        attempt: job.attempts,
        maxAttempts: job.maxAttempts,
        now: job.lockedAt ?? clock(),
      });
      outcome = { ok: true };
    } catch (error) {
      outcome = { ok: false, error: error instanceof Error ? (error.stack ?? error.message) : String(error) };
    } finally {
      clearInterval(heartbeat);
    }
    await settle(job, outcome);
  }

  async function drain(yieldBudgetMs = 0): Promise<number> {
    let count = 0;
    let budget = yieldBudgetMs;
    while (!stopping) {
      const job = await claim();
      if (!job) break;
      // Claimed, so that its lease is ours while it waits (far shorter than the lock timeout).
      if (budget > 0) budget -= await waitWhileBusy(budget);
      await runOne(job);
      count += 1;
    }
    return count;
  }

  function runDue(yieldBudgetMs = 0): Promise<number> {
    const run = drain(yieldBudgetMs);
    active.add(run);
    const forget = () => active.delete(run);
    run.then(forget, forget);
    return run;
  }

  async function poll(): Promise<void> {
    try {
      await runDue(options.yieldWhileBusyMs ?? 0);
    } catch (error) {
      log.error({ err: error, workerId }, 'job queue poll failed');
    }
    if (polling) timer = setTimeout(poll, pollMs);
  }

  return {
    start() {
      if (polling) return;
      polling = true;
      stopping = false;
      void poll();
    },
    async stop() {
      polling = false;
      stopping = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
      await Promise.allSettled([...active]);
    },
    runDue: () => runDue(),
  };
}
