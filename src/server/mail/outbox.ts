import { sql } from 'drizzle-orm';
import type { Locale } from '../../contract/locale.ts';
import type { Executor } from '../db/client.ts';
import { jobs, mails, orders } from '../db/schema.ts';
import { jobPayload } from '../jobs/queue.ts';
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
 * A mail's two writes: its row in `mails` (rendered now), as the CTE `mail`, and the values of its
 * delivery job, which reads the mail's id from that CTE. The mails of one order are delivered one
 * after another, in the order of its events (ADR 0055). `order` says where the order the mail is
 * about stands: already stored, or written by the same statement (whose other CTEs PostgreSQL's
 * snapshot does not show, so its id is taken as it is).
 */
function mailWrites<T extends MailTemplate>(
  db: Executor,
  mail: OutgoingMail<T>,
  shop: MailShop,
  order: 'stored' | 'in-this-statement',
) {
  const to = singleAddress('to', mail.to);
  const replyTo = mail.replyTo === undefined ? undefined : singleAddress('replyTo', mail.replyTo);
  const rendered = renderMail(mail.template, mail.locale, mail.data, shop);
  const orderId = orderOf(mail.data);
  const row = db.$with('mail', {}).as(
    db
      .insert(mails)
      .values({
        template: mail.template,
        locale: mail.locale,
        to,
        // Null for an order that is not (or no longer) in the database, as after its deletion.
        orderId:
          orderId === undefined
            ? null
            : order === 'in-this-statement'
              ? orderId
              : sql`(select ${orders.id} from ${orders} where ${orders.id} = ${orderId})`,
        ...rendered,
      })
      .returning({ id: mails.id })
      .getSQL(),
  );
  const rest: Omit<MailSendPayload, 'mailId'> = replyTo ? { replyTo } : {};
  const payload = jobPayload(rest, orderId === undefined ? undefined : `order:${orderId}`);
  const job = {
    kind: MAIL_SEND_JOB,
    payload: sql`jsonb_build_object('mailId', (select id from ${row})) || ${JSON.stringify(payload)}::jsonb`,
  };
  return { row, job };
}

/**
 * Renders the mail, stores it in `mails` and enqueues its delivery, in one statement; returns the
 * mail id. Pass the business transaction as `db`: the mail then goes out only if that transaction
 * commits, and a delivery failure is retried by the queue without losing the message.
 */
export async function queueMail<T extends MailTemplate>(
  db: Executor,
  mail: OutgoingMail<T>,
  shop: MailShop = DEFAULT_MAIL_SHOP,
): Promise<number> {
  const { row, job } = mailWrites(db, mail, shop, 'stored');
  const [queued] = await db.with(row).insert(jobs).values(job).returning({ payload: jobs.payload });
  const mailId = queued?.payload.mailId;
  if (typeof mailId !== 'number') throw new Error('The mail was not stored');
  return mailId;
}

/**
 * The mail of an order written by the caller's statement, as two CTEs to add to it
 * (`db.with(...)`): the order, its mail and the mail's delivery job in one round trip.
 */
export function mailWithOrder<T extends MailTemplate>(
  db: Executor,
  mail: OutgoingMail<T>,
  shop: MailShop = DEFAULT_MAIL_SHOP,
) {
  const { row, job } = mailWrites(db, mail, shop, 'in-this-statement');
  return [row, db.$with('mail_job', {}).as(db.insert(jobs).values(job).getSQL())] as const;
}
