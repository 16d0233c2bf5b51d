import type { Locale } from '../contract/locale.ts';
import type { Services } from '../server/services.ts';

/** What every loader and action receives from the server (see src/server/http/ssr.ts). */
declare module 'react-router' {
  interface AppLoadContext {
    services: Services;
    locale: Locale;
    testMode: boolean;
    publicUrl: string;
  }
}
