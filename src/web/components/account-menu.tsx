import { Form, NavLink } from 'react-router';
import { useShop } from '../lib/shop.ts';

/** The account's side menu: profile, order history and signing out (reachable without the menu panel). */
export function AccountMenu() {
  const { t } = useShop();
  return (
    <nav className="account-menu" aria-label={t('account')}>
      <ul>
        <li>
          <NavLink to="/profile">{t('profile')}</NavLink>
        </li>
        <li>
          <NavLink to="/order/history">{t('order-history')}</NavLink>
        </li>
        <li>
          <Form method="post" action="/logout">
            <button type="submit" className="account-menu__logout">
              {t('logout')}
            </button>
          </Form>
        </li>
      </ul>
    </nav>
  );
}
