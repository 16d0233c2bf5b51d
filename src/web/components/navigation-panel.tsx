import { Form, NavLink } from 'react-router';
import { useHydrated } from '../lib/enhanced-forms.ts';
import { useShop } from '../lib/shop.ts';
import { CloseIcon } from './icons.tsx';
import { LanguageSwitcher } from './language-switcher.tsx';
import { LinkList } from './link-list.tsx';
import { useMenu } from './menu.tsx';

/**
 * The side panel: account links, the catalogue and the information pages, a mobile language switch.
 * Only the menu button opens it, and that needs JavaScript: the server sends the empty panel (the
 * button's `aria-controls` target) and the browser fills it in once the page is hydrated.
 */
export function NavigationPanel() {
  const { t } = useShop();
  const menu = useMenu();
  const hydrated = useHydrated();
  return (
    <>
      <nav
        id="navigation-panel"
        className={`navigation-panel ${menu.visible ? 'navigation-panel--open' : ''}`}
        aria-label={t('menu')}
        aria-hidden={!menu.visible}
        inert={!menu.visible}
      >
        {hydrated ? <NavigationPanelContent /> : null}
      </nav>
      {menu.visible ? (
        <button
          type="button"
          className="navigation-backdrop"
          aria-label={t('close-menu')}
          onClick={() => menu.set(false)}
        />
      ) : null}
    </>
  );
}

function NavigationPanelContent() {
  const { data, t } = useShop();
  const user = data?.user;
  const menu = useMenu();
  return (
    <>
      <button type="button" className="icon-button navigation-panel__close" onClick={() => menu.set(false)}>
        <CloseIcon label={t('close-menu')} />
      </button>
      <ul className="navigation-panel__group">
        <li>
          <NavLink to="/" end>
            {t('home')}
          </NavLink>
        </li>
        {user ? null : (
          <>
            <li>
              <NavLink to="/login">{t('login')}</NavLink>
            </li>
            <li>
              <NavLink to="/registration">{t('registration')}</NavLink>
            </li>
          </>
        )}
      </ul>
      {user ? (
        <>
          <h2 className="navigation-panel__heading">{t('account')}</h2>
          <p className="navigation-panel__user">
            <span className="visually-hidden">{t('signed-in-as')} </span>
            {user.email}
          </p>
          <ul className="navigation-panel__group">
            <li>
              <NavLink to="/profile">{t('profile')}</NavLink>
            </li>
            <li>
              <NavLink to="/order/history">{t('order-history')}</NavLink>
            </li>
            {user.isAdmin ? (
              <li>
                <NavLink to="/admin">{t('admin')}</NavLink>
              </li>
            ) : null}
            <li>
              <Form method="post" action="/logout" onSubmit={() => menu.set(false)}>
                <button type="submit" className="link-button">
                  {t('logout')}
                </button>
              </Form>
            </li>
          </ul>
        </>
      ) : null}
      <h2 className="navigation-panel__heading">{t('categories')}</h2>
      <ul className="navigation-panel__group">
        <li>
          <NavLink to="/products">{t('all-products')}</NavLink>
        </li>
        {data?.categories.map((category) => (
          <li key={category.id}>
            <NavLink to={`/category/${category.link}`}>{category.name}</NavLink>
          </li>
        ))}
      </ul>
      <h2 className="navigation-panel__heading">{t('projects')}</h2>
      <ul className="navigation-panel__group">
        {data?.projects.map((project) => (
          <li key={project.id}>
            <NavLink to={`/project/${project.link}`}>{project.name}</NavLink>
          </li>
        ))}
      </ul>
      <h2 className="navigation-panel__heading">{t('information')}</h2>
      <LinkList
        className="navigation-panel__group"
        links={[
          ['/shipping', 'shipping'],
          ['/payment', 'payment'],
          ['/about', 'about'],
          ['/partners', 'partners'],
          ['/feedback', 'feedback'],
        ]}
      />
      <LanguageSwitcher className="navigation-panel__language" />
    </>
  );
}
