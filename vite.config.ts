import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { reactRouter } from '@react-router/dev/vite';
import { defineConfig, type Plugin, type Rollup } from 'vite';

/**
 * The browser's shared chunk (ADR 0015, narrowed by ADR 0064): React, React Router, and the shop's
 * code the root route runs on every page (the layout: header, menu, footer, the texts), in one
 * file. What only some pages use stays out of it: a component or helper used by one page goes into
 * that page's route chunk, one used by several into a chunk Rollup shares between them. The back
 * office and the checkout keep theirs in their own chunks; the gallery's full-screen view and the
 * cart drawer have their own, loaded when first needed.
 */
const SHARED_CHUNK = 'shop';

/** The packages every page needs to hydrate. */
const SHARED_PACKAGES = /\/node_modules\/(react|react-dom|react-router|scheduler|cookie|set-cookie-parser)\//;
/** The shop's code every page may use. */
const SHARED_CODE = /\/src\/(web\/(components|lib|i18n)|contract)\//;
/** The root route: what it imports, however indirectly, runs on every page. */
const ROOT_ROUTE = /\/src\/web\/root\.tsx(\?|$)/;
/**
 * The pages a first visit usually lands on: the code all three import joins the shared chunk too
 * (product cards, prices, the basket and wishlist buttons, the page head), so that none of them
 * loads it as a handful of small chunks, a request each.
 */
const LANDING_ROUTES = [
  /\/src\/web\/routes\/home\.tsx$/,
  /\/src\/web\/routes\/category\.tsx$/,
  /\/src\/web\/routes\/product\.tsx$/,
];
/** Code only the back office or the checkout uses, and route modules (each a chunk of its own). */
const NEVER_SHARED = [
  /\/src\/web\/admin\//,
  /\/src\/web\/i18n\/admin(-messages)?\.ts$/,
  /\/src\/web\/routes\//,
  /\/src\/web\/root\.tsx$/,
  /\/src\/web\/lib\/(checkout|boxberry-widget)\.ts$/,
  /\/src\/web\/components\/(checkout-steps|pickup-point-picker)\.tsx$/,
  // The gallery's full-screen view is downloaded when a shopper opens it; the cart drawer on an add.
  /\/src\/web\/components\/(gallery-viewer|cart-drawer)\.tsx$/,
];

/**
 * Rollup moves whatever a manual chunk imports into it as well: a module joins the shared chunk
 * only when the root route or every landing page imports it (statically, however indirectly) and
 * nothing it imports,
 * however indirectly, is kept out of it (zod, the admin texts…).
 */
function sharedChunk(): Rollup.GetManualChunk {
  let shared: Set<string> | undefined;
  return (id, { getModuleInfo, getModuleIds }) => {
    if (!shared) {
      const ids = [...getModuleIds()];
      const excluded = keptOut(ids, getModuleInfo);
      const importedBy = (pattern: RegExp) =>
        staticallyImported(
          ids.filter((moduleId) => pattern.test(moduleId.replaceAll('\\', '/'))),
          getModuleInfo,
        );
      const landings = LANDING_ROUTES.map(importedBy);
      const everyLanding = [...(landings[0] ?? [])].filter((moduleId) =>
        landings.every((imported) => imported.has(moduleId)),
      );
      shared = new Set(
        [...importedBy(ROOT_ROUTE), ...everyLanding].filter((moduleId) => !excluded.has(moduleId)),
      );
    }
    const path = id.replaceAll('\\', '/');
    // Vite's helper for dynamic imports and the plural rules (used with the texts by most pages):
    // a few hundred bytes each, not worth a request of their own.
    if (
      SHARED_PACKAGES.test(path) ||
      path.endsWith('vite/preload-helper.js') ||
      path.endsWith('/src/web/i18n/plural.ts')
    )
      return SHARED_CHUNK;
    return SHARED_CODE.test(path) && shared.has(id) ? SHARED_CHUNK : undefined;
  };
}

/** The modules `roots` import statically, however indirectly (dynamic imports are left out). */
function staticallyImported(roots: string[], getModuleInfo: Rollup.GetModuleInfo): Set<string> {
  const found = new Set(roots);
  const pending = [...roots];
  for (let id = pending.pop(); id !== undefined; id = pending.pop()) {
    for (const imported of getModuleInfo(id)?.importedIds ?? []) {
      if (found.has(imported)) continue;
      found.add(imported);
      pending.push(imported);
    }
  }
  return found;
}

/** The modules that are kept out of the shared chunk, and every module that imports one. */
function keptOut(ids: string[], getModuleInfo: Rollup.GetModuleInfo): Set<string> {
  const excluded = new Set(
    ids.filter((id) => {
      const path = id.replaceAll('\\', '/');
      if (NEVER_SHARED.some((pattern) => pattern.test(path))) return true;
      return path.includes('/node_modules/') && !SHARED_PACKAGES.test(path);
    }),
  );
  const pending = [...excluded];
  for (let id = pending.pop(); id !== undefined; id = pending.pop()) {
    for (const importer of getModuleInfo(id)?.importers ?? []) {
      if (excluded.has(importer)) continue;
      excluded.add(importer);
      pending.push(importer);
    }
  }
  return excluded;
}

/** The module that gives the server the browser build's scripts of each language's texts. */
const TEXT_SCRIPTS = 'virtual:vitrina/text-scripts';
const TEXT_LOCALES = ['en', 'ru'];

/**
 * `virtual:vitrina/text-scripts` (ADR 0086): for each language, the browser build's scripts of its
 * dictionary (`src/web/i18n/dictionary-<locale>.ts` and what it imports), for the server's entry
 * to preload the page's own beside React Router's scripts. Read in the server build from the
 * browser build's manifest, which React Router builds first (and removes once the server is
 * built); empty while developing, where Vite serves the modules as they are.
 */
function textScripts(): Plugin {
  let manifestFile = '';
  let base = '/';
  let serverBuild = false;
  return {
    name: 'vitrina-text-scripts',
    configResolved(config) {
      manifestFile = path.join(config.root, 'build', 'client', '.vite', 'manifest.json');
      base = config.base;
      serverBuild = config.command === 'build' && Boolean(config.build.ssr);
    },
    resolveId(id) {
      return id === TEXT_SCRIPTS ? `\0${TEXT_SCRIPTS}` : undefined;
    },
    load(id) {
      if (id !== `\0${TEXT_SCRIPTS}`) return undefined;
      if (!serverBuild) return 'export default {};';
      const manifest: Record<string, { file: string; imports?: string[] }> = JSON.parse(
        readFileSync(manifestFile, 'utf8'),
      );
      const scripts: Record<string, string[]> = {};
      for (const locale of TEXT_LOCALES) {
        const chunk = manifest[`src/web/i18n/dictionary-${locale}.ts`];
        if (!chunk) this.error(`The browser build has no script for the ${locale} texts`);
        const files = [chunk.file, ...(chunk.imports ?? []).flatMap((key) => manifest[key]?.file ?? [])];
        scripts[locale] = files.map((file) => `${base}${file}`);
      }
      return `export default ${JSON.stringify(scripts)};`;
    },
  };
}

/** The browser build's files worth compressing (images are compressed already). */
const COMPRESSIBLE = /\.(js|css|svg|json)$/;

/**
 * The browser build's scripts and styles, compressed once at build time beside each file
 * (`.br` at brotli's best quality, `.gz` at gzip's), for the server to send as they are (ADR 0064):
 * compressing per response uses brotli's quality 4, which left the shared chunk 17% larger. Runs
 * at the end of the server build, the last of `react-router build`, which writes the route
 * manifest's script.
 */
function precompressed(): Plugin {
  let assets = '';
  return {
    name: 'vitrina-precompressed',
    apply: 'build',
    configResolved(config) {
      assets = path.join(config.root, 'build', 'client', 'assets');
    },
    closeBundle() {
      if (!existsSync(assets)) return;
      for (const file of readdirSync(assets)) {
        if (!COMPRESSIBLE.test(file)) continue;
        const target = path.join(assets, file);
        const content = readFileSync(target);
        const brotli = brotliCompressSync(content, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
          },
        });
        writeFileSync(`${target}.br`, brotli);
        writeFileSync(`${target}.gz`, gzipSync(content, { level: constants.Z_BEST_COMPRESSION }));
      }
    },
  };
}

/**
 * React Router's own production build, for the browser (ADR 0090). The package's exports name its
 * development build alone for now (remix-run/react-router#12437, #14102), which keeps its
 * development warnings and their texts in the shop's scripts; the production build beside it is
 * the same code with them switched off. Both of the package's entry points are redirected, so the
 * browser's scripts hold one copy of it. The server keeps the package as exported, one copy with
 * @react-router/node's.
 */
const REACT_ROUTER_BUILD = path.join(
  path.dirname(createRequire(import.meta.url).resolve('react-router/package.json')),
  'dist',
  'production',
);
const REACT_ROUTER_PRODUCTION = [
  { find: /^react-router$/, replacement: path.join(REACT_ROUTER_BUILD, 'index.mjs') },
  { find: /^react-router\/dom$/, replacement: path.join(REACT_ROUTER_BUILD, 'dom-export.mjs') },
];

export default defineConfig(({ isSsrBuild, command }) => ({
  plugins: [reactRouter(), textScripts(), ...(isSsrBuild ? [precompressed()] : [])],
  resolve: { alias: command === 'build' && !isSsrBuild ? REACT_ROUTER_PRODUCTION : [] },
  build: {
    assetsInlineLimit: 0,
    // `BUILD_SOURCEMAP=1 npm run build`: source maps beside the scripts, for bench/script-contents.ts.
    sourcemap: process.env.BUILD_SOURCEMAP === '1',
    // React Router builds the server bundle with this config too: it needs no chunks.
    rollupOptions: isSsrBuild ? {} : { output: { manualChunks: sharedChunk() } },
  },
}));
