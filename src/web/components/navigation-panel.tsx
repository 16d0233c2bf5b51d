import { useEffect, useRef } from 'react';
import { Form, NavLink, useLocation } from 'react-router';
import { useHydrated } from '../lib/enhanced-forms.ts';
import { signInPath } from '../lib/redirects.ts';
import { useShop } from '../lib/shop.ts';
import { CloseIcon } from './icons.tsx';
import { LanguageSwitcher } from './language-switcher.tsx';
import { LinkList } from './link-list.tsx';
import { useMenu } from './menu.tsx';

/**
 * The side panel: account links, the catalogue and the information pages, a mobile language switch.
 * A modal `<dialog>`: the browser moves focus in, keeps Tab inside, closes it on Escape and gives
 * focus back to the menu button. Only the menu button opens it, and that needs JavaScript: the
 * server sends the empty panel (the button's `aria-controls` target) and the browser fills it in
 * once the page is hydrated.
 */
export function NavigationPanel() {
  const { t } = useShop();
  const menu = useMenu();
  const hydrated = useHydrated();
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const panel = dialog.current;
    if (menu.visible && !panel?.open) panel?.showModal();
    if (!menu.visible && panel?.open) panel.close();
  }, [menu.visible]);
  return (
    // The panel's content covers the whole dialog, so a click on the dialog itself is on the backdrop.
    // biome-ignore lint/a11y/useKeyWithClickEvents: Escape closes the dialog natively; this is the mouse's way out
    <dialog
      ref={dialog}
      id="navigation-panel"
      className="navigation-panel"
      aria-label={t('menu')}
      onClose={() => menu.set(false)}
      onClick={(event) => {
        if (event.target === event.currentTarget) menu.set(false);
      }}
    >
      {hydrated ? (
        <nav aria-label={t('menu')}>
          <NavigationPanelContent />
        </nav>
      ) : null}
    </dialog>
  );
}

function NavigationPanelContent() {
  const { data, t } = useShop();
  const user = data?.user;
  const menu = useMenu();
  const location = useLocation();
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
              <NavLink to={signInPath(location.pathname, location.search)}>{t('login')}</NavLink>
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
