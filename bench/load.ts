import autocannon, { type Instance, type Result } from 'autocannon';

export interface LoadTarget {
  /** Key used in the JSON results and in the ratio targets. */
  id: string;
  /** Human-readable name for the table. */
  name: string;
  url: string;
  headers?: Record<string, string>;
}

export interface LoadSettings {
  connections: number;
  /** Seconds measured. */
  duration: number;
  /** Seconds of load thrown away before the measured run; 0 for none. */
  warmup: number;
}

export interface LoadResult {
  id: string;
  name: string;
  url: string;
  /** Mean of the per-second request counts of the measured run. */
  requestsPerSecond: number;
  latencyMs: { average: number; p50: number; p90: number; p99: number; max: number };
  totalRequests: number;
  /** Bytes per second, mean. */
  throughput: number;
  statusCodes: Record<string, number>;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** Human-readable problems (non-2xx answers, connection errors); empty when the run was clean. */
  problems: string[];
}

let current: Instance | undefined;

/** Stops the load test in progress, if any (used on Ctrl-C). */
export function stopLoad() {
  current?.stop();
}

async function fire(target: LoadTarget, connections: number, duration: number): Promise<Result> {
  current = autocannon({
    url: target.url,
    connections,
    duration,
    timeout: 10,
    headers: target.headers,
    title: target.name,
  });
  try {
    return await current;
  } finally {
    current = undefined;
  }
}

export async function runLoad(target: LoadTarget, settings: LoadSettings): Promise<LoadResult> {
  if (settings.warmup > 0) await fire(target, settings.connections, settings.warmup);
  const result = await fire(target, settings.connections, settings.duration);

  const statusCodes = Object.fromEntries(
    Object.entries(result.statusCodeStats ?? {}).map(([code, { count }]) => [code, Number(count)]),
  );
  const problems: string[] = [];
  if (result.non2xx > 0) {
    const codes = Object.entries(statusCodes)
      .filter(([code]) => !code.startsWith('2'))
      .map(([code, count]) => `${count}× ${code}`)
      .join(', ');
    problems.push(`${result.non2xx} non-2xx responses (${codes})`);
  }
  if (result.errors > 0) problems.push(`${result.errors} connection errors (${result.timeouts} timeouts)`);
  if (result.requests.total === 0 && result['2xx'] === 0) problems.push('no response at all');

  return {
    id: target.id,
    name: target.name,
    url: target.url,
    requestsPerSecond: result.requests.average,
    latencyMs: {
      average: result.latency.average,
      p50: result.latency.p50,
      p90: result.latency.p90,
      p99: result.latency.p99,
      max: result.latency.max,
    },
    totalRequests: result.requests.total,
    throughput: result.throughput.average,
    statusCodes,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    problems,
  };
}
