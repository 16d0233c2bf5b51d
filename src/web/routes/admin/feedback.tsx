import { Form, useFetcher } from 'react-router';
import { feedbackListResponse } from '../../../contract/admin-answers.ts';
import { adminApi, loadAdminAnswer } from '../../admin/api.ts';
import { adminWrite, revalidateUnlessRefused } from '../../admin/forms.ts';
import { useAdminShop } from '../../admin/text.ts';
import {
  AdminErrorBoundary,
  AdminLoading,
  AdminPage,
  MessageCard,
  Pager,
  RequestAlert,
} from '../../admin/ui.tsx';
import type { Route } from './+types/feedback';

export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  const url = new URL(request.url);
  const filter = {
    search: url.searchParams.get('search') ?? '',
    unread: url.searchParams.get('unread') === '1',
  };
  const page = await loadAdminAnswer(feedbackListResponse, '/feedback', request, {
    search: filter.search,
    unread: filter.unread ? '1' : undefined,
    page: url.searchParams.get('page'),
  });
  return { filter, page };
}

/** A message's `read` flag, flipped by its button. */
export async function clientAction({ request }: Route.ClientActionArgs) {
  const formData = await request.formData();
  const id = encodeURIComponent(String(formData.get('id')));
  return adminWrite(() => adminApi('PATCH', `/feedback/${id}`, { json: { read: formData.get('read') } }));
}

export const shouldRevalidate = revalidateUnlessRefused;

export function HydrateFallback() {
  return <AdminLoading />;
}

/** The feedback inbox: unread messages first; each can be marked read or unread. */
export default function FeedbackInbox({ loaderData }: Route.ComponentProps) {
  const { t } = useAdminShop();
  const mark = useFetcher<typeof clientAction>();
  const { filter, page } = loaderData;

  return (
    <AdminPage title={t('admin-feedback')}>
      <Form
        method="get"
        className="admin-card admin-inline-search"
        role="search"
        aria-label={t('admin-search-feedback')}
        key={JSON.stringify(filter)}
      >
        <label htmlFor="feedback-search">{t('admin-search')}</label>
        <input id="feedback-search" type="search" name="search" defaultValue={filter.search} />
        <label className="admin-inline-check">
          <input type="checkbox" name="unread" value="1" defaultChecked={filter.unread} />
          {t('admin-unread-only')}
        </label>
        <button type="submit" className="button">
          {t('search')}
        </button>
      </Form>
      <p className="admin-muted">{t('admin-unread-count', { count: page.unread })}</p>
      <RequestAlert message={mark.data?.error} errors={{}} shownFields={[]} />
      {page.list.length === 0 ? (
        <p className="admin-card">{t('admin-inbox-empty')}</p>
      ) : (
        <ul className="admin-messages">
          {page.list.map((message) => (
            <MessageCard
              key={message.id}
              id={`message-${message.id}`}
              modifier={message.read ? undefined : 'admin-message--unread'}
              heading={
                <>
                  {message.name} · <a href={`mailto:${message.email}`}>{message.email}</a>
                </>
              }
              date={message.date}
              state={message.read ? t('admin-read') : t('admin-unread')}
              body={message.message}
              toggle={{
                label: message.read ? t('admin-mark-unread') : t('admin-mark-read'),
                who: message.name,
                busy: mark.state !== 'idle',
                onClick: () =>
                  void mark.submit({ id: message.id, read: message.read ? '0' : '1' }, { method: 'post' }),
              }}
            />
          ))}
        </ul>
      )}
      <Pager currentPage={page.currentPage} lastPage={page.lastPage} total={page.total} />
    </AdminPage>
  );
}

export function ErrorBoundary() {
  return <AdminErrorBoundary />;
}
