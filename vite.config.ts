import { reactRouter } from '@react-router/dev/vite';
import { defineConfig, type Rollup } from 'vite';

/**
 * The browser's shared chunk (ADR 0015): React, React Router, and the shop's own components,
 * helpers and texts, in one file, so a catalogue page loads a handful of scripts instead of
 * twenty. The back office and the checkout keep theirs in their own chunks: shoppers never
 * download them; the gallery's full-screen view and the cart drawer have their own, loaded when
 * first needed.
 */
const SHARED_CHUNK = 'shop';

/** The packages every page needs to hydrate. */
const SHARED_PACKAGES = /\/node_modules\/(react|react-dom|react-router|scheduler|cookie|set-cookie-parser)\//;
/** The shop's code every page may use. */
const SHARED_CODE = /\/src\/web\/(components|lib|i18n)\//;
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
 * only when nothing it imports, however indirectly, is kept out of it (zod, the admin texts…).
 */
function sharedChunk(): Rollup.GetManualChunk {
  let excluded: Set<string> | undefined;
  return (id, { getModuleInfo, getModuleIds }) => {
    if (!excluded) excluded = keptOut([...getModuleIds()], getModuleInfo);
    const path = id.replaceAll('\\', '/');
    if (!SHARED_PACKAGES.test(path) && !SHARED_CODE.test(path)) return undefined;
    return excluded.has(id) ? undefined : SHARED_CHUNK;
  };
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

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [reactRouter()],
  build: {
    assetsInlineLimit: 0,
    // React Router builds the server bundle with this config too: it needs no chunks.
    rollupOptions: isSsrBuild ? {} : { output: { manualChunks: sharedChunk() } },
  },
}));
