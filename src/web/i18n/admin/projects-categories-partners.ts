import type { AdminTexts } from './texts.ts';

/** Back-office texts for projects, categories and partners, each in English and Russian. */
export const projectsCategoriesPartners = {
  'admin-new-project': { en: 'New project', ru: 'Новый проект' },
  'admin-new-category': { en: 'New category', ru: 'Новая категория' },
  'admin-project-saved': { en: 'The project has been saved.', ru: 'Проект сохранён.' },
  'admin-category-saved': { en: 'The category has been saved.', ru: 'Категория сохранена.' },
  'admin-project-logo': { en: 'Logo', ru: 'Логотип' },
  'admin-new-partner': { en: 'New partner', ru: 'Новый партнёр' },
  'admin-partner-saved': { en: 'The partner has been saved.', ru: 'Партнёр сохранён.' },
  'admin-partner-picture': { en: 'Picture', ru: 'Картинка' },
  'admin-picture-none': { en: 'No picture.', ru: 'Картинки нет.' },
  'admin-file-rename': { en: 'Rename', ru: 'Переименовать' },
  'admin-file-move': { en: 'Move', ru: 'Переместить' },
  'admin-file-rename-prompt': { en: 'New name of the file', ru: 'Новое имя файла' },
  'admin-file-move-prompt': {
    en: 'Folder to move the file to (e.g. merch/2024; empty for the top folder)',
    ru: 'Папка, куда переместить файл (например, merch/2024; пусто — верхняя папка)',
  },
  'admin-folder-move': { en: 'Rename or move', ru: 'Переименовать или переместить' },
  'admin-folder-move-prompt': {
    en: 'New path of the folder (e.g. merch/2025)',
    ru: 'Новый путь папки (например, merch/2025)',
  },
  'admin-catalogue-pictures': { en: 'Catalogue pictures', ru: 'Картинки каталога' },
  'admin-catalogue-products': { en: 'Products', ru: 'Товары' },
  'admin-catalogue-projects': { en: 'Project logos', ru: 'Логотипы проектов' },
  'admin-catalogue-partners': { en: 'Partners', ru: 'Партнёры' },
  'admin-picture-missing': {
    en: 'The picture “{name}” is missing: choose another one.',
    ru: 'Картинки «{name}» нет: выберите другую.',
  },
  'admin-picture-missing-short': { en: 'Picture missing', ru: 'Картинки нет' },
  'admin-picture-current': { en: 'Current picture {name}', ru: 'Текущая картинка {name}' },
  'admin-picture-choose': { en: 'Choose in the file manager', ru: 'Выбрать в файловом менеджере' },
  'admin-picture-choose-heading': { en: '{label}: choose a picture', ru: '{label}: выбор картинки' },
  'admin-picture-use': { en: 'Use this picture', ru: 'Взять эту картинку' },
  'admin-picture-remove': { en: 'Remove the picture', ru: 'Убрать картинку' },
  'admin-no-socials': { en: 'No social links yet.', ru: 'Ссылок на соцсети пока нет.' },
  'admin-social-type': { en: 'Network of link {number}', ru: 'Соцсеть ссылки {number}' },
  'admin-social-link': { en: 'Social link {number}', ru: 'Ссылка на соцсеть {number}' },
  'admin-add-social': { en: 'Add a social link', ru: 'Добавить соцсеть' },
} satisfies AdminTexts;
