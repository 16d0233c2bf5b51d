import type { Config } from '@react-router/dev/config';

/** The back office's layout route: every back-office page is below it. */
const ADMIN_LAYOUT = 'routes/admin/layout';

export default {
  appDirectory: 'src/web',
  ssr: true,
  // Every page carries the whole route manifest: no `/__manifest` requests, no per-page partial
  // manifest to compute (ADR 0017).
  routeDiscovery: { mode: 'initial' },
  // The back office is a server bundle of its own (build/server/admin), so the shop's pages are
  // rendered by a server that knows only the shop's routes (ADR 0019). The browser gets one app.
  serverBundles: ({ branch }) => (branch.some((route) => route.id === ADMIN_LAYOUT) ? 'admin' : 'shop'),
  future: {
    // Loaders and actions get the HTTP request as it came, not a copy per handler with React
    // Router's `.data`, `index` and `_routes` details stripped; they read the page's address from
    // their `url` argument (ADR 0018).
    v8_passThroughRequests: true,
  },
} satisfies Config;
