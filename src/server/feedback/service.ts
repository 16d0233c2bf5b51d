import type { FeedbackInput } from '../../contract/feedback.ts';
import type { Locale } from '../../contract/locale.ts';
import type { Executor } from '../db/client.ts';
import { feedback } from '../db/schema.ts';
import { queueMail } from '../mail/outbox.ts';
import type { MailShop } from '../mail/templates.ts';

/** Stores a visitor's message and mails it to the shop, replying to the visitor. */
export async function submitFeedback(
  db: Executor,
  input: FeedbackInput,
  context: { shop: MailShop; locale: Locale; ip: string },
): Promise<void> {
  await db.transaction(async (transaction) => {
    await transaction
      .insert(feedback)
      .values({ name: input.name, email: input.email, message: input.message, ip: context.ip });
    await queueMail(
      transaction,
      {
        template: 'feedback',
        locale: context.locale,
        to: context.shop.email,
        replyTo: input.email,
        data: { name: input.name, email: input.email, message: input.message },
      },
      context.shop,
    );
  });
}
