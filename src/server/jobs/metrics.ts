import { and, count, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { jobs } from '../db/schema.ts';
import { counter, gauge } from '../metrics.ts';

/** What became of a claimed job: done, failed and planned again, failed for good, or lost its lease. */
export type JobOutcome = 'finished' | 'retried' | 'failed' | 'dropped';

export const jobOutcomes = counter({
  name: 'vitrina_jobs_processed_total',
  help: 'Jobs this instance ran, by kind and outcome (finished, retried, failed for good, dropped lease)',
  labelNames: ['kind', 'outcome'],
});

const JOB_STATES = ['pending', 'scheduled', 'running'] as const;

const queuedJobs = gauge({
  name: 'vitrina_jobs',
  help: 'Unfinished jobs in the shared queue by kind: pending (due, waiting for a worker), scheduled (due later: retries, next recurring runs), running (claimed)',
  labelNames: ['kind', 'state'],
});

/**
 * Reads the queue's unfinished jobs into the `vitrina_jobs` gauge, in one query over the queue's
 * partial index (finished and failed jobs are not scanned). Called on each scrape; when the query
 * fails, the series are absent rather than stale.
 */
export async function refreshQueuedJobs(db: Executor, now = new Date()): Promise<void> {
  queuedJobs.reset();
  const due = sql`${jobs.runAt} <= ${now.toISOString()}::timestamptz`;
  const rows = await db
    .select({
      kind: jobs.kind,
      pending: count(sql`case when ${jobs.lockedAt} is null and ${due} then 1 end`),
      scheduled: count(sql`case when ${jobs.lockedAt} is null and not ${due} then 1 end`),
      running: count(jobs.lockedAt),
    })
    .from(jobs)
    .where(and(isNull(jobs.finishedAt), isNull(jobs.failedAt)))
    .groupBy(jobs.kind);
  for (const row of rows) {
    for (const state of JOB_STATES) queuedJobs.set({ kind: row.kind, state }, row[state]);
  }
}
