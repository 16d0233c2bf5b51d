import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createServer } from 'node:net';

/** A child server process started by the bench, with the tail of its output for error messages. */
export interface Child {
  name: string;
  process: ChildProcess;
  baseUrl: string;
  output: () => string;
  stop: () => Promise<void>;
}

const running = new Set<Child>();

/** Kills whatever is still running; synchronous so that it also works from an `exit` handler. */
export function killAllNow() {
  for (const child of running) {
    if (child.process.exitCode === null && child.process.signalCode === null) child.process.kill('SIGKILL');
  }
  running.clear();
}

export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no free port')),
      );
    });
  });

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts `node [nodeFlags] <script>` (through tsx for a `.ts` one) listening on 127.0.0.1:<port>. */
export function startNodeServer(options: {
  name: string;
  script: string;
  /** Node's own flags, such as the compiled server's (SERVER_NODE_FLAGS). */
  nodeFlags?: readonly string[];
  port: number;
  env: Record<string, string>;
  cwd: string;
}): Child {
  const loader = options.script.endsWith('.ts') ? ['--import', 'tsx'] : [];
  const child = spawn(process.execPath, [...(options.nodeFlags ?? []), ...loader, options.script], {
    cwd: options.cwd,
    env: { ...process.env, ...options.env, PORT: String(options.port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const handle: Child = {
    name: options.name,
    process: child,
    baseUrl: `http://127.0.0.1:${options.port}`,
    output: () => output,
    stop: async () => {
      running.delete(handle);
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const stopped = await Promise.race([exited.then(() => true), sleep(10_000).then(() => false)]);
      if (!stopped) {
        child.kill('SIGKILL');
        await exited;
      }
    },
  };
  running.add(handle);
  return handle;
}

/** Polls `url` until it answers 200, the process exits, or the deadline passes. */
export async function waitUntilReady(child: Child, url: string, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.process.exitCode !== null || child.process.signalCode !== null) {
      throw new Error(`${child.name} exited before it was ready:\n${child.output()}`);
    }
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(5_000) });
      await response.arrayBuffer();
      if (response.status === 200) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      throw new Error(
        `${child.name} did not answer 200 on ${url} within ${timeoutMs / 1000} s:\n${child.output()}`,
      );
    }
    await sleep(300);
  }
}

/**
 * The resident set of `pid` and of every process below it, in MB (from `ps`, so that the seeding
 * child a first start forks counts with its parent), with the number of processes; zero when it has
 * exited.
 */
export function processTreeRss(pid: number): { rss: number; processes: number } {
  const listing = execFileSync('ps', ['-A', '-o', 'pid=,ppid=,rss='], { encoding: 'utf8' });
  const rows = listing
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number) as [number, number, number]);
  const tree = new Set([pid]);
  // Parents may be listed after their children: go round until nothing is added.
  for (let added = true; added; ) {
    added = false;
    for (const [each, parent] of rows) {
      if (tree.has(parent) && !tree.has(each)) {
        tree.add(each);
        added = true;
      }
    }
  }
  const members = rows.filter(([each]) => tree.has(each));
  const kilobytes = members.reduce((sum, [, , rss]) => sum + rss, 0);
  return { rss: Math.round(kilobytes / 1024), processes: members.length };
}
