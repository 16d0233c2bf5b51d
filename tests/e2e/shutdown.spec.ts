import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { openDatabase } from '../../src/server/db/client.ts';
import { feedback } from '../../src/server/db/schema.ts';
import { answerTo, send } from './raw-http.ts';

/**
 * Graceful shutdown of the built shop, started as `npm run serve` does, in an instance of its own
 * (not the journeys' shared server): SIGTERM turns readiness to 503 at once, the server keeps
 * answering for the drain, then refuses new connections, lets a slow upload in flight finish and
 * write to the database, and the process exits 0 once the database is closed. On PostgreSQL when
 * TEST_DATABASE_URL is set, else on PGlite in a fresh data folder.
 *
 * It lives with the browser suite because it needs the web build (`main.ts` refuses to start
 * without one, and Vite's dev server ends the process on SIGTERM by itself).
 */

const DRAIN_SECONDS = 2;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const freePort = () =>
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

/** Polls until `done` says yes; `attempt` may throw (not listening yet, refused). */
async function until<T>(what: string, attempt: () => Promise<T>, done: (value: T) => boolean, ms: number) {
  const deadline = Date.now() + ms;
  let last: unknown;
  for (;;) {
    try {
      const value = await attempt();
      if (done(value)) return value;
      last = value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline)
      throw new Error(`${what}: still not so after ${ms} ms (last: ${String(last)})`);
    await sleep(100);
  }
}

/** A database of its own on the test PostgreSQL server, or none (PGlite in the data folder). */
async function createServerDatabase(): Promise<{ url: string; drop(): Promise<void> } | undefined> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) return undefined;
  const name = `vitrina_shutdown_${randomBytes(6).toString('hex')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`drop database if exists ${name} with (force)`) };
}

describe('graceful shutdown of the shop process', () => {
  let child: ChildProcess;
  let exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  let output = '';
  let port: number;
  let dataDir: string;
  let serverDatabase: Awaited<ReturnType<typeof createServerDatabase>>;

  beforeAll(async () => {
    port = await freePort();
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'vitrina-shutdown-'));
    serverDatabase = await createServerDatabase();
    child = spawn(process.execPath, ['--import', 'tsx', 'src/server/app/main.ts'], {
      env: {
        ...process.env,
        NODE_ENV: 'production',
        TEST_MODE: 'true',
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        SESSION_SECRET: 'shutdown-test-session-secret-long-enough-for-production',
        HOST: '127.0.0.1',
        PORT: String(port),
        DATA_DIR: dataDir,
        DATABASE_URL: serverDatabase?.url ?? '',
        REDIS_URL: '',
        SEED_DEMO_DATA: 'false',
        LOG_LEVEL: 'info',
        SHUTDOWN_DRAIN_SECONDS: String(DRAIN_SECONDS),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr?.on('data', (chunk) => {
      output += chunk;
    });
    exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    await until(
      'the shop answers /health/ready with 200',
      async () => {
        if (child.exitCode !== null) throw new Error(`the shop exited early:\n${output}`);
        return send(`http://127.0.0.1:${port}/health/ready`);
      },
      (answer) => answer.status === 200,
      120_000,
    );
  }, 150_000);

  afterAll(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
    await serverDatabase?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('stops taking traffic, finishes the request in flight and exits 0 with the database closed', async () => {
    onTestFailed(() => console.log(`The shop's output:\n${output.slice(-6000)}`));
    const body = JSON.stringify({
      name: 'Slow uploader',
      email: 'slow.uploader@example.com',
      message: 'This message arrives in two halves, the second after SIGTERM.',
      locale: 'en',
    });
    const slowRequest = http.request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/api/feedback',
      agent: false,
      headers: {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
        'x-request-id': 'slow-upload-1',
      },
    });
    const slowAnswer = answerTo(slowRequest);
    slowRequest.write(body.slice(0, 40));
    // The server has the request once the in-flight gauge counts it besides the scrape itself.
    await until(
      'the slow request is in flight',
      () => send(`http://127.0.0.1:${port}/metrics`),
      (answer) => Number(/^http_requests_in_flight (\d+)$/m.exec(answer.body)?.[1]) >= 2,
      10_000,
    );

    const signalled = Date.now();
    child.kill('SIGTERM');
    const ready = await until(
      'readiness answers 503',
      () => send(`http://127.0.0.1:${port}/health/ready`),
      (answer) => answer.status === 503,
      DRAIN_SECONDS * 1000,
    );
    expect(JSON.parse(ready.body)).toEqual({ status: 'shutting-down' });
    // During the drain the instance still answers everything else.
    expect((await send(`http://127.0.0.1:${port}/health/live`)).status).toBe(200);
    expect(Date.now() - signalled).toBeLessThan(DRAIN_SECONDS * 1000);

    // After the drain, no new connection is accepted…
    await until(
      'new connections are refused',
      () =>
        send(`http://127.0.0.1:${port}/health/live`).then(
          () => 'accepted',
          (error: NodeJS.ErrnoException) => error.code,
        ),
      (result) => result === 'ECONNREFUSED',
      DRAIN_SECONDS * 1000 + 10_000,
    );
    expect(child.exitCode).toBeNull();

    // …but the request in flight completes, and its write reaches the database.
    slowRequest.end(body.slice(40));
    const answer = await slowAnswer;
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ success: true });
    expect(await exited).toEqual({ code: 0, signal: null });

    const logLines = output
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { requestId?: string; msg?: string });
    expect(logLines.filter((line) => line.requestId === 'slow-upload-1').map((line) => line.msg)).toEqual([
      'incoming request',
      'request completed',
    ]);

    const reopened = await openDatabase({
      databaseUrl: serverDatabase?.url,
      dataDir: path.join(dataDir, 'db'),
    });
    try {
      const rows = await reopened.db
        .select({ name: feedback.name })
        .from(feedback)
        .where(eq(feedback.email, 'slow.uploader@example.com'));
      expect(rows).toEqual([{ name: 'Slow uploader' }]);
    } finally {
      await reopened.close();
    }
  }, 60_000);
});
