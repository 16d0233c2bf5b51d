import { redirect } from 'react-router';
import type { Route } from './+types/search-form';

/** The search form without JavaScript: /search?search=text → /search/text (or home when empty). */
export function loader({ request }: Route.LoaderArgs) {
  const text = new URL(request.url).searchParams.get('search')?.trim() ?? '';
  return redirect(text ? `/search/${encodeURIComponent(text)}` : '/');
}
