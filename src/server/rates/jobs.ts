import type { Executor } from '../db/client.ts';
import { type JobHandler, scheduleRecurring } from '../jobs/queue.ts';
import type { RateKeeper } from './service.ts';

/** Queue kind of the recurring USD rate refresh. */
export const RATE_REFRESH_JOB = 'rates.refresh';

/**
 * Refreshes the rate through the keeper, so the instance that ran the job sees the new value at
 * once. Provider failures do not fail the job: the last stored rate stays in force and the next
 * occurrence tries again. Other instances pick the new rate up with `keeper.load()`.
 */
export function rateRefreshHandler(keeper: RateKeeper): JobHandler {
  return async () => {
    await keeper.refresh();
  };
}

/** Makes sure the refresh runs every `refreshMinutes` (config.rates.refreshMinutes); first run at once. */
export function scheduleRateRefresh(
  db: Executor,
  refreshMinutes: number,
  clock: () => Date = () => new Date(),
): Promise<void> {
  return scheduleRecurring(db, RATE_REFRESH_JOB, refreshMinutes * 60_000, clock);
}
