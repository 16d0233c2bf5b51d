import { readFileSync } from 'node:fs';
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
  /** Most seconds of load thrown away before the measured run (see `warmUp`); 0 for none. */
  warmup: number;
}

export interface LoadResult {
  id: string;
  name: string;
  url: string;
  /** Seconds of warm-up before the measured run. */
  warmupSeconds: number;
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
  /**
   * CPU time per answer of the measured run, in µs (user and system): `server`, the process that
   * answered (where /proc shows it); `client`, the bench's own process, where autocannon runs (and
   * a row's background work). A row whose client time per answer is near its server's is bound by
   * autocannon, not by the server: autocannon 8 decodes every body as UTF-8 text (ADR 0091).
   */
  cpuMicrosPerRequest: { server: number | undefined; client: number };
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

export const WARMUP_WINDOW_SECONDS = 2;
/** Two warm-up windows whose rates differ by at most this share: the rate has settled. */
export const SETTLED = 0.03;

/**
 * Loads the target in windows of `WARMUP_WINDOW_SECONDS` until two in a row agree within `SETTLED`,
 * or for `settings.warmup` seconds at most. A server-rendered page keeps getting faster for 10 s or
 * more as V8 optimizes its code, where a bare route is warm within a second: a fixed short warm-up
 * measured the page's start-up, not its steady rate.
 */
async function warmUp(target: LoadTarget, settings: LoadSettings): Promise<number> {
  let seconds = 0;
  let previousRate = 0;
  while (seconds < settings.warmup) {
    const window = await fire(target, settings.connections, WARMUP_WINDOW_SECONDS);
    seconds += WARMUP_WINDOW_SECONDS;
    const rate = window.requests.average;
    if (previousRate > 0 && Math.abs(rate - previousRate) <= SETTLED * previousRate) break;
    previousRate = rate;
  }
  return seconds;
}

/** CPU time of a process so far in µs (user and system), from /proc; undefined where there is none. */
function processCpuMicros(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    // The fields after the command's name, which ends at the last ')': utime and stime are the
    // 12th and 13th, in USER_HZ ticks (100 a second on Linux).
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return undefined;
  }
}

/** Loads the target, warmed up; `serverPid` is the process that answers it, whose CPU time is reported. */
export async function runLoad(
  target: LoadTarget,
  settings: LoadSettings,
  serverPid?: number,
): Promise<LoadResult> {
  const warmupSeconds = await warmUp(target, settings);
  const serverBefore = processCpuMicros(serverPid);
  const clientBefore = process.cpuUsage();
  const result = await fire(target, settings.connections, settings.duration);
  const client = process.cpuUsage(clientBefore);
  const serverAfter = processCpuMicros(serverPid);
  const answers = Math.max(result.requests.total, 1);

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
    warmupSeconds,
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
    cpuMicrosPerRequest: {
      server:
        serverBefore === undefined || serverAfter === undefined
          ? undefined
          : (serverAfter - serverBefore) / answers,
      client: (client.user + client.system) / answers,
    },
  };
}
