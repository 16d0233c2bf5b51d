import { type FormEvent, useState } from 'react';
import { adminApi, loadAdmin } from '../../admin/api.ts';
import { useAdminShop } from '../../admin/text.ts';
import type { StaffMember } from '../../admin/types.ts';
import {
  AdminErrorBoundary,
  AdminLoading,
  AdminPage,
  BusyButton,
  RequestAlert,
  useAdminRequest,
} from '../../admin/ui.tsx';
import { useUnsavedChanges } from '../../admin/unsaved-changes.tsx';
import { FormField, FormSuccess, SelectField } from '../../components/form-field.tsx';
import type { Route } from './+types/staff';

export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  return loadAdmin<{ staff: StaffMember[] }>('/staff', request);
}

export function HydrateFallback() {
  return <AdminLoading />;
}

const ROLE_LABELS = {
  manager: 'admin-role-manager',
  admin: 'admin-role-admin',
  customer: 'admin-role-customer',
} as const;

/** Staff: invite by e-mail as manager or admin, change a role, take someone off the staff. */
export default function Staff({ loaderData }: Route.ComponentProps) {
  const { t } = useAdminShop();
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
                      onChange={(event) =>
                        void change.run(() =>
                          adminApi('PATCH', `/staff/${member.id}`, { json: { role: event.target.value } }),
                        )
                      }
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
