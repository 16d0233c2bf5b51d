import { type FormEvent, useState } from 'react';
import { AdminApiError, adminApi, loadAdmin } from '../../admin/api.ts';
import { useAdminShop } from '../../admin/text.ts';
import type { StaffInvitation, StaffMember } from '../../admin/types.ts';
import {
  AdminErrorBoundary,
  AdminLoading,
  AdminPage,
  BusyButton,
  RequestAlert,
  useAdminFormat,
  useAdminRequest,
} from '../../admin/ui.tsx';
import { useUnsavedChanges } from '../../admin/unsaved-changes.tsx';
import { FormField, FormSuccess, SelectField } from '../../components/form-field.tsx';
import type { Route } from './+types/staff';

export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  // A manager is told plainly what the page is and who can help, not sent to an error page.
  const adminOnly = await adminApi('GET', '/staff', { signal: request.signal }).then(
    () => false,
    (error: unknown) => error instanceof AdminApiError && error.status === 403,
  );
  if (adminOnly) return { adminOnly: true as const, staff: [], invitations: [] };
  return {
    adminOnly: false as const,
    ...(await loadAdmin<{ staff: StaffMember[]; invitations: StaffInvitation[] }>('/staff', request)),
  };
}

export function HydrateFallback() {
  return <AdminLoading />;
}

const ROLE_LABELS = {
  manager: 'admin-role-manager',
  admin: 'admin-role-admin',
  customer: 'admin-role-customer',
} as const;

/**
 * Staff (admins only): invite an address as manager or admin (a pending invitation until its owner
 * accepts it, which can be revoked), change a role after a confirmation, take someone off the staff.
 */
export default function Staff({ loaderData }: Route.ComponentProps) {
  const { t } = useAdminShop();
  const format = useAdminFormat();
  const invite = useAdminRequest();
  const change = useAdminRequest();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState('manager');
  useUnsavedChanges(email.trim() !== '');

  const send = async (event: FormEvent) => {
    event.preventDefault();
    const sent = await invite.run(() => adminApi('POST', '/staff', { json: { email, role } }), {
      success: t('admin-staff-invited', { email }),
    });
    if (sent) setEmail('');
  };

  const changeRole = (member: StaffMember, role: string) => {
    const label = t(ROLE_LABELS[role as keyof typeof ROLE_LABELS]);
    if (!window.confirm(t('admin-staff-role-confirm', { email: member.email, role: label }))) return;
    void change.run(() => adminApi('PATCH', `/staff/${member.id}`, { json: { role } }), {
      success: t('admin-staff-role-changed', { email: member.email, role: label }),
    });
  };
  const revoke = (invitation: StaffInvitation) => {
    if (!window.confirm(t('admin-staff-revoke-confirm', { email: invitation.email }))) return;
    void change.run(() => adminApi('DELETE', `/staff/invitations/${invitation.id}`), {
      success: t('admin-staff-revoked', { email: invitation.email }),
    });
  };

  if (loaderData.adminOnly)
    return (
      <AdminPage title={t('admin-staff')}>
        <section className="admin-card">
          <p>{t('admin-staff-admin-only')}</p>
        </section>
      </AdminPage>
    );

  return (
    <AdminPage title={t('admin-staff')}>
      <section className="admin-card" aria-labelledby="staff-invite">
        <h2 id="staff-invite">{t('admin-staff-invite')}</h2>
        <form className="admin-form" onSubmit={send}>
          <RequestAlert message={invite.message} errors={invite.errors} shownFields={['email', 'role']} />
          <FormSuccess>{invite.done}</FormSuccess>
          <div className="admin-form__pair">
            <FormField
              name="email"
              type="email"
              label="E-mail"
              autoComplete="off"
              required
              value={email}
              onChange={(event) => setEmail(event.target.value)}
              errors={invite.errors.email}
            />
            <SelectField
              name="role"
              label={t('admin-role')}
              value={role}
              onChange={(event) => setRole(event.target.value)}
              errors={invite.errors.role}
            >
              <option value="manager">{t(ROLE_LABELS.manager)}</option>
              <option value="admin">{t(ROLE_LABELS.admin)}</option>
            </SelectField>
          </div>
          <p className="admin-muted">{t('admin-staff-roles-hint')}</p>
          <BusyButton busy={invite.busy} primary>
            {t('admin-staff-send-invite')}
          </BusyButton>
        </form>
      </section>

      <section className="admin-card" aria-labelledby="staff-list">
        <h2 id="staff-list">{t('admin-staff-list')}</h2>
        <RequestAlert message={change.message} errors={change.errors} shownFields={[]} />
        <FormSuccess>{change.done}</FormSuccess>
        {loaderData.invitations.length > 0 ? (
          <div className="admin-table-scroll">
            <table className="admin-table">
              <caption>{t('admin-staff-invitations')}</caption>
              <thead>
                <tr>
                  <th scope="col">E-mail</th>
                  <th scope="col">{t('admin-role')}</th>
                  <th scope="col">{t('admin-staff-invited-by')}</th>
                  <th scope="col">{t('admin-staff-invitation-expires')}</th>
                  <th scope="col">
                    <span className="visually-hidden">{t('admin-actions')}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {loaderData.invitations.map((invitation) => (
                  <tr key={invitation.id}>
                    <td>{invitation.email}</td>
                    <td>{t(ROLE_LABELS[invitation.role])}</td>
                    <td>{invitation.invitedBy ?? '—'}</td>
                    <td>{format.dateTime(invitation.expiresAt)}</td>
                    <td>
                      <button
                        type="button"
                        className="button admin-button--danger"
                        disabled={change.busy}
                        onClick={() => revoke(invitation)}
                      >
                        {t('admin-staff-revoke')}
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
        <div className="admin-table-scroll">
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">E-mail</th>
                <th scope="col">{t('admin-customer-name')}</th>
                <th scope="col">{t('admin-role')}</th>
              </tr>
            </thead>
            <tbody>
              {loaderData.staff.map((member) => (
                <tr key={member.id}>
                  <td>
                    {member.email}
                    {member.confirmed ? null : (
                      <span className="admin-muted"> ({t('admin-staff-invitation-pending')})</span>
                    )}
                  </td>
                  <td>{member.name || '—'}</td>
                  <td>
                    <label className="visually-hidden" htmlFor={`role-${member.id}`}>
                      {t('admin-role-of', { email: member.email })}
                    </label>
                    <select
                      id={`role-${member.id}`}
                      value={member.role}
                      disabled={change.busy}
                      onChange={(event) => changeRole(member, event.target.value)}
                    >
                      {(['manager', 'admin', 'customer'] as const).map((value) => (
                        <option key={value} value={value}>
                          {t(ROLE_LABELS[value])}
                        </option>
                      ))}
                    </select>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
    </AdminPage>
  );
}

export function ErrorBoundary() {
  return <AdminErrorBoundary />;
}
