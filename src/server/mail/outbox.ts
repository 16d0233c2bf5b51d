import { sql } from 'drizzle-orm';
import type { Locale } from '../../contract/locale.ts';
import type { Executor } from '../db/client.ts';
import { mails, orders } from '../db/schema.ts';
import { enqueue } from '../jobs/queue.ts';
import {
  DEFAULT_MAIL_SHOP,
  type MailData,
  type MailShop,
  type MailTemplate,
  renderMail,
} from './templates.ts';

/** Queue kind of the job that delivers one row of `mails`. */
export const MAIL_SEND_JOB = 'mail.send';

export interface OutgoingMail<T extends MailTemplate> {
  template: T;
  locale: Locale;
  to: string;
  data: MailData[T];
  /** Where answers go, e.g. the visitor of a feedback mail. */
  replyTo?: string;
}

/** What a `mail.send` job carries. */
export interface MailSendPayload {
  mailId: number;
  replyTo?: string;
}

function singleAddress(field: string, value: string): string {
  const address = value.trim();
  if (address === '' || /[\r\n]/.test(address)) throw new TypeError(`${field} must be one e-mail address`);
  return address;
}

/** The order a mail is about: every order mail's data names it as `orderId`. */
function orderOf(data: object): number | undefined {
  const { orderId } = data as { orderId?: unknown };
  return typeof orderId === 'number' && Number.isInteger(orderId) ? orderId : undefined;
}

/**
 * Renders the mail, stores it in `mails` and enqueues its delivery; returns the mail id. Pass the
 * business transaction as `db`: the mail then goes out only if that transaction commits, and a
 * delivery failure is retried by the queue without losing the message. The mails of one order are
 * recorded with it and delivered one after another, in the order of its events (ADR 0055).
 */
export async function queueMail<T extends MailTemplate>(
  db: Executor,
  mail: OutgoingMail<T>,
  shop: MailShop = DEFAULT_MAIL_SHOP,
): Promise<number> {
  const to = singleAddress('to', mail.to);
  const replyTo = mail.replyTo === undefined ? undefined : singleAddress('replyTo', mail.replyTo);
  const rendered = renderMail(mail.template, mail.locale, mail.data, shop);
  const orderId = orderOf(mail.data);
  const [row] = await db
    .insert(mails)
    .values({
      template: mail.template,
      locale: mail.locale,
      to,
      // Null for an order that is not (or no longer) in the database, as after its deletion.
      orderId:
        orderId === undefined
          ? null
          : sql`(select ${orders.id} from ${orders} where ${orders.id} = ${orderId})`,
      ...rendered,
    })
    .returning({ id: mails.id });
  if (!row) throw new Error('The mail was not stored');
  const payload: MailSendPayload = { mailId: row.id, ...(replyTo ? { replyTo } : {}) };
  await enqueue(
    db,
    MAIL_SEND_JOB,
    { ...payload },
    orderId === undefined ? {} : { sequence: `order:${orderId}` },
  );
  return row.id;
}
