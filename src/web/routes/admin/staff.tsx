import { getFormProps } from '@conform-to/react';
import { useFetcher } from 'react-router';
import { staffInvite } from '../../../contract/admin.ts';
import { staffListResponse } from '../../../contract/admin-answers.ts';
import { AdminApiError, adminApi, loadAdminAnswer } from '../../admin/api.ts';
import {
  adminWrite,
  fieldProps,
  formAlert,
  revalidateUnlessRefused,
  submitAdminForm,
  useAdminForm,
} from '../../admin/forms.ts';
import { useAdminShop } from '../../admin/text.ts';
import type { StaffInvitation, StaffMember } from '../../admin/types.ts';
import {
  AdminErrorBoundary,
  AdminLoading,
  AdminPage,
  BusyButton,
  RequestAlert,
  useAdminFormat,
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
    ...(await loadAdminAnswer(staffListResponse, '/staff', request)),
  };
}

/**
 * The staff page's writes: an invitation from the form, a member's new role, an invitation
 * revoked. Each answer names whom it was about, for the confirmation.
 */
export async function clientAction({ request }: Route.ClientActionArgs) {
  const formData = await request.formData();
  const intent = formData.get('intent');
  const email = String(formData.get('email') ?? '');
  const id = encodeURIComponent(String(formData.get('id') ?? ''));
  switch (intent) {
    case 'invite':
      return {
        intent,
        email,
        ...(await submitAdminForm(formData, {
          schema: staffInvite,
          send: (fields) => adminApi('POST', '/staff', { json: fields }),
          resetOnSuccess: true,
        })),
      };
    case 'role': {
      const role = String(formData.get('role'));
      return {
        intent,
        email,
        role,
        ...(await adminWrite(() => adminApi('PATCH', `/staff/${id}`, { json: { role } }))),
      };
    }
    case 'revoke':
      return { intent, email, ...(await adminWrite(() => adminApi('DELETE', `/staff/invitations/${id}`))) };
    default:
      throw new Response(null, { status: 400 });
  }
}

export const shouldRevalidate = revalidateUnlessRefused;

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
  const invite = useFetcher<typeof clientAction>({ key: 'staff-invite' });
  const invited = invite.data?.intent === 'invite' ? invite.data : undefined;
  const [form, fields] = useAdminForm({
    schema: staffInvite,
    lastResult: invited?.result,
    defaultValue: { email: '', role: 'manager' },
  });
  useUnsavedChanges(typeof fields.email.value === 'string' && fields.email.value.trim() !== '');
  const inviteAlert = formAlert(form);
  const change = useFetcher<typeof clientAction>();
  const changed =
    change.data?.intent === 'role' || change.data?.intent === 'revoke' ? change.data : undefined;
  const roleLabel = (role: string) => t(ROLE_LABELS[role as keyof typeof ROLE_LABELS]);
  const changeDone =
    changed && changed.error === undefined
      ? changed.intent === 'role'
        ? t('admin-staff-role-changed', { email: changed.email, role: roleLabel(changed.role) })
        : t('admin-staff-revoked', { email: changed.email })
      : undefined;

  const changeRole = (member: StaffMember, role: string) => {
    if (!window.confirm(t('admin-staff-role-confirm', { email: member.email, role: roleLabel(role) })))
      return;
    void change.submit({ intent: 'role', id: member.id, email: member.email, role }, { method: 'post' });
  };
  const revoke = (invitation: StaffInvitation) => {
    if (!window.confirm(t('admin-staff-revoke-confirm', { email: invitation.email }))) return;
    void change.submit({ intent: 'revoke', id: invitation.id, email: invitation.email }, { method: 'post' });
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
        <invite.Form method="post" {...getFormProps(form)} className="admin-form">
          <RequestAlert
            message={inviteAlert.message}
            errors={inviteAlert.errors}
            shownFields={['email', 'role']}
          />
          <FormSuccess>{invited?.ok ? t('admin-staff-invited', { email: invited.email }) : null}</FormSuccess>
          <div className="admin-form__pair">
            <FormField
              {...fieldProps(fields.email)}
              type="email"
              label="E-mail"
              autoComplete="off"
              required
            />
            <SelectField {...fieldProps(fields.role)} label={t('admin-role')}>
              <option value="manager">{t(ROLE_LABELS.manager)}</option>
              <option value="admin">{t(ROLE_LABELS.admin)}</option>
            </SelectField>
          </div>
          <p className="admin-muted">{t('admin-staff-roles-hint')}</p>
          <BusyButton busy={invite.state !== 'idle'} primary name="intent" value="invite">
            {t('admin-staff-send-invite')}
          </BusyButton>
        </invite.Form>
      </section>

      <section className="admin-card" aria-labelledby="staff-list">
        <h2 id="staff-list">{t('admin-staff-list')}</h2>
        <RequestAlert message={changed?.error} errors={{}} shownFields={[]} />
        <FormSuccess>{changeDone}</FormSuccess>
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
                        disabled={change.state !== 'idle'}
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
                      disabled={change.state !== 'idle'}
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
