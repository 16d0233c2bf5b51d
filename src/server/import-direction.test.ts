import { cruise, type ICruiseResult } from 'dependency-cruiser';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The server's folders point one way (ADR 0071): app/ wires admin/ and routes/, which call
 * requests/, which calls the domains, which stand on http/, caches/, audit/, db/ and the files at
 * the root. Read by dependency-cruiser, the graph of what the server's code imports (tests and
 * testing/ left out: they may reach anything).
 */

/** The folder right under src/server a module lives in; '(root)' for config.ts, errors.ts, metrics.ts. */
const folderOf = (modulePath: string): string | undefined => {
  if (!modulePath.startsWith('src/server/')) return undefined;
  return /^src\/server\/([^/]+)\//.exec(modulePath)?.[1] ?? '(root)';
};

/**
 * config.ts assembles the settings that each module declares beside the code that reads them; those
 * imports are of types only (erased at build, so they order no loading and close no runtime cycle).
 */
const assemblesSettings = (from: string, typeOnly: boolean) => typeOnly && from === 'src/server/config.ts';

let graph: ICruiseResult;

beforeAll(async () => {
  const { output } = await cruise(
    ['src/server'],
    {
      validate: true,
      tsPreCompilationDeps: true,
      tsConfig: { fileName: 'tsconfig.json' },
      exclude: { path: ['\\.test\\.ts$', '^src/server/testing/'] },
      doNotFollow: { path: ['node_modules'] },
      ruleSet: {
        forbidden: [
          {
            name: 'no-runtime-cycle',
            severity: 'error',
            from: {},
            to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
          },
        ],
      },
    },
    {},
    { tsConfig: extractTSConfig('tsconfig.json') },
  );
  graph = output as ICruiseResult;
}, 120_000);

describe('the server folders', () => {
  it('have no pair of folders importing each other', () => {
    const imports = new Set<string>();
    for (const module of graph.modules) {
      const from = folderOf(module.source);
      for (const dependency of module.dependencies) {
        const to = folderOf(dependency.resolved);
        if (from === undefined || to === undefined || from === to) continue;
        if (assemblesSettings(module.source, dependency.dependencyTypes.includes('type-only'))) continue;
        imports.add(`${from} → ${to}`);
      }
    }
    const bothWays = [...imports].filter((edge) => {
      const [from = '', to = ''] = edge.split(' → ');
      return from < to && imports.has(`${to} → ${from}`);
    });
    expect(bothWays).toEqual([]);
  });

  it('load no module that, through what it loads, loads itself again', () => {
    const cycles = graph.summary.violations
      .filter((violation) => violation.rule.name === 'no-runtime-cycle')
      .map((violation) => [violation.from, ...(violation.cycle ?? []).map((step) => step.name)].join(' → '));
    expect(cycles).toEqual([]);
  });

  it('keep http/ a library: it imports no domain, no route and no request action', () => {
    const below = new Set(['http', 'security', 'db', 'caches', 'jobs', 'providers', '(root)']);
    const reached = graph.modules
      .filter((module) => folderOf(module.source) === 'http')
      .flatMap((module) => module.dependencies.map((dependency) => folderOf(dependency.resolved)))
      .filter((folder) => folder !== undefined && !below.has(folder));
    expect([...new Set(reached)]).toEqual([]);
  });
});
