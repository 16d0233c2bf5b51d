import { adminTranslator } from '../i18n/admin-messages.ts';
import { useShop } from '../lib/shop.ts';

/** `useShop` for the back office: its `t` knows the back office's texts as well as the shop's. */
export function useAdminShop() {
  const shop = useShop();
  return { ...shop, t: adminTranslator(shop.locale) };
}
