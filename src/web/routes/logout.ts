import { redirect } from 'react-router';
import type { Route } from './+types/logout';

/** Signs out and returns to the home page: the menu's form posts here; a plain /logout/ link works too. */
export async function action({ context }: Route.ActionArgs) {
  await context.account.logout();
  return redirect('/');
}

export async function loader({ context }: Route.LoaderArgs) {
  await context.account.logout();
  return redirect('/');
}
