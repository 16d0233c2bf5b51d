import { adminTranslator } from '../i18n/admin-messages.ts';
import { useShop } from '../lib/shop.ts';

/** `useShop` for the back office: its `t` knows the back office's texts as well as the shop's. */
export function useAdminShop() {
  const shop = useShop();
  return { ...shop, t: adminTranslator(shop.locale) };
}

/** Payment providers by the names they go by (the same in both languages); an unknown code as it is. */
export const PROVIDER_NAMES: Record<string, string> = { robokassa: 'Robokassa', paypal: 'PayPal' };
export const providerName = (code: string): string => PROVIDER_NAMES[code] ?? code;

/** An order's payment method for staff: the provider and, in the staff member's language, what it takes. */
export function usePaymentMethodName() {
  const { t } = useAdminShop();
  // PayPal's own name says what it takes; Robokassa's does not.
  return (code: string): string =>
    code === 'robokassa' ? `Robokassa: ${t('payment-robokassa').toLocaleLowerCase()}` : providerName(code);
}
