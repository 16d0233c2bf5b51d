import { data } from 'react-router';
import { ErrorPage } from '../components/error-page.tsx';

/** Any path the shop does not know: the 404 page with status 404. */
export function loader() {
  throw data(null, { status: 404 });
}

export default function NotFound() {
  return <ErrorPage status={404} />;
}

export function ErrorBoundary() {
  return <ErrorPage status={404} />;
}
