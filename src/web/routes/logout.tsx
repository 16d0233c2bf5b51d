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
 * `/logout` opened by a link (the spec's `/logout/`) asks first: a GET never changes state, so
 * another site cannot sign the visitor out with a link or an image. Signed out already: home.
 */
export async function loader({ context }: Route.LoaderArgs) {
  if (!(await context.account.currentUser())) throw redirect('/');
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
