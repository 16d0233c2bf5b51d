import { getFormProps } from '@conform-to/react';
import { useFetcher } from 'react-router';
import { manualRateInput } from '../../contract/admin.ts';
import { exchangeRateResponse } from '../../contract/admin-answers.ts';
import { FormField, FormSuccess } from '../components/form-field.tsx';
import {
  type AdminFormOutcome,
  adminCall,
  fieldProps,
  formAlert,
  submitAdminForm,
  useAdminForm,
} from './forms.ts';
import { useAdminShop } from './text.ts';
import type { ExchangeRateStatus } from './types.ts';
import { BusyButton, RequestAlert, useAdminFormat } from './ui.tsx';

const SOURCE_LABELS = {
  cbr: 'admin-rate-source-cbr',
  moex: 'admin-rate-source-moex',
  manual: 'admin-rate-source-manual',
  seed: 'admin-rate-source-seed',
} as const;

/** The page's action for the rate form (`intent=exchange-rate`): a rate set by hand for today. */
export const setExchangeRate = (formData: FormData) =>
  submitAdminForm(formData, {
    schema: manualRateInput,
    send: (json) => adminCall(exchangeRateResponse, 'POST', '/exchange-rate', { json }),
    resetOnSuccess: true,
  });

/**
 * The dollar rate in force (ADR 0053): its value, the day it is for and where it came from; a
 * warning when there is none recent enough, so dollar prices are withheld; and a form to set one
 * by hand for today, sent to the page's action.
 */
export function ExchangeRateCard({ status }: { status: ExchangeRateStatus }) {
  const { t } = useAdminShop();
  const format = useAdminFormat();
  const fetcher = useFetcher<{ intent: 'exchange-rate' } & AdminFormOutcome<unknown>>({
    key: 'exchange-rate',
  });
  const outcome = fetcher.data?.intent === 'exchange-rate' ? fetcher.data : undefined;
  const [form, fields] = useAdminForm({
    schema: manualRateInput,
    lastResult: outcome?.result,
    defaultValue: { rate: '' },
  });
  const alert = formAlert(form);
  const { current } = status;

  return (
    <section className="admin-card" aria-labelledby="exchange-rate-heading">
      <h2 id="exchange-rate-heading">{t('admin-rate')}</h2>
      {status.withheld ? (
        <p className="admin-danger" role="alert">
          {current
            ? t('admin-rate-withheld-old', { date: format.day(current.rateDate), days: status.maxAgeDays })
            : t('admin-rate-withheld-none')}
        </p>
      ) : null}
      {current ? (
        <p>
          {t('admin-rate-in-force', {
            rate: current.rate.toFixed(4),
            date: format.day(current.rateDate),
            source: t(
              SOURCE_LABELS[current.source as keyof typeof SOURCE_LABELS] ?? 'admin-rate-source-manual',
            ),
          })}
          {current.setBy ? ` ${t('admin-rate-set-by', { email: current.setBy })}` : null}
        </p>
      ) : null}
      <fetcher.Form method="post" {...getFormProps(form)} className="admin-form">
        <RequestAlert message={alert.message} errors={alert.errors} shownFields={['rate']} />
        <FormSuccess>
          {outcome?.ok && fetcher.state === 'idle' ? t('admin-rate-saved') : undefined}
        </FormSuccess>
        <FormField
          {...fieldProps(fields.rate)}
          label={t('admin-rate-manual')}
          inputMode="decimal"
          autoComplete="off"
          required
          hint={t('admin-rate-manual-hint')}
        />
        <BusyButton busy={fetcher.state !== 'idle'} name="intent" value="exchange-rate">
          {t('admin-rate-set')}
        </BusyButton>
      </fetcher.Form>
    </section>
  );
}
