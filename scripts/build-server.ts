/**
 * `npm run build`'s second half: the server as one JavaScript file, so production runs `node` on
 * built code rather than TypeScript through a loader (ADR 0028). Runs after `react-router build`,
 * which empties build/ first. Packages stay imports of node_modules; the migrations are copied beside
 * the bundle, where `migrationsFolder` (db/client.ts) looks for them.
 */
import { cpSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Metafile } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The compiled server, relative to the project: what `npm run serve`, the image and the bench run. */
export const SERVER_ENTRY = 'build/server-main.js';

/**
 * Node's flags for the compiled server, the same in `npm run serve`, the image's command and the
 * bench (ADR 0031).
 * - A 512 MB old generation: when the heap may reach 2 GB or more (V8's default on a machine with
 *   8 GB or more), V8 lets it grow to four times what survived its last full collection; under
 *   this limit, to about 1.4 times. A minute of traffic then no longer leaves 150–200 MB committed
 *   above the 50–60 MB the shop keeps, and the limit leaves room for the catalogue cache (128 MB
 *   at most) several times over.
 * - 16 MB semi-spaces: Node 20's default, which Node 24 (the image's) raised to 64 MB, so that its
 *   young generation alone held 128 MB of an idle instance.
 */
export const SERVER_NODE_FLAGS = ['--max-old-space-size=512', '--max-semi-space-size=16'];

/**
 * The environment the image gives the compiled server, and the bench too (ADR 0031): at most two
 * glibc malloc arenas. Compressing pages and responses runs on libuv's threads, and glibc gave
 * each thread an arena of its own that kept 40–50 MB resident after a minute of traffic: memory
 * the server had freed and glibc held on to. Other C libraries (musl) ignore it. `npm run serve`
 * leaves it out, to stay a command every shell runs.
 */
export const SERVER_ENVIRONMENT = { MALLOC_ARENA_MAX: '2' };

/** Bundles src/server/app/main.ts into `<outDirectory>/server-main.js`, migrations beside it. */
export async function buildServer(outDirectory = path.join(root, 'build')): Promise<Metafile> {
  const migrations = path.join(outDirectory, 'migrations');
  rmSync(migrations, { recursive: true, force: true });
  const result = await build({
    entryPoints: [path.join(root, 'src/server/app/main.ts')],
    outfile: path.join(outDirectory, path.basename(SERVER_ENTRY)),
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    metafile: true,
    logLevel: 'warning',
  });
  cpSync(path.join(root, 'src/server/db/migrations'), migrations, { recursive: true });
  return result.metafile;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await buildServer();
  console.log(`Server built: ${SERVER_ENTRY}`);
}
