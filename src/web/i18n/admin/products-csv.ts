import type { AdminTexts } from './texts.ts';

/** Back-office texts for the products CSV, each in English and Russian. */
export const productsCsv = {
  'admin-csv-export': { en: 'Export', ru: 'Выгрузка' },
  'admin-csv-export-text': {
    en: 'Every product in one file: project and categories by link, prices in roubles, marks as 1 or 0, images joined by |, the release time in UTC (ISO 8601; empty: on sale) and the limit per customer. Stock: type what you counted in quantity and leave quantity_seen as exported; a count over a stock that has changed since the export is refused with the figure now, and so is a new stock for a product already in the shop without quantity_seen.',
    ru: 'Все товары одним файлом: проект и категории по ссылке, цены в рублях, отметки 1 или 0, изображения через |, начало продаж по UTC (ISO 8601; пусто — уже в продаже) и лимит на покупателя. Остаток: впишите пересчитанное в quantity, а quantity_seen оставьте как выгружено; пересчёт поверх остатка, изменившегося после выгрузки, отклоняется с текущим числом, как и новый остаток уже заведённого товара без quantity_seen.',
  },
  'admin-csv-download': { en: 'Download products.csv', ru: 'Скачать products.csv' },
  'admin-csv-import': { en: 'Import', ru: 'Загрузка' },
  'admin-csv-import-text': {
    en: 'Rows are matched to products by link: a new link creates a product, a known one updates it. First see what the file would change, then apply it. One bad row and nothing changes.',
    ru: 'Строки сопоставляются с товарами по ссылке: новая ссылка создаёт товар, известная — меняет его. Сначала посмотрите, что изменит файл, потом примените. Одна ошибочная строка — и ничего не меняется.',
  },
  'admin-csv-file': { en: 'CSV file', ru: 'Файл CSV' },
  'admin-csv-check': { en: 'Check the file', ru: 'Проверить файл' },
  'admin-csv-apply': { en: 'Apply the changes ({count})', ru: 'Применить изменения ({count})' },
  'admin-csv-applied': {
    en: 'Imported. Products created or updated: {count}.',
    ru: 'Загружено. Создано или изменено товаров: {count}.',
  },
  'admin-csv-nothing-to-change': { en: 'The file changes nothing.', ru: 'Файл ничего не меняет.' },
  'admin-csv-dry-run-report': { en: 'What the file would change', ru: 'Что изменит файл' },
  'admin-csv-import-report': { en: 'What was imported', ru: 'Что загружено' },
  'admin-csv-created': { en: 'New products', ru: 'Новые товары' },
  'admin-csv-updated': { en: 'Changed products', ru: 'Изменённые товары' },
  'admin-csv-unchanged': { en: 'Unchanged', ru: 'Без изменений' },
  'admin-csv-errors': { en: 'Errors', ru: 'Ошибки' },
  'admin-csv-warnings': { en: 'Kept as they were', ru: 'Оставлено как было' },
  'admin-csv-kept-why': { en: 'Why', ru: 'Почему' },
  'admin-csv-line': { en: 'Line', ru: 'Строка' },
  'admin-csv-column': { en: 'Column', ru: 'Столбец' },
  'admin-csv-problem': { en: 'Problem', ru: 'Ошибка' },
} satisfies AdminTexts;
