import { type ReactNode, useMemo } from 'react';
import {
  isRouteErrorResponse,
  Link,
  useRevalidator,
  useRouteError,
  useRouteLoaderData,
  useSearchParams,
} from 'react-router';
import { formatMoney, roublesToKopecks } from '../../contract/money.ts';
import { ErrorPage } from '../components/error-page.tsx';
import { FormAlert } from '../components/form-field.tsx';
import type { AdminMessageKey } from '../i18n/admin-messages.ts';
import type { loader as adminLayoutLoader } from '../routes/admin/layout.tsx';
import type { FieldErrors } from './api.ts';
import { useAdminShop } from './text.ts';

/** Building blocks shared by the back office's pages. */

export function AdminPage({
  title,
  actions,
  children,
}: {
  title: string;
  actions?: ReactNode;
  children: ReactNode;
}) {
  const { t } = useAdminShop();
  return (
    <section className="admin-page">
      <title>{`${title} · ${t('admin')} · ${t('site-title')}`}</title>
      <header className="admin-page__head">
        <h1>{title}</h1>
        {actions ? <div className="admin-page__actions">{actions}</div> : null}
      </header>
      {children}
    </section>
  );
}

/** Shown while a page's data loads for the first time (and on the server, which renders no data). */
export function AdminLoading() {
  const { t } = useAdminShop();
  return (
    <p className="admin-loading" role="status">
      <span className="spinner" aria-hidden="true" />
      {t('admin-loading')}
    </p>
  );
}

/** A refused or failed load, shown inside the admin layout (its navigation stays). */
export function AdminErrorBoundary() {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  if (!isRouteErrorResponse(error)) console.error(error);
  return <ErrorPage status={status} />;
}

/** Previous/next links that keep the page's other query parameters, and where the list stands. */
export function Pager({
  currentPage,
  lastPage,
  total,
  children,
}: {
  currentPage: number;
  lastPage: number;
  total: number;
  children?: ReactNode;
}) {
  const { t } = useAdminShop();
  const [params] = useSearchParams();
  const pageLink = (page: number) => {
    const next = new URLSearchParams(params);
    next.set('page', String(page));
    return `?${next}`;
  };
  return (
    <nav className="admin-pager" aria-label={t('admin-pages')}>
      {currentPage > 1 ? (
        <Link to={pageLink(currentPage - 1)} rel="prev" className="button">
          {t('admin-previous-page')}
        </Link>
      ) : null}
      <p className="admin-pager__state">
        {t('admin-page-of', { page: currentPage, last: lastPage })} · {t('admin-total', { count: total })}
        {children}
      </p>
      {currentPage < lastPage ? (
        <Link to={pageLink(currentPage + 1)} rel="next" className="button">
          {t('admin-next-page')}
        </Link>
      ) : null}
    </nav>
  );
}

const ORDER_STATUS_KEYS = [
  'order-status-0',
  'order-status-1',
  'order-status-2',
  'order-status-3',
  'order-status-4',
  'order-status-5',
  'order-status-6',
] as const satisfies AdminMessageKey[];

/** The spec's order-status-N text, or order-status-unknown. */
export const orderStatusKey = (status: number | null | undefined): AdminMessageKey =>
  (status === null || status === undefined ? undefined : ORDER_STATUS_KEYS[status]) ?? 'order-status-unknown';

/** Status texts are lower case for use inside sentences; lists and labels start with a capital. */
export const capitalized = (text: string) => text.charAt(0).toLocaleUpperCase() + text.slice(1);

/** The order status as a label: "Shipped". */
export function useOrderStatusText() {
  const { t } = useAdminShop();
  return (status: number | null | undefined) => capitalized(t(orderStatusKey(status)));
}

export const DELIVERY_METHODS = [
  { value: 'russian_post', label: 'delivery-russian-post' },
  { value: 'boxberry', label: 'delivery-boxberry' },
  { value: 'boxberry.courier', label: 'delivery-boxberry-courier' },
] as const satisfies Array<{ value: string; label: AdminMessageKey }>;

export const deliveryMethodKey = (method: string): AdminMessageKey | undefined =>
  DELIVERY_METHODS.find((entry) => entry.value === method)?.label;

/**
 * Roubles, dates and country names in the page's language. Roubles are written by the shop's one
 * formatter (`formatMoney`, ADR 0082), always with their kopecks: staff compare them with payments
 * and receipts.
 */
export function useAdminFormat() {
  const { locale } = useAdminShop();
  return useMemo(() => {
    const tag = locale === 'ru' ? 'ru-RU' : 'en-GB';
    const dateTime = new Intl.DateTimeFormat(tag, { dateStyle: 'medium', timeStyle: 'short' });
    const day = new Intl.DateTimeFormat(tag, { day: 'numeric', month: 'short', timeZone: 'UTC' });
    const zonedDateTime = new Intl.DateTimeFormat(tag, {
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      timeZoneName: 'short',
    });
    const clock = new Intl.DateTimeFormat(tag, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
    const regions = new Intl.DisplayNames([tag], { type: 'region' });
    const sizeIn = (unit: 'kilobyte' | 'megabyte') =>
      new Intl.NumberFormat(tag, { style: 'unit', unit, maximumFractionDigits: 1 });
    const kilobytes = sizeIn('kilobyte');
    const megabytes = sizeIn('megabyte');
    return {
      money: (roubles: number | null | undefined) =>
        roubles === null || roubles === undefined
          ? '—'
          : formatMoney(roublesToKopecks(roubles), 'RUB', locale, { kopecks: true }),
      /** Roubles shortened for a chart's axis ("₽12.5k"). */
      compactMoney: (roubles: number) =>
        formatMoney(roublesToKopecks(roubles), 'RUB', locale, { compact: true }),
      dateTime: (iso: string) => dateTime.format(new Date(iso)),
      /** A release time with the zone it is shown in ("1 Dec 2026, 15:00 GMT+3"). */
      zonedDateTime: (iso: string) => zonedDateTime.format(new Date(iso)),
      /** The time of day to the second, for "updated at". */
      clock: (iso: string) => clock.format(new Date(iso)),
      day: (isoDay: string) => day.format(new Date(`${isoDay}T00:00:00Z`)),
      /** A file's size in the staff member's units ("2 КБ", "1,5 МБ"). */
      fileSize: (bytes: number) =>
        bytes < 1024 * 1024
          ? kilobytes.format(Math.max(1, Math.round(bytes / 1024)))
          : megabytes.format(bytes / (1024 * 1024)),
      country: (code: string) => {
        try {
          return regions.of(code) ?? code;
        } catch {
          return code;
        }
      },
    };
  }, [locale]);
}

/** Whether the signed-in staff member may delete (admins only): a manager is not shown such buttons. */
export function useMayDelete() {
  return useRouteLoaderData<typeof adminLayoutLoader>('routes/admin/layout')?.role === 'admin';
}

/**
 * A form's refusal above it (`RequestAlert`); when someone else saved the record meanwhile, its
 * button loads their version, which starts the form afresh (forms are keyed by the record's version).
 */
export function FormRefusal({
  alert,
  outcome,
  shownFields,
}: {
  alert: { message?: string | undefined; errors: FieldErrors };
  outcome: { ok: boolean; refusal?: { recordChanged: boolean } | undefined } | undefined;
  shownFields: readonly string[];
}) {
  const revalidator = useRevalidator();
  return (
    <RequestAlert
      message={alert.message}
      errors={alert.errors}
      shownFields={shownFields}
      onReload={
        outcome?.ok === false && outcome.refusal?.recordChanged
          ? () => void revalidator.revalidate()
          : undefined
      }
    />
  );
}

/** The hidden id and version of the record a form edits, when it edits one. */
export function EditedRecord({ record }: { record: { id: number; version: number } | null | undefined }) {
  return record ? (
    <>
      <input type="hidden" name="id" value={record.id} />
      <input type="hidden" name="version" value={record.version} />
    </>
  ) : null;
}

/**
 * The request's message above a form, with the texts of fields the form does not show (an `id`
 * that no longer exists, a rule about the whole record) so that nothing the API said is lost.
 */
export function RequestAlert({
  message,
  errors,
  shownFields,
  onReload,
}: {
  message?: string | undefined;
  errors: FieldErrors;
  shownFields: readonly string[];
  /**
   * Given when someone else saved the record meanwhile: a button loads their version. The form
   * keeps what the user typed until they press it.
   */
  onReload?: (() => void) | undefined;
}) {
  const { t } = useAdminShop();
  const others = Object.entries(errors)
    .filter(
      ([field]) =>
        !shownFields.some(
          (shown) => field === shown || field.startsWith(`${shown}.`) || field.startsWith(`${shown}[`),
        ),
    )
    .flatMap(([, texts]) => texts)
    .filter((text) => text !== message);
  if (!message && others.length === 0) return null;
  return (
    <FormAlert>
      {[message, ...others].filter(Boolean).join(' ')}
      {onReload ? (
        <>
          {' '}
          <button type="button" className="link-button" onClick={onReload}>
            {t('admin-reload-record')}
          </button>
        </>
      ) : null}
    </FormAlert>
  );
}

/** A button that shows a spinner and ignores clicks while its request runs. */
export function BusyButton({
  busy,
  disabled = false,
  children,
  primary = false,
  type = 'submit',
  onClick,
  ...submits
}: {
  busy: boolean;
  disabled?: boolean;
  children: ReactNode;
  primary?: boolean;
  type?: 'submit' | 'button';
  onClick?: () => void;
  /** The `intent` a submit button sends, and the form it sends when it stands outside it. */
  name?: string;
  value?: string;
  form?: string;
}) {
  return (
    <button
      {...submits}
      type={type}
      className={primary ? 'button button--primary' : 'button'}
      disabled={busy || disabled}
      aria-busy={busy}
      onClick={onClick}
    >
      {busy ? <span className="spinner" aria-hidden="true" /> : null}
      {children}
    </button>
  );
}

/** A record form's buttons: Save, and Cancel while an existing record is being edited. */
export function SaveOrCancel({ busy, onCancel }: { busy: boolean; onCancel?: () => void }) {
  const { t } = useAdminShop();
  return (
    <div className="admin-actions">
      <BusyButton busy={busy} primary name="intent" value="save">
        {t('save')}
      </BusyButton>
      {onCancel ? (
        <button type="button" className="button" onClick={onCancel}>
          {t('admin-cancel')}
        </button>
      ) : null}
    </div>
  );
}

/** Edit, hide or show, and delete buttons of one row; `name` tells screen readers which row. */
export function RowActions({
  name,
  visible,
  onEdit,
  onToggle,
  onDelete,
}: {
  name: string;
  visible: boolean;
  onEdit(): void;
  onToggle(): void;
  onDelete(): void;
}) {
  const { t } = useAdminShop();
  const mayDelete = useMayDelete();
  const action = (label: string, onClick: () => void, className = 'link-button') => (
    <button type="button" className={className} onClick={onClick}>
      {label}
      <span className="visually-hidden"> {name}</span>
    </button>
  );
  return (
    <div className="admin-row-actions">
      {action(t('admin-edit'), onEdit)}
      {action(visible ? t('admin-hide') : t('admin-show'), onToggle)}
      {mayDelete ? action(t('admin-delete'), onDelete, 'link-button admin-danger') : null}
    </div>
  );
}

/**
 * One message of an inbox (feedback, reviews): who and about what, when, its state, the text, and
 * the button that flips its state; `who` tells screen readers which message the button is for.
 */
export function MessageCard({
  id,
  modifier,
  heading,
  date,
  state,
  body,
  toggle,
}: {
  id: string;
  /** A class for the message's state (unread, hidden), if it has one. */
  modifier: string | undefined;
  heading: ReactNode;
  date: string;
  state: ReactNode;
  body: string;
  toggle: { label: string; who: string; busy: boolean; onClick: () => void };
}) {
  const format = useAdminFormat();
  return (
    <li className={modifier ? `admin-card admin-message ${modifier}` : 'admin-card admin-message'}>
      <article aria-labelledby={id}>
        <header className="admin-message__head">
          <h2 id={id} className="admin-message__from">
            {heading}
          </h2>
          <time dateTime={date}>{format.dateTime(date)}</time>
          <span className="admin-message__state">{state}</span>
        </header>
        <p className="admin-prewrap">{body}</p>
        <button type="button" className="button" disabled={toggle.busy} onClick={toggle.onClick}>
          {toggle.label}
          <span className="visually-hidden"> · {toggle.who}</span>
        </button>
      </article>
    </li>
  );
}
