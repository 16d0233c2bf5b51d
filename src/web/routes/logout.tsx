import { Form, redirect } from 'react-router';
import { SubmitButton } from '../components/form-field.tsx';
import { PrivatePageHead } from '../components/page-head.tsx';
import { useShop } from '../lib/shop.ts';
import type { Route } from './+types/logout';

/** Signs out and returns to the home page: the menu's forms post here, as does this page's button. */
export async function action({ context }: Route.ActionArgs) {
  await context.account.logout();
  return redirect('/');
}

/**
 * True for a page load the shopper started by clicking a link on one of the shop's own pages: the
 * browser says so in its fetch metadata (same origin, a top-level navigation, a user's click, no
 * prefetch or prerender). Another site cannot forge these headers, and a typed or bookmarked
 * address, an image, a prefetch or a client-side data request does not carry all of them.
 */
function isClickOnShopLink(request: Request): boolean {
  const header = (name: string) => request.headers.get(name);
  return (
    header('sec-fetch-site') === 'same-origin' &&
    header('sec-fetch-mode') === 'navigate' &&
    header('sec-fetch-dest') === 'document' &&
    header('sec-fetch-user') === '?1' &&
    header('sec-purpose') === null
  );
}

/**
 * `/logout/` (the spec's link): a click on a link of the shop's own pages signs out and goes home.
 * Any other GET (a link or an image on another site, a typed address, a prefetch) only asks, with a
 * button that posts here, so a GET from elsewhere never changes state (ADR 0027). Signed out
 * already: home.
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  if (!(await context.account.currentUser())) throw redirect('/');
  if (isClickOnShopLink(request)) {
    await context.account.logout();
    throw redirect('/');
  }
  return null;
}

export default function LogoutPage() {
  const { t } = useShop();
  return (
    <section className="auth-card" aria-labelledby="logout-heading">
      <PrivatePageHead title={t('logout')} />
      <h1 id="logout-heading">{t('logout-question')}</h1>
      <Form method="post" action="/logout" className="auth-form">
        <SubmitButton>{t('logout')}</SubmitButton>
      </Form>
    </section>
  );
}
