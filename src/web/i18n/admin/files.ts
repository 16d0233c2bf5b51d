import type { AdminTexts } from './texts.ts';

/** Back-office texts for the file manager, each in English and Russian. */
export const files = {
  'admin-folder-path': { en: 'Folder', ru: 'Папка' },
  'admin-files-root': { en: 'All files', ru: 'Все файлы' },
  'admin-upload-files': { en: 'Upload files', ru: 'Загрузить файлы' },
  'admin-new-folder': { en: 'New folder', ru: 'Новая папка' },
  'admin-create-folder': { en: 'Create', ru: 'Создать' },
  'admin-folder-name-hint': {
    en: 'Lowercase letters (Russian or Latin), digits, - and _.',
    ru: 'Строчные русские или латинские буквы, цифры, - и _.',
  },
  'admin-upload-queue': { en: 'Uploads', ru: 'Загрузки' },
  'admin-upload-progress': { en: 'Upload progress of {name}', ru: 'Ход загрузки {name}' },
  'admin-upload-queued': { en: 'Waiting', ru: 'В очереди' },
  'admin-upload-uploading': { en: 'Uploading…', ru: 'Загружается…' },
  'admin-upload-done': { en: 'Uploaded', ru: 'Загружен' },
  'admin-upload-failed': { en: 'Upload failed', ru: 'Не загрузился' },
  'admin-upload-cancelled': { en: 'Cancelled', ru: 'Отменён' },
  'admin-retry': { en: 'Retry', ru: 'Повторить' },
  'admin-clear-finished': { en: 'Clear finished uploads', ru: 'Убрать завершённые загрузки' },
  'admin-folders': { en: 'Folders', ru: 'Папки' },
  'admin-files-in-folder': { en: 'Files in this folder', ru: 'Файлы в папке' },
  'admin-folder-empty': { en: 'No files in this folder yet.', ru: 'В этой папке пока нет файлов.' },
  'admin-confirm-delete-file': {
    en: 'Delete the file “{name}”? Products that show it keep it.',
    ru: 'Удалить файл «{name}»? У товаров, где он показан, он останется.',
  },
  'admin-confirm-delete-folder': { en: 'Delete the folder “{name}”?', ru: 'Удалить папку «{name}»?' },
  'admin-selected-files': { en: 'Selected: {count}', ru: 'Выбрано: {count}' },
  'admin-selected-files-hint': {
    en: 'Product images are chosen in the product editor with the same file manager.',
    ru: 'Изображения товара выбираются в редакторе товара тем же файловым менеджером.',
  },
} satisfies AdminTexts;
