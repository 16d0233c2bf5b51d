import { data } from 'react-router';
import { ErrorPage } from '../components/error-page.tsx';

/** The access-denied page, with status 403. */
export function loader() {
  throw data(null, { status: 403 });
}

export default function Forbidden() {
  return <ErrorPage status={403} />;
}

export function ErrorBoundary() {
  return <ErrorPage status={403} />;
}
