import type { AdminTexts } from './texts.ts';

/** Back-office texts for the rich-text editor, each in English and Russian. */
export const richText = {
  'admin-editor-toolbar': { en: 'Formatting', ru: 'Оформление' },
  'admin-editor-bold': { en: 'Bold', ru: 'Жирный' },
  'admin-editor-italic': { en: 'Italic', ru: 'Курсив' },
  'admin-editor-underline': { en: 'Underline', ru: 'Подчёркнутый' },
  'admin-editor-heading': { en: 'Heading H2', ru: 'Заголовок H2' },
  'admin-editor-subheading': { en: 'Subheading H3', ru: 'Подзаголовок H3' },
  'admin-editor-bullet-list': { en: 'Bulleted list', ru: 'Маркированный список' },
  'admin-editor-ordered-list': { en: 'Numbered list 1.', ru: 'Нумерованный список 1.' },
  'admin-editor-quote': { en: 'Quote', ru: 'Цитата' },
  'admin-editor-link': { en: 'Link', ru: 'Ссылка' },
  'admin-editor-link-prompt': {
    en: 'Link address (empty to remove the link)',
    ru: 'Адрес ссылки (пусто — убрать ссылку)',
  },
  'admin-editor-undo': { en: 'Undo', ru: 'Отменить' },
  'admin-editor-redo': { en: 'Redo', ru: 'Повторить' },
  'admin-editor-minor-heading': { en: 'Minor heading H4', ru: 'Малый заголовок H4' },
  'admin-static-pages': { en: 'Info pages', ru: 'Страницы сайта' },
  'admin-page-saved': {
    en: 'Saved. The shop shows the new text.',
    ru: 'Сохранено. В магазине уже новый текст.',
  },
  'admin-page-text-ru': { en: 'Text in Russian', ru: 'Текст на русском' },
  'admin-page-text-en': { en: 'Text in English', ru: 'Текст на английском' },
  'admin-page-text-own': {
    en: 'The shop shows this text. Empty the editor and save to show the shop’s built-in text again.',
    ru: 'Магазин показывает этот текст. Очистите редактор и сохраните, чтобы вернуть встроенный текст магазина.',
  },
  'admin-page-text-built-in': {
    en: 'The shop shows its built-in text, as here. Edit it and save to replace it.',
    ru: 'Магазин показывает свой встроенный текст — как здесь. Измените его и сохраните, чтобы заменить.',
  },
  'admin-page-open': {
    en: 'Open the page in the shop ({language})',
    ru: 'Открыть страницу в магазине ({language})',
  },
  'admin-editor-image': { en: 'Picture from the files', ru: 'Картинка из файлов' },
  'admin-editor-choose-image': { en: 'Choose pictures', ru: 'Выбор картинок' },
  'admin-editor-insert-images': { en: 'Insert selected ({count})', ru: 'Вставить выбранные ({count})' },
  'admin-editor-table': { en: 'Table', ru: 'Таблица' },
  'admin-editor-table-add-row': { en: 'Add row', ru: 'Добавить строку' },
  'admin-editor-table-add-column': { en: 'Add column', ru: 'Добавить столбец' },
  'admin-editor-table-header-row': { en: 'Header row on/off', ru: 'Строка заголовков вкл./выкл.' },
  'admin-editor-table-delete-row': { en: 'Delete row', ru: 'Удалить строку' },
  'admin-editor-table-delete-column': { en: 'Delete column', ru: 'Удалить столбец' },
  'admin-editor-table-delete': { en: 'Delete table', ru: 'Удалить таблицу' },
  'admin-editor-link-scheme-refused': {
    en: 'Links starting with “{scheme}:” are not allowed. Use an address starting with https://, http:// or mailto:, or a page of the shop such as /shipping.',
    ru: 'Ссылки, начинающиеся с «{scheme}:», запрещены. Укажите адрес, начинающийся с https://, http:// или mailto:, или страницу магазина, например /shipping.',
  },
  'admin-editor-link-invalid': {
    en: '“{link}” is not an address. For example: example.com, https://example.com/page or /shipping.',
    ru: '«{link}» — это не адрес. Например: example.com, https://example.com/page или /shipping.',
  },
} satisfies AdminTexts;
