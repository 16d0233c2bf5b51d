import type { Recorder } from './shopper.ts';

/** Response times and statuses per kind of request, with nearest-rank percentiles. */

export interface KindSummary {
  requests: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  /** Responses per HTTP status, plus `connection-error` for requests that got none. */
  statuses: Record<string, number>;
}

function percentile(sorted: number[], fraction: number): number {
  if (sorted.length === 0) return 0;
  const index = Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1);
  return Math.round((sorted[Math.max(0, index)] ?? 0) * 10) / 10;
}

function summarize(durations: number[], statuses: Map<string, number>): KindSummary {
  const sorted = [...durations].sort((x, y) => x - y);
  return {
    requests: sorted.length,
    p50: percentile(sorted, 0.5),
    p95: percentile(sorted, 0.95),
    p99: percentile(sorted, 0.99),
    max: percentile(sorted, 1),
    statuses: Object.fromEntries([...statuses].sort()),
  };
}

export class Latencies implements Recorder {
  private readonly durations = new Map<string, number[]>();
  private readonly statuses = new Map<string, Map<string, number>>();

  record(kind: string, milliseconds: number, status: number | 'connection-error') {
    const durations = this.durations.get(kind) ?? [];
    durations.push(milliseconds);
    this.durations.set(kind, durations);
    const statuses = this.statuses.get(kind) ?? new Map<string, number>();
    statuses.set(String(status), (statuses.get(String(status)) ?? 0) + 1);
    this.statuses.set(kind, statuses);
  }

  /** Every kind, sorted by name, and `all` over every request. */
  summary(): { all: KindSummary; kinds: Record<string, KindSummary> } {
    const kinds = Object.fromEntries(
      [...this.durations.keys()]
        .sort()
        .map((kind) => [
          kind,
          summarize(this.durations.get(kind) ?? [], this.statuses.get(kind) ?? new Map()),
        ]),
    );
    const allStatuses = new Map<string, number>();
    for (const statuses of this.statuses.values())
      for (const [status, count] of statuses) allStatuses.set(status, (allStatuses.get(status) ?? 0) + count);
    return { all: summarize([...this.durations.values()].flat(), allStatuses), kinds };
  }

  /** Requests answered 5xx or not at all, per kind and status. */
  failures(): Record<string, number> {
    const failures: Record<string, number> = {};
    for (const [kind, statuses] of this.statuses)
      for (const [status, count] of statuses)
        if (status === 'connection-error' || Number(status) >= 500) failures[`${kind} ${status}`] = count;
    return failures;
  }
}

/** A fixed-width table of a summary for the test log. */
export function formatSummary(summary: ReturnType<Latencies['summary']>, seconds: number): string {
  const rows = [...Object.entries(summary.kinds), ['all', summary.all] as const];
  const header = `${'kind'.padEnd(22)}${'requests'.padStart(9)}${'req/s'.padStart(8)}${'p50 ms'.padStart(9)}${'p95 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'max ms'.padStart(9)}  statuses`;
  const lines = rows.map(
    ([kind, row]) =>
      `${kind.padEnd(22)}${String(row.requests).padStart(9)}${(row.requests / seconds).toFixed(1).padStart(8)}${String(row.p50).padStart(9)}${String(row.p95).padStart(9)}${String(row.p99).padStart(9)}${String(row.max).padStart(9)}  ${Object.entries(
        row.statuses,
      )
        .map(([status, count]) => `${status}×${count}`)
        .join(' ')}`,
  );
  return [header, ...lines].join('\n');
}
