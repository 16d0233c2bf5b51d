import type { AdminTexts } from './texts.ts';

/** Back-office texts for customers and their notes, each in English and Russian. */
export const customers = {
  'admin-customers': { en: 'Customers', ru: 'Покупатели' },
  'admin-customers-search': { en: 'E-mail, name or phone', ru: 'E-mail, имя или телефон' },
  'admin-search-customers': { en: 'Search customers', ru: 'Поиск покупателей' },
  'admin-customers-empty': { en: 'No customers found.', ru: 'Покупатели не найдены.' },
  'admin-customers-csv': { en: 'Download CSV', ru: 'Скачать CSV' },
  'admin-customer-name': { en: 'Name', ru: 'Имя' },
  'admin-customer-orders': { en: 'Orders', ru: 'Заказы' },
  'admin-customer-spent': { en: 'Spent', ru: 'Потрачено' },
  'admin-customer-last-order': { en: 'Last order', ru: 'Последний заказ' },
  'admin-customer-registered': { en: 'Registered', ru: 'Регистрация' },
  'admin-customer-blocked': { en: 'Blocked', ru: 'Заблокирован' },
  'admin-customer-block': { en: 'Block account', ru: 'Заблокировать' },
  'admin-customer-unblock': { en: 'Let in again', ru: 'Разблокировать' },
  'admin-customer-block-confirm': {
    en: 'Block {email}? They will be signed out everywhere and cannot sign in.',
    ru: 'Заблокировать {email}? Покупатель выйдет со всех устройств и не сможет войти.',
  },
  'admin-customer-no-orders': { en: 'No orders yet.', ru: 'Заказов пока нет.' },
  'admin-notes': { en: 'Notes', ru: 'Заметки' },
  'admin-notes-empty': { en: 'No notes yet.', ru: 'Заметок пока нет.' },
  'admin-note-add': { en: 'Add note', ru: 'Добавить заметку' },
  'admin-note-new': { en: 'New note', ru: 'Новая заметка' },
  'admin-note-by': { en: '{author}, {date}', ru: '{author}, {date}' },
} satisfies AdminTexts;
