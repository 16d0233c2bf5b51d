import { fork } from 'node:child_process';
import { once } from 'node:events';

/**
 * The demo seed runs in a child process of its own, and the serving process opens the database
 * afresh once that child has exited (ADR 0070). Drawing the pictures (sharp), the V8 heap of the
 * seed and PGlite's WASM memory, which grows during the bulk insert and never shrinks, then leave
 * with the child: a newcomer's first start settles where every later start does.
 */

/** Set in the child's environment: the entry point seeds and exits instead of serving. */
export const SEED_PROCESS_VARIABLE = 'VITRINA_SEED_PROCESS';

export function isSeedProcess(environment: NodeJS.ProcessEnv = process.env): boolean {
  return environment[SEED_PROCESS_VARIABLE] === '1';
}

/**
 * Runs `script` (the running entry point unless told) again as a child with the same Node flags and
 * environment, plus the seed variable, and waits for it. Its output is the parent's: the generated
 * admin password is printed there. Rejects when the child fails.
 */
export async function seedInChildProcess(
  options: { script?: string; execArgv?: string[]; environment?: NodeJS.ProcessEnv } = {},
): Promise<void> {
  const script = options.script ?? process.argv[1];
  if (!script) throw new Error('The entry point to seed the demo data with is unknown.');
  const child = fork(script, [], {
    execArgv: options.execArgv ?? process.execArgv,
    env: { ...(options.environment ?? process.env), [SEED_PROCESS_VARIABLE]: '1' },
    stdio: 'inherit',
  });
  const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
  if (code !== 0) {
    throw new Error(
      `The demo data could not be seeded: the seeding process ${signal ? `was stopped by ${signal}` : `exited with ${code}`}.`,
    );
  }
}
