import { type Placeholder, sql } from 'drizzle-orm';
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

/** The mail's address, reply address and rendered text, checked and rendered now. */
function checkedAndRendered<T extends MailTemplate>(mail: OutgoingMail<T>, shop: MailShop) {
  const to = singleAddress('to', mail.to);
  const replyTo = mail.replyTo === undefined ? undefined : singleAddress('replyTo', mail.replyTo);
  const rest: Omit<MailSendPayload, 'mailId'> = replyTo ? { replyTo } : {};
  const orderId = orderOf(mail.data);
  // The mails of one order are delivered one after another, in the order of its events (ADR 0055).
  const payload = jobPayload(rest, orderId === undefined ? undefined : `order:${orderId}`);
  return { to, orderId, rendered: renderMail(mail.template, mail.locale, mail.data, shop), payload };
}

/**
 * A mail's two writes: its row in `mails` (rendered now), as the CTE `mail`, and the values of its
 * delivery job, which reads the mail's id from that CTE. The order the mail is about is already
 * stored; null when it is not (or no longer) in the database, as after its deletion.
 */
function mailWrites<T extends MailTemplate>(db: Executor, mail: OutgoingMail<T>, shop: MailShop) {
  const { to, orderId, rendered, payload } = checkedAndRendered(mail, shop);
  const row = db.$with('mail', {}).as(
    db
      .insert(mails)
      .values({
        template: mail.template,
        locale: mail.locale,
        to,
        orderId:
          orderId === undefined
            ? null
            : sql`(select ${orders.id} from ${orders} where ${orders.id} = ${orderId})`,
        ...rendered,
      })
      .returning({ id: mails.id })
      .getSQL(),
  );
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
  const { row, job } = mailWrites(db, mail, shop);
  const [queued] = await db.with(row).insert(jobs).values(job).returning({ payload: jobs.payload });
  const mailId = queued?.payload.mailId;
  if (typeof mailId !== 'number') throw new Error('The mail was not stored');
  return mailId;
}

/**
 * The mail of an order written by the caller's statement, as two CTEs to add to it
 * (`db.with(...)`): the order, its mail and the mail's delivery job in one round trip. Built with
 * placeholders, once per connection with the caller's statement (ADR 0095); `orderMailValues`
 * gives their values. The order's id is taken as it is: PostgreSQL's snapshot does not show the
 * statement's other CTEs.
 */
export function mailWithOrder(db: Executor, orderId: Placeholder) {
  const row = db.$with('mail', {}).as(
    db
      .insert(mails)
      .values({
        template: sql.placeholder('mailTemplate'),
        locale: sql.placeholder('mailLocale'),
        to: sql.placeholder('mailTo'),
        orderId,
        subject: sql.placeholder('mailSubject'),
        html: sql.placeholder('mailHtml'),
        text: sql.placeholder('mailText'),
      })
      .returning({ id: mails.id })
      .getSQL(),
  );
  const job = db.insert(jobs).values({
    kind: MAIL_SEND_JOB,
    payload: sql`jsonb_build_object('mailId', (select id from ${row})) || ${sql.placeholder('mailJob')}::jsonb`,
  });
  return [row, db.$with('mail_job', {}).as(job.getSQL())] as const;
}

/** The values of `mailWithOrder`'s placeholders for this mail. */
export function orderMailValues<T extends MailTemplate>(
  mail: OutgoingMail<T>,
  shop: MailShop = DEFAULT_MAIL_SHOP,
) {
  const { to, rendered, payload } = checkedAndRendered(mail, shop);
  return {
    mailTemplate: mail.template,
    mailLocale: mail.locale,
    mailTo: to,
    mailSubject: rendered.subject,
    mailHtml: rendered.html,
    mailText: rendered.text,
    mailJob: JSON.stringify(payload),
  };
}
