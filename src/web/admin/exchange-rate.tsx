import { type FormEvent, useState } from 'react';
import { FormField, FormSuccess } from '../components/form-field.tsx';
import { adminApi } from './api.ts';
import { useAdminShop } from './text.ts';
import type { ExchangeRateStatus } from './types.ts';
import { BusyButton, RequestAlert, useAdminFormat, useAdminRequest } from './ui.tsx';

const SOURCE_LABELS = {
  cbr: 'admin-rate-source-cbr',
  moex: 'admin-rate-source-moex',
  manual: 'admin-rate-source-manual',
  seed: 'admin-rate-source-seed',
} as const;

/**
 * The dollar rate in force (ADR 0053): its value, the day it is for and where it came from; a
 * warning when there is none recent enough, so dollar prices are withheld; and a form to set one
 * by hand for today.
 */
export function ExchangeRateCard({ status }: { status: ExchangeRateStatus }) {
  const { t } = useAdminShop();
  const format = useAdminFormat();
  const request = useAdminRequest();
  const [rate, setRate] = useState('');
  const { current } = status;

  const send = async (event: FormEvent) => {
    event.preventDefault();
    const saved = await request.run(() => adminApi('POST', '/exchange-rate', { json: { rate } }), {
      success: t('admin-rate-saved'),
    });
    if (saved) setRate('');
  };

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
      <form className="admin-form" onSubmit={send}>
        <RequestAlert message={request.message} errors={request.errors} shownFields={['rate']} />
        <FormSuccess>{request.done}</FormSuccess>
        <FormField
          name="rate"
          label={t('admin-rate-manual')}
          inputMode="decimal"
          autoComplete="off"
          required
          value={rate}
          onChange={(event) => setRate(event.target.value)}
          hint={t('admin-rate-manual-hint')}
          errors={request.errors.rate}
        />
        <BusyButton busy={request.busy}>{t('admin-rate-set')}</BusyButton>
      </form>
    </section>
  );
}
