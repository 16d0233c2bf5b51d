import { redirect } from 'react-router';
import { searchHref } from '../components/search-field.tsx';
import type { Route } from './+types/search-form';

/** The search form without JavaScript: /search?search=text → /search/text (the catalogue when blank). */
export function loader({ url }: Route.LoaderArgs) {
  return redirect(searchHref(url.searchParams.get('search') ?? ''));
}
