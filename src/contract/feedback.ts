import { email } from './accounts.ts';
import { LOCALES } from './locale.ts';
import { z } from './zod.ts';

export const feedbackBody = z.object({
  name: z.string({ error: 'field-required' }).trim().min(1, 'field-required').max(100, 'field-too-long'),
  email,
  message: z.string({ error: 'field-required' }).trim().min(1, 'field-required').max(5000, 'field-too-long'),
  locale: z.enum(LOCALES).optional(),
});

export type FeedbackInput = z.infer<typeof feedbackBody>;
