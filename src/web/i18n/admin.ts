import type { Locale } from '../../contract/locale.ts';
import { audit } from './admin/audit.ts';
import { customers } from './admin/customers.ts';
import { dashboard } from './admin/dashboard.ts';
import { drops } from './admin/drops.ts';
import { exchangeRate } from './admin/exchange-rate.ts';
import { feedbackReviews } from './admin/feedback-reviews.ts';
import { files } from './admin/files.ts';
import { layout } from './admin/layout.ts';
import { orderPayments } from './admin/order-payments.ts';
import { orders } from './admin/orders.ts';
import { products } from './admin/products.ts';
import { productsCsv } from './admin/products-csv.ts';
import { projectsCategoriesPartners } from './admin/projects-categories-partners.ts';
import { promoCodes } from './admin/promo-codes.ts';
import { richText } from './admin/rich-text.ts';
import { search } from './admin/search.ts';
import { shipping } from './admin/shipping.ts';
import { staff } from './admin/staff.ts';
import { variants } from './admin/variants.ts';

/** The back office's own texts, by section (src/web/i18n/admin/), each key in both languages. */
const texts = {
  ...layout,
  ...shipping,
  ...exchangeRate,
  ...customers,
  ...staff,
  ...dashboard,
  ...orders,
  ...orderPayments,
  ...products,
  ...projectsCategoriesPartners,
  ...files,
  ...richText,
  ...feedbackReviews,
  ...search,
  ...audit,
  ...productsCsv,
  ...variants,
  ...promoCodes,
  ...drops,
};

export type AdminTextKey = keyof typeof texts;

function inLanguage(locale: Locale): Record<AdminTextKey, string> {
  return Object.fromEntries(Object.entries(texts).map(([key, text]) => [key, text[locale]])) as Record<
    AdminTextKey,
    string
  >;
}

export const adminMessages = { en: inLanguage('en'), ru: inLanguage('ru') };
