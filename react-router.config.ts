import type { Config } from '@react-router/dev/config';

export default {
  appDirectory: 'src/web',
  ssr: true,
  // Every page carries the whole route manifest: no `/__manifest` requests, no per-page partial
  // manifest to compute (ADR 0017; kept by ADR 0025).
  routeDiscovery: { mode: 'initial' },
  future: {
    // Loaders and actions get the HTTP request as it came, not a copy per handler with React
    // Router's `.data`, `index` and `_routes` details stripped; they read the page's address from
    // their `url` argument (ADR 0018).
    v8_passThroughRequests: true,
  },
} satisfies Config;
