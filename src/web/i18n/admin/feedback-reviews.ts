import type { AdminTexts } from './texts.ts';

/** Back-office texts for feedback and reviews, each in English and Russian. */
export const feedbackReviews = {
  'admin-unread-only': { en: 'Unread only', ru: 'Только непрочитанные' },
  'admin-unread-count': { en: 'Unread messages: {count}', ru: 'Непрочитанных сообщений: {count}' },
  'admin-inbox-empty': { en: 'No messages.', ru: 'Сообщений нет.' },
  'admin-read': { en: 'Read', ru: 'Прочитано' },
  'admin-unread': { en: 'Unread', ru: 'Не прочитано' },
  'admin-mark-read': { en: 'Mark as read', ru: 'Отметить прочитанным' },
  'admin-mark-unread': { en: 'Mark as unread', ru: 'Отметить непрочитанным' },
  'admin-all-reviews': { en: 'All reviews', ru: 'Все отзывы' },
} satisfies AdminTexts;
