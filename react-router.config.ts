import type { Config } from '@react-router/dev/config';

/** The back office's layout route: every back-office page is below it. */
const ADMIN_LAYOUT = 'routes/admin/layout';

export default {
  appDirectory: 'src/web',
  ssr: true,
  // Every page carries the whole route manifest: no `/__manifest` requests, no per-page partial
  // manifest to compute (ADR 0017).
  routeDiscovery: { mode: 'initial' },
  // Three server bundles (build/server/<name>), so the shop's pages are rendered by a server that
  // knows only the shop's page routes (ADR 0019): the back office; the resource routes, modules
  // without a page (`.ts`: forms' targets, the sitemap, JSON for the checkout); and the shop's pages.
  // The browser gets one app.
  serverBundles: ({ branch }) => {
    if (branch.some((route) => route.id === ADMIN_LAYOUT)) return 'admin';
    return branch.at(-1)?.file.endsWith('.ts') ? 'resources' : 'shop';
  },
  future: {
    // Loaders and actions get the HTTP request as it came, not a copy per handler with React
    // Router's `.data`, `index` and `_routes` details stripped; they read the page's address from
    // their `url` argument (ADR 0018).
    v8_passThroughRequests: true,
  },
} satisfies Config;
