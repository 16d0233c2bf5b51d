import { redirect } from 'react-router';
import type { Route } from './+types/search-form';

/** The search form without JavaScript: /search?search=text → /search/text (or home when empty). */
export function loader({ url }: Route.LoaderArgs) {
  const text = url.searchParams.get('search')?.trim() ?? '';
  return redirect(text ? `/search/${encodeURIComponent(text)}` : '/');
}
