import type { Templates } from '../mail-data.ts';
import { paragraph } from '../render.ts';
import { oneLine } from '../wording.ts';

/** A visitor's message from the feedback form, sent to the shop. */
export const feedbackMail: Templates<'feedback'> = {
  feedback: {
    ru: ({ name, email, message }) => ({
      subject: `Сообщение с сайта от ${oneLine(name)}`,
      blocks: [
        paragraph('Новое сообщение из формы обратной связи.'),
        {
          kind: 'details',
          rows: [
            ['Имя', name],
            ['E-mail', email],
          ],
        },
        { kind: 'quote', text: message },
        { kind: 'note', text: 'Чтобы ответить посетителю, просто ответьте на это письмо.' },
      ],
    }),
    en: ({ name, email, message }) => ({
      subject: `Feedback from ${oneLine(name)}`,
      blocks: [
        paragraph('A new message from the feedback form.'),
        {
          kind: 'details',
          rows: [
            ['Name', name],
            ['E-mail', email],
          ],
        },
        { kind: 'quote', text: message },
        { kind: 'note', text: 'To answer the visitor, simply reply to this message.' },
      ],
    }),
  },
};
