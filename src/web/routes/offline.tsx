import { OfflinePage } from '../components/error-page.tsx';
import type { RouteHandle } from '../root.tsx';

/**
 * `/offline`: the page the service worker keeps, one per language, and shows without a connection
 * for any address it has not saved (public/service-worker.js). It is sent without the app's
 * scripts: shown at another address, it must not be hydrated as the page of that address.
 */
export const handle: RouteHandle = { hydrate: false };

export default function Offline() {
  return <OfflinePage />;
}
