import type { Config } from '@react-router/dev/config';

export default {
  appDirectory: 'src/web',
  ssr: true,
  // Every page carries the whole route manifest: no `/__manifest` requests, no per-page partial
  // manifest to compute (ADR 0017).
  routeDiscovery: { mode: 'initial' },
} satisfies Config;
