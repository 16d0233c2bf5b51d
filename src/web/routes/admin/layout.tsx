import {
  NavLink,
  Outlet,
  redirect,
  type ShouldRevalidateFunctionArgs,
  useLocation,
  useNavigate,
} from 'react-router';
import adminStyles from '../../admin/admin.css?url';
import { useAdminShop } from '../../admin/text.ts';
import { AdminErrorBoundary } from '../../admin/ui.tsx';
import { UnsavedChangesGuard } from '../../admin/unsaved-changes.tsx';
import type { AdminMessageKey } from '../../i18n/admin-messages.ts';
import { requireStaff } from '../../lib/require-user.ts';
import type { Route } from './+types/layout';

/**
 * The back office. Its modules are separate chunks that only /admin pages load. The server loader
 * is the guard: guests and shoppers get the 403 page with status 403; the pages themselves load
 * their data from `/api/admin/*` in the browser, and the API refuses every call from a non-admin.
 */
export async function loader({ context, url }: Route.LoaderArgs) {
  const user = await requireStaff(context);
  // An admin without two-step sign-in, where the shop requires it, turns it on first (ADR 0055).
  if (url.pathname !== TWO_FACTOR_PAGE && (await context.account.twoFactorMissing())) {
    throw redirect(TWO_FACTOR_PAGE);
  }
  return { role: user.role, toShip: await context.services.backOffice.ordersToShip() };
}

/**
 * The pages load their own data; the menu's count of orders to ship is read again on the way to
 * another page and after a write (the revalidator keeps the address), not for a list's filters.
 */
export const shouldRevalidate = ({ currentUrl, nextUrl }: ShouldRevalidateFunctionArgs) =>
  currentUrl.pathname !== nextUrl.pathname || currentUrl.href === nextUrl.href;

const TWO_FACTOR_PAGE = '/admin/two-factor';

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: adminStyles }];

const SECTIONS = [
  { to: '/admin', label: 'admin-dashboard', end: true },
  { to: '/admin/orders', label: 'admin-orders' },
  { to: '/admin/shipments', label: 'admin-stalled-shipments' },
  { to: '/admin/customers', label: 'admin-customers' },
  { to: '/admin/products', label: 'admin-products' },
  { to: '/admin/drops', label: 'admin-drops' },
  { to: '/admin/promo-codes', label: 'admin-promo-codes' },
  { to: '/admin/projects', label: 'admin-projects' },
  { to: '/admin/categories', label: 'admin-categories' },
  { to: '/admin/files', label: 'admin-files' },
  { to: '/admin/partners', label: 'admin-partners' },
  { to: '/admin/pages', label: 'admin-static-pages' },
  { to: '/admin/feedback', label: 'admin-feedback' },
  { to: '/admin/reviews', label: 'admin-reviews' },
  { to: '/admin/search', label: 'admin-search-section' },
  { to: '/admin/audit', label: 'admin-audit' },
  { to: '/admin/csv', label: 'admin-csv' },
  { to: '/admin/staff', label: 'admin-staff', adminOnly: true },
  { to: TWO_FACTOR_PAGE, label: 'admin-two-factor' },
] as const satisfies Array<{ to: string; label: AdminMessageKey; end?: boolean; adminOnly?: boolean }>;

/** The section a path belongs to (the longest matching prefix), for the phone's section select. */
function currentSection(pathname: string) {
  const path = pathname.replace(/\/$/, '') || '/';
  return (
    [...SECTIONS]
      .sort((a, b) => b.to.length - a.to.length)
      .find((section) => path === section.to || path.startsWith(`${section.to}/`))?.to ?? '/admin'
  );
}

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  const { t } = useAdminShop();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  // A manager does not see what only an admin may do (the API refuses it anyway).
  const sections = SECTIONS.filter((section) => !('adminOnly' in section) || loaderData.role === 'admin');
  const toShip = loaderData.toShip > 0 ? t('admin-to-ship-count', { count: loaderData.toShip }) : null;
  return (
    <UnsavedChangesGuard>
      <div className="admin">
        <meta name="robots" content="noindex" />
        <nav className="admin-nav" aria-label={t('admin-navigation')}>
          <p className="admin-nav__title">{t('admin')}</p>
          <ul className="admin-nav__list">
            {sections.map((section) => (
              <li key={section.to}>
                <NavLink to={section.to} end={'end' in section}>
                  {t(section.label)}
                  {section.to === '/admin/orders' && toShip ? (
                    <span className="admin-nav__count">
                      {loaderData.toShip}
                      <span className="visually-hidden"> · {toShip}</span>
                    </span>
                  ) : null}
                </NavLink>
              </li>
            ))}
          </ul>
          {/* On a phone the list gives way to one select. */}
          <label className="admin-nav__select">
            <span className="visually-hidden">{t('admin-section')}</span>
            <select value={currentSection(pathname)} onChange={(event) => navigate(event.target.value)}>
              {sections.map((section) => (
                <option key={section.to} value={section.to}>
                  {t(section.label)}
                  {section.to === '/admin/orders' && toShip ? ` (${toShip})` : ''}
                </option>
              ))}
            </select>
          </label>
        </nav>
        <div className="admin-main">
          <Outlet />
        </div>
      </div>
    </UnsavedChangesGuard>
  );
}

export function ErrorBoundary() {
  return <AdminErrorBoundary />;
}
