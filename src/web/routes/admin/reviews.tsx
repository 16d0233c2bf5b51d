import { Form, useFetcher } from 'react-router';
import { adminReviewsResponse } from '../../../contract/admin-answers.ts';
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
import { SelectField } from '../../components/form-field.tsx';
import type { Route } from './+types/reviews';

export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  const url = new URL(request.url);
  const hidden = url.searchParams.get('hidden');
  const filter = {
    search: url.searchParams.get('search') ?? '',
    hidden: hidden === '0' || hidden === '1' ? hidden : '',
  };
  const page = await loadAdminAnswer(adminReviewsResponse, '/reviews', request, {
    ...filter,
    page: url.searchParams.get('page'),
  });
  return { filter, page };
}

/** A message's `hidden` flag, flipped by its button. */
export async function clientAction({ request }: Route.ClientActionArgs) {
  const formData = await request.formData();
  const id = encodeURIComponent(String(formData.get('id')));
  return adminWrite(() => adminApi('PATCH', `/reviews/${id}`, { json: { hidden: formData.get('hidden') } }));
}

export const shouldRevalidate = revalidateUnlessRefused;

export function HydrateFallback() {
  return <AdminLoading />;
}

/** Review moderation: a hidden review leaves the product's thread and its rating. */
export default function ReviewsPage({ loaderData }: Route.ComponentProps) {
  const { t, locale } = useAdminShop();
  const moderate = useFetcher<typeof clientAction>();
  const { filter, page } = loaderData;

  return (
    <AdminPage title={t('admin-reviews')}>
      <Form
        method="get"
        className="admin-card admin-inline-search"
        role="search"
        aria-label={t('admin-search-reviews')}
        key={JSON.stringify(filter)}
      >
        <label htmlFor="review-search">{t('admin-search')}</label>
        <input id="review-search" type="search" name="search" defaultValue={filter.search} />
        <SelectField name="hidden" label={t('admin-visibility')} defaultValue={filter.hidden}>
          <option value="">{t('admin-all-reviews')}</option>
          <option value="0">{t('admin-shown')}</option>
          <option value="1">{t('admin-hidden')}</option>
        </SelectField>
        <button type="submit" className="button">
          {t('search')}
        </button>
      </Form>
      <RequestAlert message={moderate.data?.error} errors={{}} shownFields={[]} />
      {page.list.length === 0 ? (
        <p className="admin-card">{t('admin-nothing-found')}</p>
      ) : (
        <ul className="admin-messages">
          {page.list.map((review) => (
            <MessageCard
              key={review.id}
              id={`review-${review.id}`}
              modifier={review.hidden ? 'admin-row--hidden' : undefined}
              heading={
                <>
                  <a href={`/product/${review.product.link}`} target="_blank" rel="noreferrer">
                    {locale === 'ru' ? review.product.name_ru : review.product.name_en}
                  </a>{' '}
                  · {review.email}
                </>
              }
              date={review.date}
              state={
                <>
                  {t('admin-rating', { rating: review.rating })} ·{' '}
                  {review.hidden ? t('admin-hidden') : t('admin-shown')}
                </>
              }
              body={review.body}
              toggle={{
                label: review.hidden ? t('admin-show') : t('admin-hide'),
                who: review.email,
                busy: moderate.state !== 'idle',
                onClick: () =>
                  void moderate.submit(
                    { id: review.id, hidden: review.hidden ? '0' : '1' },
                    { method: 'post' },
                  ),
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
