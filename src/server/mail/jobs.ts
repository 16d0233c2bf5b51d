import { and, eq, isNull } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { mails } from '../db/schema.ts';
import type { JobHandler, JobPayload } from '../jobs/queue.ts';
import type { MailSendPayload } from './outbox.ts';
import type { MailTransport } from './transport.ts';

export interface MailSendOptions {
  db: Executor;
  transport: MailTransport;
  /** The From header, config.mail.from. */
  from: string;
}

function parsePayload(payload: JobPayload): MailSendPayload {
  const { mailId, replyTo } = payload;
  if (typeof mailId !== 'number' || !Number.isInteger(mailId) || mailId <= 0)
    throw new TypeError(`mail.send needs a mail id, got ${JSON.stringify(mailId)}`);
  if (replyTo !== undefined && typeof replyTo !== 'string')
    throw new TypeError(`mail.send replyTo must be a string, got ${JSON.stringify(replyTo)}`);
  return { mailId, ...(replyTo ? { replyTo } : {}) };
}

/**
 * Delivers one stored mail. A mail already sent is skipped, so a repeated job sends nothing twice;
 * a delivery failure throws and the queue retries it with backoff. (If the mail goes out but
 * recording `sent_at` fails, the retry sends it again: delivery is at least once.)
 */
export function mailSendHandler({ db, transport, from }: MailSendOptions): JobHandler {
  return async (payload, context) => {
    const { mailId, replyTo } = parsePayload(payload);
    const [mail] = await db.select().from(mails).where(eq(mails.id, mailId));
    if (!mail) throw new Error(`Mail ${mailId} does not exist`);
    if (mail.sentAt) return;
    await transport.send({
      from,
      to: mail.to,
      ...(replyTo ? { replyTo } : {}),
      subject: mail.subject,
      html: mail.html,
      text: mail.text,
      mailId,
    });
    await db
      .update(mails)
      .set({ sentAt: context.now })
      .where(and(eq(mails.id, mailId), isNull(mails.sentAt)));
  };
}
