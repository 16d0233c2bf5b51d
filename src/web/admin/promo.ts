import type { promoCodeListResponse } from '../../contract/admin-answers.ts';
import type { z } from '../../contract/zod.ts';
import type { AdminMessageKey } from '../i18n/admin-messages.ts';
import { useAdminShop } from './text.ts';
import { useAdminFormat } from './ui.tsx';

/** The back office's promo codes as the API answers them (ADR 0058). */
export type PromoRow = z.output<typeof promoCodeListResponse>['promoCodes'][number];
type PromoState = PromoRow['state'];

export const PROMO_STATES: Record<PromoState, AdminMessageKey> = {
  active: 'admin-promo-state-active',
  paused: 'admin-promo-state-paused',
  scheduled: 'admin-promo-state-scheduled',
  expired: 'admin-promo-state-expired',
  'used-up': 'admin-promo-state-used-up',
};

/** A code's discount as staff read it: "10 %" or "500 ₽". */
export function usePromoValue() {
  const { t } = useAdminShop();
  const format = useAdminFormat();
  return (code: { kind: 'percent' | 'amount'; value: number }) =>
    code.kind === 'percent' ? t('admin-promo-percent', { value: code.value }) : format.money(code.value);
}
