import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer, SERVER_ENTRY, SERVER_ENVIRONMENT, SERVER_NODE_FLAGS } from './build-server.ts';

const packageJson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  dependencies: Record<string, string>;
  scripts: Record<string, string>;
};

/** `@scope/name/sub/path` → `@scope/name`; `name/sub` → `name`. */
const packageName = (specifier: string) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

describe('the compiled server', () => {
  let outDirectory: string;
  let imports: Array<{ path: string; kind: string }>;

  beforeAll(async () => {
    outDirectory = mkdtempSync(path.join(os.tmpdir(), 'vitrina-server-build-'));
    const metafile = await buildServer(outDirectory);
    imports = Object.values(metafile.outputs).flatMap((output) =>
      output.imports.filter((each) => each.external),
    );
  }, 60_000);
  afterAll(() => rmSync(outDirectory, { recursive: true, force: true }));

  it('loads at start-up only Node modules and production dependencies, which the image keeps', () => {
    const builtins = new Set(builtinModules);
    const missing = imports
      .filter((each) => each.kind === 'import-statement')
      .map((each) => each.path)
      .filter((specifier) => !specifier.startsWith('node:') && !builtins.has(specifier))
      .filter((specifier) => !(packageName(specifier) in packageJson.dependencies));
    expect([...new Set(missing)]).toEqual([]);
  });

  it('finds the migrations beside itself, where the database client looks for them', () => {
    expect(existsSync(path.join(outDirectory, 'server-main.js'))).toBe(true);
    const journal = JSON.parse(
      readFileSync(path.join(outDirectory, 'migrations', 'meta', '_journal.json'), 'utf8'),
    ) as { entries: Array<{ tag: string }> };
    for (const entry of journal.entries) {
      expect(existsSync(path.join(outDirectory, 'migrations', `${entry.tag}.sql`))).toBe(true);
    }
  });

  it('runs with its Node flags wherever it runs: `npm run serve`, the image and the bench', () => {
    const command = ['node', ...SERVER_NODE_FLAGS, SERVER_ENTRY];
    expect(packageJson.scripts.serve).toBe(command.join(' '));
    const dockerfile = readFileSync(new URL('../Dockerfile', import.meta.url), 'utf8');
    const cmd = dockerfile.split('\n').find((line) => line.startsWith('CMD '));
    expect(JSON.parse(cmd?.slice('CMD '.length) ?? 'null')).toEqual(command);
  });

  it('gets its environment in the image as in the bench', () => {
    const dockerfile = readFileSync(new URL('../Dockerfile', import.meta.url), 'utf8');
    // The runtime stage's ENV instruction, its continuation lines joined.
    const runtime = dockerfile.slice(dockerfile.indexOf(' AS runtime'));
    const env = /^ENV ((?:.*\\\n)*.*)$/m.exec(runtime)?.[1]?.replace(/\\\n\s*/g, ' ') ?? '';
    for (const [name, value] of Object.entries(SERVER_ENVIRONMENT)) {
      expect(env.split(/\s+/)).toContain(`${name}=${value}`);
    }
  });

  it('bounds the heap: V8 takes the old generation limit from the flags', () => {
    const limit = execFileSync(
      process.execPath,
      [...SERVER_NODE_FLAGS, '-p', 'require("node:v8").getHeapStatistics().heap_size_limit'],
      { encoding: 'utf8' },
    );
    // The old generation's 512 MB and the young generation's three 16 MB semi-spaces; over 4 GB
    // without the flags (Node 20 and 24 alike on this machine).
    expect(Number(limit) / 2 ** 20).toBeGreaterThanOrEqual(512);
    expect(Number(limit) / 2 ** 20).toBeLessThanOrEqual(560);
  });
});
