import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { E2E_ADMIN, seedDemoShop } from './own-shop.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    /** The server's DATA_DIR: mails land in `<dataDir>/outbox` as .eml files. */
    dataDir: string;
    /** The demo shop's data folder, seeded once per run: specs copy it for shops of their own. */
    demoShop: string;
  }
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });

/**
 * Starts the built shop as a real process on a free port with `dataDir` as its data folder (PGlite;
 * demo data unless the folder already holds a catalogue, as a copy of `demoShop` does; test mode),
 * exactly as `npm start` would.
 * `env` adds or replaces settings (a spec's own providers or secrets).
 */
export async function startShop(
  dataDir: string,
  /** Settings of this shop's own, over the journeys' defaults below. */
  settings: Record<string, string> = {},
): Promise<{ baseUrl: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const server: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/server/app/main.ts'], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      TEST_MODE: 'true',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      SESSION_SECRET: 'e2e-session-secret-that-is-long-enough-for-production',
      ADMIN_EMAIL: E2E_ADMIN.email,
      ADMIN_PASSWORD: E2E_ADMIN.password,
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      // Journeys sign in, register and restore many times from one address.
      RATE_LIMIT_MULTIPLIER: '50',
      // The journeys sign the seeded admin in with its password alone.
      ADMIN_TWO_FACTOR: 'optional',
      ...settings,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  server.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  server.stderr?.on('data', (chunk) => {
    output += chunk;
  });

  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 150_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`The shop exited before it was ready:\n${output}`);
    try {
      if ((await fetch(`${baseUrl}/api/initial?locale=en`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`The shop did not start in time:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  return {
    baseUrl,
    stop: async () => {
      server.kill('SIGTERM');
      await new Promise((resolve) => server.once('exit', resolve));
    },
  };
}

/**
 * The demo shop seeded once (drawing its pictures is most of a first start), and the shop every
 * journey uses on a copy of it, stopped after the run.
 */
export default async function setup(project: TestProject) {
  const demoShop = mkdtempSync(path.join(os.tmpdir(), 'vitrina-e2e-demo-'));
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'vitrina-e2e-'));
  const removeFolders = () => {
    rmSync(demoShop, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await seedDemoShop(demoShop);
    cpSync(demoShop, dataDir, { recursive: true });
    const shop = await startShop(dataDir);
    project.provide('baseUrl', shop.baseUrl);
    project.provide('dataDir', dataDir);
    project.provide('demoShop', demoShop);
    return async () => {
      await shop.stop();
      removeFolders();
    };
  } catch (error) {
    removeFolders();
    throw error;
  }
}
