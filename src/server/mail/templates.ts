import type { Locale } from '../../contract/locale.ts';
import { accountMails } from './copy/accounts.ts';
import { feedbackMail } from './copy/feedback.ts';
import { orderMails } from './copy/orders.ts';
import { productMails } from './copy/products.ts';
import type { Compose, MailData, MailTemplate, Templates } from './mail-data.ts';
import { DEFAULT_MAIL_SHOP, layout, type MailShop, type RenderedMail } from './render.ts';

/**
 * Every e-mail the shop sends, in Russian and English: the words of each kind of mail in copy/, the
 * blocks and the layout that draw them in render.ts, what each template needs in mail-data.ts.
 */

export type { MailData, MailTemplate, OrderMailData } from './mail-data.ts';
export { DEFAULT_MAIL_SHOP, type MailShop, type RenderedMail } from './render.ts';

const templates: Templates<MailTemplate> = {
  ...accountMails,
  ...feedbackMail,
  ...orderMails,
  ...productMails,
};

/** Subject, HTML and plain text of one mail in the reader's language. */
export function renderMail<T extends MailTemplate>(
  template: T,
  locale: Locale,
  data: MailData[T],
  shop: MailShop = DEFAULT_MAIL_SHOP,
): RenderedMail {
  const compose: Compose<T> = templates[template][locale];
  return layout(compose(data), locale, shop);
}
