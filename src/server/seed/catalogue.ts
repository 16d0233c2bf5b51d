import type { Kopecks } from '../../contract/money.ts';
import type { PartnerSocial } from '../db/schema.ts';
import type { Brand, ImageDesign, PartnerArt } from './artwork.ts';

/**
 * The demo shop: four fictional game projects, six categories, their merchandise and the partners
 * page. Plain data; `seed.ts` writes it and `artwork.ts` draws the pictures from the designs here.
 * Every studio, game, address and handle is invented (`.example` domains only).
 */

export interface ProjectSeed {
  link: string;
  nameRu: string;
  nameEn: string;
  brand: Brand;
}

export type CategoryLink = 't-shirts' | 'hoodies' | 'mugs' | 'posters' | 'figures' | 'pins';

export interface CategorySeed {
  link: CategoryLink;
  nameRu: string;
  nameEn: string;
  /** The table the product page's size picker opens (a category's size guide). */
  sizeGuideRu?: string;
  sizeGuideEn?: string;
}

export interface ProductSeed {
  link: string;
  /** Link of the project. */
  project: string;
  /** Links of the categories, 1 to 4. */
  categories: CategoryLink[];
  nameRu: string;
  nameEn: string;
  /** HTML, sanitized when seeded. */
  descriptionRu: string;
  descriptionEn: string;
  price: Kopecks;
  /** Below `price` when on sale. */
  sale?: Kopecks;
  /** Grams. */
  weight: number;
  quantity: number;
  weekSale?: boolean;
  envisioned?: boolean;
  /** 1 to 4 pictures, in gallery order. */
  images: ImageDesign[];
  /** Colours it comes in, each with its swatch and its pictures (indexes into `images`). */
  colours?: ColourSeed[];
}

export interface ColourSeed {
  valueRu: string;
  valueEn: string;
  swatch: string;
  images: number[];
}

/** The sizes T-shirts and hoodies come in (issue 16). */
export const SIZES = ['XS', 'S', 'M', 'L', 'XL', 'XXL'] as const;

export interface PartnerSeed {
  nameRu: string;
  nameEn: string;
  descriptionRu: string;
  descriptionEn: string;
  email: string;
  link?: string;
  phoneNumber?: string;
  phoneNumberMobile?: string;
  telegram: string;
  messenger?: string;
  socials: PartnerSocial[];
  art: PartnerArt;
}

// ── Projects and categories ─────────────────────────────────────────────────────────────────────

export const PROJECTS: ProjectSeed[] = [
  {
    link: 'northwind-saga',
    nameRu: 'Сага Северного ветра',
    nameEn: 'Northwind Saga',
    brand: { primary: '#1d3557', secondary: '#6cc4d9', accent: '#e9b44c', emblem: 'compass' },
  },
  {
    link: 'pixel-outlaws',
    nameRu: 'Пиксельные разбойники',
    nameEn: 'Pixel Outlaws',
    brand: { primary: '#3d2c5e', secondary: '#f2c14e', accent: '#d1495b', emblem: 'sheriff-star' },
  },
  {
    link: 'starfall-tactics',
    nameRu: 'Тактика Звездопада',
    nameEn: 'Starfall Tactics',
    brand: { primary: '#14213d', secondary: '#2ec4b6', accent: '#fc7a1e', emblem: 'shield' },
  },
  {
    link: 'ember-hollow',
    nameRu: 'Тлеющая лощина',
    nameEn: 'Ember Hollow',
    brand: { primary: '#3f6b4a', secondary: '#f1dca7', accent: '#e07a3a', emblem: 'flame' },
  },
];

/**
 * A size guide for `SIZES`: Russian size, then half the chest and the length of the garment laid
 * flat, in centimetres (one row per size, in the order of `SIZES`).
 */
function sizeGuide(measures: readonly (readonly [string, number, number])[]): { ru: string; en: string } {
  const table = (header: readonly string[]) =>
    `<table><tbody><tr>${header.map((cell) => `<th scope="col">${cell}</th>`).join('')}</tr>${SIZES.map(
      (size, index) => {
        const [russian, chest, length] = measures[index] ?? ['', 0, 0];
        return `<tr><th scope="row">${size}</th><td>${russian}</td><td>${chest}</td><td>${length}</td></tr>`;
      },
    ).join('')}</tbody></table>`;
  return {
    ru: `${table(['Размер', 'Российский', 'Грудь, см', 'Длина, см'])}<p>Мерки изделия, разложенного на столе: грудь — от подмышки до подмышки, длина — от верхней точки плеча до низа. Сравните с любимой вещью такого же кроя.</p>`,
    en: `${table(['Size', 'Russian', 'Chest, cm', 'Length, cm'])}<p>Measured on the garment laid flat: chest from armpit to armpit, length from the top of the shoulder to the hem. Compare with a favourite piece of the same cut.</p>`,
  };
}

const TEE_GUIDE = sizeGuide([
  ['42–44', 46, 66],
  ['44–46', 49, 69],
  ['46–48', 52, 72],
  ['48–50', 55, 74],
  ['50–52', 58, 76],
  ['52–54', 61, 78],
]);

const HOODIE_GUIDE = sizeGuide([
  ['42–44', 52, 64],
  ['44–46', 55, 67],
  ['46–48', 58, 70],
  ['48–50', 61, 72],
  ['50–52', 64, 74],
  ['52–54', 67, 76],
]);

export const CATEGORIES: CategorySeed[] = [
  {
    link: 't-shirts',
    nameRu: 'Футболки',
    nameEn: 'T-shirts',
    sizeGuideRu: TEE_GUIDE.ru,
    sizeGuideEn: TEE_GUIDE.en,
  },
  {
    link: 'hoodies',
    nameRu: 'Худи',
    nameEn: 'Hoodies',
    sizeGuideRu: HOODIE_GUIDE.ru,
    sizeGuideEn: HOODIE_GUIDE.en,
  },
  { link: 'mugs', nameRu: 'Кружки', nameEn: 'Mugs' },
  { link: 'posters', nameRu: 'Постеры', nameEn: 'Posters' },
  { link: 'figures', nameRu: 'Фигурки', nameEn: 'Figures' },
  { link: 'pins', nameRu: 'Значки', nameEn: 'Pins & badges' },
];

// ── Descriptions ────────────────────────────────────────────────────────────────────────────────

interface Bilingual {
  ru: string;
  en: string;
}

/** What every item of a category has in common, listed under the item's own story. */
const FEATURES: Record<CategoryLink, { ru: string[]; en: string[] }> = {
  't-shirts': {
    ru: [
      '100% хлопок пенье, плотность 180 г/м²',
      'Шелкография, которая не трескается после стирки',
      'Унисекс-крой, размеры XS–XXL',
    ],
    en: [
      '100% combed cotton, 180 g/m²',
      'Screen print that does not crack in the wash',
      'Unisex fit, sizes XS–XXL',
    ],
  },
  hoodies: {
    ru: [
      'Футер с начёсом: 80% хлопок, 20% полиэстер, 320 г/м²',
      'Капюшон на подкладке, шнурки с металлическими наконечниками',
      'Карман-кенгуру, манжеты и пояс из рибаны',
      'Размеры XS–XXL',
    ],
    en: [
      'Brushed fleece: 80% cotton, 20% polyester, 320 g/m²',
      'Lined hood, drawcords with metal tips',
      'Kangaroo pocket, ribbed cuffs and waistband',
      'Sizes XS–XXL',
    ],
  },
  mugs: {
    ru: [
      'Керамика, объём 330 мл',
      'Рисунок вжигается в глазурь и не смывается в посудомоечной машине',
      'Можно ставить в микроволновую печь',
    ],
    en: ['Ceramic, 330 ml', 'The design is fired into the glaze: dishwasher safe', 'Microwave safe'],
  },
  posters: {
    ru: [
      'Формат A2 (42 × 59,4 см)',
      'Матовая бумага 250 г/м², пигментные чернила',
      'Отправляем в жёстком тубусе; рама в комплект не входит',
    ],
    en: [
      'A2 size (42 × 59.4 cm)',
      'Matte 250 g/m² paper, pigment inks',
      'Ships in a rigid tube; frame not included',
    ],
  },
  figures: {
    ru: [
      'Высота 18 см вместе с подставкой',
      'Винил и полирезин, ручная роспись',
      'Коллекционная коробка с окошком',
    ],
    en: ['18 cm tall including the base', 'Vinyl and polyresin, hand-painted', 'Collector’s window box'],
  },
  pins: {
    ru: [
      'Твёрдая эмаль на позолоченном металле',
      'Диаметр 30 мм, две застёжки-бабочки',
      'Упакован на фирменной карточке',
    ],
    en: [
      'Hard enamel on gold-plated metal',
      '30 mm across, two butterfly clutches',
      'Comes on a branded backing card',
    ],
  },
};

const list = (items: string[]) => `<ul>${items.map((item) => `<li>${item}</li>`).join('')}</ul>`;

interface ProductDraft extends Omit<ProductSeed, 'descriptionRu' | 'descriptionEn'> {
  /** The item's own story, one paragraph. */
  about: Bilingual;
  /** A second paragraph: edition size, what is in a set, when an envisioned item may come. */
  note?: Bilingual;
  /** Replaces the category's feature list (sets). */
  features?: { ru: string[]; en: string[] };
}

function describe(draft: ProductDraft): ProductSeed {
  const { about, note, features, ...product } = draft;
  const [category] = draft.categories;
  const points = features ?? (category ? FEATURES[category] : { ru: [], en: [] });
  const html = (locale: keyof Bilingual) =>
    `<p>${about[locale]}</p>${note ? `<p>${note[locale]}</p>` : ''}${points[locale].length > 0 ? list(points[locale]) : ''}`;
  return { ...product, descriptionRu: html('ru'), descriptionEn: html('en') };
}

const limited = (count: number): Bilingual => ({
  ru: `<strong>Ограниченный тираж: ${count} экземпляров.</strong> Повторного выпуска не будет.`,
  en: `<strong>Limited run of ${count}.</strong> It will not be reprinted.`,
});

const envisionedNote: Bilingual = {
  ru: 'Пока это только эскиз. Добавьте товар в список желаний — мы напишем вам, как только он поступит в продажу.',
  en: 'This is still a sketch. Add it to your wishlist and we will e-mail you as soon as it goes on sale.',
};

// ── Products ────────────────────────────────────────────────────────────────────────────────────

const NORTHWIND: ProductDraft[] = [
  {
    link: 'northwind-compass-rose-tee',
    project: 'northwind-saga',
    categories: ['t-shirts'],
    nameRu: 'Футболка «Роза ветров»',
    nameEn: 'Compass Rose T-shirt',
    about: {
      ru: 'Роза ветров с карты штурмана Хальвдана — та самая, что ведёт героев через Ледяное море. Тёмно-синяя футболка с золотым и ледяным принтом на груди и маленькой розой ветров под воротом сзади.',
      en: 'The compass rose from navigator Halvdan’s chart, the one that guides the heroes across the Frozen Sea. A navy tee with a gold-and-ice print on the chest and a tiny compass below the collar at the back.',
    },
    price: 2_490_00,
    weight: 200,
    quantity: 34,
    weekSale: true,
    images: [{ item: 'tshirt' }, { item: 'tshirt', view: 'back' }, { item: 'tshirt', view: 'detail' }],
  },
  {
    link: 'northwind-frostbound-tee',
    project: 'northwind-saga',
    categories: ['t-shirts'],
    nameRu: 'Футболка «Скованные льдом»',
    nameEn: 'Frostbound T-shirt',
    about: {
      ru: 'Белая футболка в честь первой главы саги, где драккар вмерзает в лёд у берегов Скальдхейма. Принт в цветах полярного неба.',
      en: 'A white tee honouring the saga’s first chapter, where the longship freezes fast off the coast of Skaldheim. Printed in the colours of the polar sky.',
    },
    price: 2_290_00,
    sale: 1_890_00,
    weight: 200,
    quantity: 18,
    images: [
      { item: 'tshirt', tone: 'white', backdrop: 'tint' },
      { item: 'tshirt', tone: 'white', view: 'scene' },
    ],
  },
  {
    link: 'northwind-expedition-hoodie',
    project: 'northwind-saga',
    categories: ['hoodies'],
    nameRu: 'Худи «Экспедиция»',
    nameEn: 'Expedition Hoodie',
    about: {
      ru: 'Тёплое худи для тех, кто прошёл северный маршрут до конца. Роза ветров на груди, большой принт на спине — как нашивка полярной экспедиции.',
      en: 'A warm hoodie for everyone who sailed the northern route to its end. Compass rose on the chest and a large print on the back, like an expedition patch.',
    },
    price: 5_990_00,
    weight: 600,
    quantity: 12,
    images: [
      { item: 'hoodie', tone: 'black' },
      { item: 'hoodie', tone: 'black', view: 'back' },
      { item: 'hoodie', tone: 'heather' },
      { item: 'hoodie', tone: 'heather', view: 'back' },
    ],
    colours: [
      { valueRu: 'Чёрный', valueEn: 'Black', swatch: '#1f1f24', images: [0, 1] },
      { valueRu: 'Серый меланж', valueEn: 'Heather grey', swatch: '#9a9aa3', images: [2, 3] },
    ],
  },
  {
    link: 'northwind-aurora-hoodie',
    project: 'northwind-saga',
    categories: ['hoodies'],
    nameRu: 'Худи «Северное сияние»',
    nameEn: 'Aurora Hoodie',
    about: {
      ru: 'Светлое худи цвета полярного льда с принтом, который художники студии рисовали под впечатлением от сияния над Териберкой.',
      en: 'An ice-blue hoodie with a print the studio’s artists drew after watching the aurora over the Barents Sea.',
    },
    note: envisionedNote,
    price: 6_490_00,
    weight: 600,
    quantity: 0,
    envisioned: true,
    images: [
      { item: 'hoodie', tone: 'secondary', backdrop: 'dark' },
      { item: 'hoodie', tone: 'secondary', view: 'back' },
    ],
  },
  {
    link: 'northwind-drakkar-tavern-mug',
    project: 'northwind-saga',
    categories: ['mugs'],
    nameRu: 'Кружка «Таверна у драккара»',
    nameEn: 'Longship Tavern Mug',
    about: {
      ru: 'Из такой кружки в таверне Скальдхейма пьют горячий мёд после долгого перехода. Белая керамика, роза ветров и синяя глазурь внутри.',
      en: 'The mug Skaldheim’s tavern serves hot mead in after a long crossing. White ceramic, the compass rose, and a blue glaze inside.',
    },
    price: 1_290_00,
    weight: 450,
    quantity: 40,
    images: [
      { item: 'mug', tone: 'white', backdrop: 'tint' },
      { item: 'mug', tone: 'white', view: 'scene' },
    ],
  },
  {
    link: 'northwind-navigator-mug',
    project: 'northwind-saga',
    categories: ['mugs'],
    nameRu: 'Кружка «Штурман»',
    nameEn: 'Navigator Mug',
    about: {
      ru: 'Тёмно-синяя кружка с опоясывающим узором из роз ветров и золотыми полосами — для утреннего кофе над картами.',
      en: 'A navy mug wrapped in compass roses and gold bands, for the morning coffee over the charts.',
    },
    price: 1_190_00,
    sale: 990_00,
    weight: 450,
    quantity: 26,
    weekSale: true,
    images: [{ item: 'mug' }, { item: 'mug', view: 'back' }, { item: 'mug', view: 'detail' }],
  },
  {
    link: 'northwind-fjords-at-dawn-poster',
    project: 'northwind-saga',
    categories: ['posters'],
    nameRu: 'Постер «Фьорды на рассвете»',
    nameEn: 'Fjords at Dawn Poster',
    about: {
      ru: 'Заставка финального акта: рассвет над фьордами и путеводная роза ветров в небе. Авторская иллюстрация арт-директора игры.',
      en: 'The title art of the final act: dawn over the fjords and the guiding compass in the sky. Drawn by the game’s art director.',
    },
    price: 1_490_00,
    weight: 150,
    quantity: 30,
    images: [
      { item: 'poster', landscape: 'fjords' },
      { item: 'poster', landscape: 'fjords', view: 'detail' },
      { item: 'poster', landscape: 'fjords', view: 'scene' },
    ],
  },
  {
    link: 'northwind-aurora-poster',
    project: 'northwind-saga',
    categories: ['posters'],
    nameRu: 'Постер «Сияние над Скальдхеймом»',
    nameEn: 'Aurora over Skaldheim Poster',
    about: {
      ru: 'Ночное небо Скальдхейма, полное звёзд и северного сияния. Глубокий синий и бирюза на матовой бумаге выглядят так, будто светятся.',
      en: 'Skaldheim’s night sky, full of stars and aurora. The deep blues and teals on matte paper almost seem to glow.',
    },
    price: 1_690_00,
    weight: 150,
    quantity: 14,
    weekSale: true,
    images: [
      { item: 'poster', landscape: 'aurora', tone: 'black' },
      { item: 'poster', landscape: 'aurora', tone: 'black', view: 'scene' },
    ],
  },
  {
    link: 'northwind-skald-eyvind-figure',
    project: 'northwind-saga',
    categories: ['figures'],
    nameRu: 'Фигурка «Скальд Эйвинд»',
    nameEn: 'Eyvind the Skald Figure',
    about: {
      ru: 'Старый скальд с посохом, в навершии которого горит огонь маяка. Эйвинд рассказывает сагу с первой до последней строки — теперь и на вашей полке.',
      en: 'The old skald with a staff whose tip burns like a lighthouse. Eyvind tells the saga from its first line to its last, and now he can do it from your shelf.',
    },
    note: limited(500),
    price: 8_900_00,
    weight: 800,
    quantity: 2,
    images: [
      { item: 'figure', character: 'mage' },
      { item: 'figure', character: 'mage', view: 'detail' },
      { item: 'figure', character: 'mage', view: 'scene' },
    ],
  },
  {
    link: 'northwind-jarl-astrid-figure',
    project: 'northwind-saga',
    categories: ['figures'],
    nameRu: 'Фигурка «Ярл Астрид»',
    nameEn: 'Jarl Astrid Figure',
    about: {
      ru: 'Ярл Астрид с мечом и щитом, на котором выбита роза ветров её рода. Плащ расписан вручную, у каждой фигурки чуть свой оттенок.',
      en: 'Jarl Astrid with her sword and a shield bearing her clan’s compass rose. The cloak is hand-painted, so every piece has its own shade.',
    },
    note: limited(300),
    price: 11_900_00,
    weight: 800,
    quantity: 0,
    images: [
      { item: 'figure', character: 'knight' },
      { item: 'figure', character: 'knight', view: 'back' },
      { item: 'figure', character: 'knight', view: 'detail' },
      { item: 'figure', character: 'knight', view: 'scene' },
    ],
  },
  {
    link: 'northwind-compass-pin',
    project: 'northwind-saga',
    categories: ['pins'],
    nameRu: 'Значок «Роза ветров»',
    nameEn: 'Compass Rose Pin',
    about: {
      ru: 'Эмалевый значок с розой ветров — знак тех, кто дошёл до края карты. Хорошо смотрится на рюкзаке и на лацкане.',
      en: 'An enamel compass rose pin, the mark of those who reached the edge of the map. Looks good on a backpack or a lapel.',
    },
    price: 390_00,
    weight: 30,
    quantity: 48,
    images: [{ item: 'pin' }, { item: 'pin', view: 'back' }, { item: 'pin', view: 'scene' }],
  },
  {
    link: 'northwind-navigator-gift-set',
    project: 'northwind-saga',
    categories: ['mugs', 'pins'],
    nameRu: 'Подарочный набор «Штурман»',
    nameEn: 'Navigator Gift Set',
    about: {
      ru: 'Кружка «Таверна у драккара» и значок «Роза ветров» в одной коробке — подарок для друга, который первым открыл для вас сагу.',
      en: 'The Longship Tavern mug and the Compass Rose pin in one box: a gift for the friend who got you into the saga.',
    },
    features: {
      ru: ['Кружка 330 мл, белая керамика', 'Эмалевый значок 30 мм', 'Подарочная коробка с ложементом'],
      en: ['330 ml white ceramic mug', '30 mm enamel pin', 'Gift box with a fitted insert'],
    },
    price: 1_490_00,
    weight: 520,
    quantity: 9,
    images: [
      { item: 'mug', tone: 'white', view: 'scene' },
      { item: 'pin', view: 'detail' },
    ],
  },
];

const PIXEL_OUTLAWS: ProductDraft[] = [
  {
    link: 'outlaws-wanted-tee',
    project: 'pixel-outlaws',
    categories: ['t-shirts'],
    nameRu: 'Футболка «Разыскивается»',
    nameEn: 'Wanted T-shirt',
    about: {
      ru: 'За голову банды назначена награда в тысячу пиксельных долларов. Носите звезду шерифа гордо — пока вас не поймали.',
      en: 'There is a thousand pixel-dollar bounty on the gang. Wear the sheriff’s star proudly, until they catch you.',
    },
    price: 2_390_00,
    weight: 200,
    quantity: 22,
    images: [
      { item: 'tshirt', tone: 'black' },
      { item: 'tshirt', tone: 'black', view: 'back' },
    ],
  },
  {
    link: 'outlaws-canyon-sunset-tee',
    project: 'pixel-outlaws',
    categories: ['t-shirts'],
    nameRu: 'Футболка «Закат над каньоном»',
    nameEn: 'Canyon Sunset T-shirt',
    about: {
      ru: 'Песочно-жёлтая футболка цвета пустыни в пять часов вечера, когда банда возвращается в салун.',
      en: 'A sand-yellow tee in the colour of the desert at five in the evening, when the gang rides back to the saloon.',
    },
    price: 2_390_00,
    sale: 1_790_00,
    weight: 200,
    quantity: 15,
    weekSale: true,
    images: [
      { item: 'tshirt', tone: 'secondary' },
      { item: 'tshirt', tone: 'secondary', view: 'detail' },
      { item: 'tshirt', tone: 'secondary', view: 'scene' },
    ],
  },
  {
    link: 'outlaws-posse-hoodie',
    project: 'pixel-outlaws',
    categories: ['hoodies'],
    nameRu: 'Худи «Банда»',
    nameEn: 'Posse Hoodie',
    about: {
      ru: 'Фиолетовое худи цвета ночной прерии. Звезда на груди, звезда во всю спину — чтобы свои узнавали издалека.',
      en: 'A hoodie in the violet of a prairie night. A star on the chest and a star across the back, so your posse knows you from afar.',
    },
    price: 5_490_00,
    weight: 600,
    quantity: 10,
    images: [{ item: 'hoodie' }, { item: 'hoodie', view: 'back' }, { item: 'hoodie', view: 'scene' }],
  },
  {
    link: 'outlaws-sheriff-hoodie',
    project: 'pixel-outlaws',
    categories: ['hoodies'],
    nameRu: 'Худи «Шериф»',
    nameEn: 'Sheriff Hoodie',
    about: {
      ru: 'Красное худи для тех, кто в игре выбрал сторону закона. Последние экземпляры первой партии.',
      en: 'A red hoodie for those who sided with the law. The last pieces of the first batch.',
    },
    price: 6_290_00,
    weight: 600,
    quantity: 1,
    images: [
      { item: 'hoodie', tone: 'accent' },
      { item: 'hoodie', tone: 'accent', view: 'detail' },
    ],
  },
  {
    link: 'outlaws-saloon-mug',
    project: 'pixel-outlaws',
    categories: ['mugs'],
    nameRu: 'Кружка «Салун»',
    nameEn: 'Saloon Mug',
    about: {
      ru: 'Тяжёлая кружка, которой удобно стучать по стойке салуна. Звезда шерифа и алая глазурь внутри.',
      en: 'A heavy mug made for banging on the saloon bar. The sheriff’s star and a crimson glaze inside.',
    },
    price: 1_090_00,
    weight: 450,
    quantity: 37,
    images: [
      { item: 'mug', tone: 'secondary' },
      { item: 'mug', tone: 'secondary', view: 'scene' },
    ],
  },
  {
    link: 'outlaws-campfire-mug',
    project: 'pixel-outlaws',
    categories: ['mugs'],
    nameRu: 'Кружка «Привал»',
    nameEn: 'Campfire Mug',
    about: {
      ru: 'Кружка для кофе у костра, с узором из трёх звёзд по кругу. Ровно такую герой находит в сундуке на второй карте.',
      en: 'A campfire coffee mug wrapped in three stars, exactly like the one the hero finds in a chest on the second map.',
    },
    price: 1_390_00,
    weight: 450,
    quantity: 20,
    images: [{ item: 'mug', view: 'back' }, { item: 'mug' }, { item: 'mug', view: 'scene' }],
  },
  {
    link: 'outlaws-red-canyon-poster',
    project: 'pixel-outlaws',
    categories: ['posters'],
    nameRu: 'Постер «Красный каньон»',
    nameEn: 'Red Canyon Poster',
    about: {
      ru: 'Столовые горы, одинокий кактус и солнце, которое вот-вот сядет за край каньона. Фоновая картинка главного меню в высоком разрешении.',
      en: 'Mesas, a lone cactus and a sun about to sink behind the canyon rim. The main menu background, in high resolution.',
    },
    price: 1_290_00,
    weight: 150,
    quantity: 28,
    images: [
      { item: 'poster', landscape: 'canyon', tone: 'white' },
      { item: 'poster', landscape: 'canyon', tone: 'white', view: 'scene' },
    ],
  },
  {
    link: 'outlaws-high-noon-poster',
    project: 'pixel-outlaws',
    categories: ['posters'],
    nameRu: 'Постер «Дуэль в полдень»',
    nameEn: 'High Noon Poster',
    about: {
      ru: 'Пустой город за минуту до дуэли. Тёмная рама делает закатные цвета ещё горячее.',
      en: 'An empty town one minute before the duel. A dark frame makes the sunset colours even hotter.',
    },
    price: 1_290_00,
    sale: 990_00,
    weight: 150,
    quantity: 16,
    weekSale: true,
    images: [
      { item: 'poster', landscape: 'town', tone: 'black' },
      { item: 'poster', landscape: 'town', tone: 'black', view: 'detail' },
      { item: 'poster', landscape: 'town', tone: 'black', view: 'scene' },
    ],
  },
  {
    link: 'outlaws-pixel-kid-figure',
    project: 'pixel-outlaws',
    categories: ['figures'],
    nameRu: 'Фигурка «Малыш Пиксель»',
    nameEn: 'Pixel Kid Figure',
    about: {
      ru: 'Самый быстрый стрелок Запада в шляпе на размер больше. Жилет, красный платок и звезда, которую он, конечно, не украл.',
      en: 'The fastest gun in the West, in a hat one size too big. A vest, a red bandana and a star he definitely did not steal.',
    },
    price: 6_900_00,
    weight: 800,
    quantity: 7,
    images: [
      { item: 'figure', character: 'outlaw' },
      { item: 'figure', character: 'outlaw', view: 'back' },
      { item: 'figure', character: 'outlaw', view: 'scene' },
    ],
  },
  {
    link: 'outlaws-sheriff-dolores-figure',
    project: 'pixel-outlaws',
    categories: ['figures'],
    nameRu: 'Фигурка «Шериф Долорес»',
    nameEn: 'Sheriff Dolores Figure',
    about: {
      ru: 'Шериф Долорес, которая двадцать лет гоняется за бандой. Скульптор уже закончил эскиз, фабрика ждёт ваших голосов.',
      en: 'Sheriff Dolores, who has chased the gang for twenty years. The sculptor has finished the sketch; the factory is waiting for your votes.',
    },
    note: envisionedNote,
    price: 7_900_00,
    weight: 800,
    quantity: 0,
    envisioned: true,
    images: [{ item: 'figure', character: 'outlaw', backdrop: 'tint' }],
  },
  {
    link: 'outlaws-sheriff-star-pin',
    project: 'pixel-outlaws',
    categories: ['pins'],
    nameRu: 'Значок «Звезда шерифа»',
    nameEn: 'Sheriff Star Pin',
    about: {
      ru: 'Шестиконечная звезда с шариками на лучах, как у настоящего шерифа, только в эмали.',
      en: 'A six-pointed star with balls on its tips, just like a real sheriff’s, only in enamel.',
    },
    price: 350_00,
    weight: 30,
    quantity: 50,
    images: [{ item: 'pin' }, { item: 'pin', view: 'detail' }],
  },
  {
    link: 'outlaws-posse-pin-set',
    project: 'pixel-outlaws',
    categories: ['pins'],
    nameRu: 'Набор значков «Банда»',
    nameEn: 'Posse Pin Set',
    about: {
      ru: 'Три значка в цветах банды: ночной, песочный и алый. Соберите всю банду на одной куртке.',
      en: 'Three pins in the gang’s colours: night, sand and crimson. Get the whole posse on one jacket.',
    },
    features: {
      ru: ['Три эмалевых значка по 30 мм', 'Шесть застёжек-бабочек', 'Фирменная карточка'],
      en: ['Three 30 mm enamel pins', 'Six butterfly clutches', 'Branded backing card'],
    },
    price: 990_00,
    weight: 80,
    quantity: 13,
    images: [
      { item: 'pin', view: 'set' },
      { item: 'pin', tone: 'secondary' },
      { item: 'pin', tone: 'accent' },
    ],
  },
  {
    link: 'outlaws-wild-west-bundle',
    project: 'pixel-outlaws',
    categories: ['t-shirts', 'posters'],
    nameRu: 'Набор «Дикий Запад»',
    nameEn: 'Wild West Bundle',
    about: {
      ru: 'Футболка «Разыскивается» и постер «Красный каньон» со скидкой для тех, кто берёт сразу всё.',
      en: 'The Wanted tee and the Red Canyon poster, cheaper together for those who want it all.',
    },
    features: {
      ru: ['Футболка 180 г/м², размеры XS–XXL', 'Постер A2 в тубусе'],
      en: ['180 g/m² tee, sizes XS–XXL', 'A2 poster in a tube'],
    },
    price: 3_290_00,
    sale: 2_990_00,
    weight: 350,
    quantity: 8,
    images: [
      { item: 'tshirt', tone: 'black', view: 'scene' },
      { item: 'poster', landscape: 'canyon', tone: 'white' },
    ],
  },
];

const STARFALL: ProductDraft[] = [
  {
    link: 'starfall-comet-squad-tee',
    project: 'starfall-tactics',
    categories: ['t-shirts'],
    nameRu: 'Футболка «Отряд „Комета“»',
    nameEn: 'Comet Squad T-shirt',
    about: {
      ru: 'Нашивка отряда «Комета», который первым высадился на Кассиде-4. Тёмно-синяя футболка, оранжевый и бирюзовый принт.',
      en: 'The patch of Comet Squad, first to land on Kassida IV. A deep navy tee with an orange and teal print.',
    },
    price: 2_590_00,
    weight: 200,
    quantity: 25,
    images: [{ item: 'tshirt' }, { item: 'tshirt', view: 'back' }, { item: 'tshirt', view: 'detail' }],
  },
  {
    link: 'starfall-pilot-tee',
    project: 'starfall-tactics',
    categories: ['t-shirts'],
    nameRu: 'Футболка «Пилот»',
    nameEn: 'Pilot T-shirt',
    about: {
      ru: 'Чёрная футболка с гербом флота — такую выдают пилотам после сотого боевого вылета.',
      en: 'A black tee with the fleet crest, the one pilots get after their hundredth sortie.',
    },
    price: 2_590_00,
    weight: 200,
    quantity: 31,
    weekSale: true,
    images: [
      { item: 'tshirt', tone: 'black' },
      { item: 'tshirt', tone: 'black', view: 'scene' },
    ],
  },
  {
    link: 'starfall-fleet-hoodie',
    project: 'starfall-tactics',
    categories: ['hoodies'],
    nameRu: 'Худи «Флот»',
    nameEn: 'Fleet Hoodie',
    about: {
      ru: 'Форменное худи экипажа флагмана «Звездопад». В кармане-кенгуру помещается планшет с картой сектора.',
      en: 'Crew issue from the flagship Starfall. The kangaroo pocket fits a tablet with the sector map.',
    },
    price: 6_490_00,
    sale: 5_190_00,
    weight: 600,
    quantity: 11,
    images: [
      { item: 'hoodie' },
      { item: 'hoodie', view: 'back' },
      { item: 'hoodie', view: 'detail' },
      { item: 'hoodie', view: 'scene' },
    ],
  },
  {
    link: 'starfall-command-hoodie',
    project: 'starfall-tactics',
    categories: ['hoodies'],
    nameRu: 'Худи «Командный центр»',
    nameEn: 'Command Deck Hoodie',
    about: {
      ru: 'Серое худи офицеров командного центра. Первая партия закончилась за выходные; следующая уже шьётся.',
      en: 'The grey hoodie of the command deck officers. The first batch sold out in a weekend; the next one is being sewn.',
    },
    price: 6_490_00,
    weight: 600,
    quantity: 0,
    images: [
      { item: 'hoodie', tone: 'heather' },
      { item: 'hoodie', tone: 'heather', view: 'back' },
    ],
  },
  {
    link: 'starfall-pilot-fuel-mug',
    project: 'starfall-tactics',
    categories: ['mugs'],
    nameRu: 'Кружка «Топливо для пилота»',
    nameEn: 'Pilot Fuel Mug',
    about: {
      ru: 'Чёрная кружка с гербом флота и оранжевой глазурью внутри. Наливать до красной черты, взлетать после второй.',
      en: 'A black mug with the fleet crest and an orange glaze inside. Fill to the red line, take off after the second.',
    },
    price: 1_190_00,
    weight: 450,
    quantity: 44,
    images: [
      { item: 'mug', tone: 'black' },
      { item: 'mug', tone: 'black', view: 'detail' },
    ],
  },
  {
    link: 'starfall-orbital-mug',
    project: 'starfall-tactics',
    categories: ['mugs'],
    nameRu: 'Кружка «Орбита»',
    nameEn: 'Orbital Mug',
    about: {
      ru: 'Бирюзовая кружка с орбитальными полосами по кругу. Выглядит так, будто её только что сняли со станции.',
      en: 'A teal mug circled by orbital bands. It looks like it just came off the station.',
    },
    price: 1_290_00,
    weight: 450,
    quantity: 19,
    weekSale: true,
    images: [
      { item: 'mug', tone: 'secondary', view: 'back' },
      { item: 'mug', tone: 'secondary' },
      { item: 'mug', tone: 'secondary', view: 'scene' },
    ],
  },
  {
    link: 'starfall-kassida-nebula-poster',
    project: 'starfall-tactics',
    categories: ['posters'],
    nameRu: 'Постер «Туманность Кассиды»',
    nameEn: 'Kassida Nebula Poster',
    about: {
      ru: 'Окольцованная планета в облаках туманности Кассиды — тот самый вид из иллюминатора в финальной миссии.',
      en: 'A ringed planet in the clouds of the Kassida Nebula, the view from the porthole in the final mission.',
    },
    price: 1_590_00,
    weight: 150,
    quantity: 21,
    images: [
      { item: 'poster', landscape: 'space' },
      { item: 'poster', landscape: 'space', view: 'scene' },
      { item: 'poster', landscape: 'space', view: 'detail' },
    ],
  },
  {
    link: 'starfall-sector-map-poster',
    project: 'starfall-tactics',
    categories: ['posters'],
    nameRu: 'Постер «Сектор 7»',
    nameEn: 'Sector Seven Poster',
    about: {
      ru: 'Звёздное небо седьмого сектора в белой раме: здесь каждая точка — система, за которую шла битва.',
      en: 'The stars of Sector Seven in a white frame: every dot is a system someone fought for.',
    },
    price: 1_590_00,
    weight: 150,
    quantity: 3,
    images: [
      { item: 'poster', landscape: 'starmap', tone: 'white', backdrop: 'tint' },
      { item: 'poster', landscape: 'starmap', tone: 'white', view: 'detail' },
    ],
  },
  {
    link: 'starfall-pilot-vega-figure',
    project: 'starfall-tactics',
    categories: ['figures'],
    nameRu: 'Фигурка «Пилот Вега»',
    nameEn: 'Pilot Vega Figure',
    about: {
      ru: 'Лучший пилот флота в лётном скафандре и шлеме с прозрачным визором. Антенна гнётся, но не ломается.',
      en: 'The fleet’s best pilot in a flight suit and a clear-visor helmet. The antenna bends but does not break.',
    },
    note: limited(750),
    price: 9_900_00,
    weight: 800,
    quantity: 3,
    images: [
      { item: 'figure', character: 'pilot' },
      { item: 'figure', character: 'pilot', view: 'back' },
      { item: 'figure', character: 'pilot', view: 'detail' },
      { item: 'figure', character: 'pilot', view: 'scene' },
    ],
  },
  {
    link: 'starfall-captain-rain-figure',
    project: 'starfall-tactics',
    categories: ['figures'],
    nameRu: 'Фигурка «Капитан Рэйн»',
    nameEn: 'Captain Rain Figure',
    about: {
      ru: 'Капитан флагмана с мечом и щитом флота. Фигурка задумана как пара к «Пилоту Веге».',
      en: 'The flagship’s captain with the fleet’s sword and shield, meant as a pair to Pilot Vega.',
    },
    note: envisionedNote,
    price: 12_900_00,
    weight: 800,
    quantity: 0,
    envisioned: true,
    images: [
      { item: 'figure', character: 'knight', backdrop: 'dark' },
      { item: 'figure', character: 'knight', view: 'detail' },
    ],
  },
  {
    link: 'starfall-fleet-shield-pin',
    project: 'starfall-tactics',
    categories: ['pins'],
    nameRu: 'Значок «Щит флота»',
    nameEn: 'Fleet Shield Pin',
    about: {
      ru: 'Щит с шевроном и звездой — герб флота «Звездопад» в эмали.',
      en: 'A shield with a chevron and a star: the crest of the Starfall fleet in enamel.',
    },
    price: 450_00,
    weight: 30,
    quantity: 42,
    images: [{ item: 'pin' }, { item: 'pin', view: 'scene' }, { item: 'pin', view: 'back' }],
  },
  {
    link: 'starfall-ranks-pin-set',
    project: 'starfall-tactics',
    categories: ['pins'],
    nameRu: 'Набор значков «Звания»',
    nameEn: 'Ranks Pin Set',
    about: {
      ru: 'Три значка трёх званий: кадет, лейтенант и капитан. Повышайте себя сами.',
      en: 'Three pins for three ranks: cadet, lieutenant and captain. Promote yourself.',
    },
    features: {
      ru: ['Три эмалевых значка по 30 мм', 'Шесть застёжек-бабочек', 'Фирменная карточка'],
      en: ['Three 30 mm enamel pins', 'Six butterfly clutches', 'Branded backing card'],
    },
    price: 1_290_00,
    sale: 1_090_00,
    weight: 80,
    quantity: 6,
    images: [{ item: 'pin', view: 'set' }],
  },
  {
    link: 'starfall-collectors-edition',
    project: 'starfall-tactics',
    categories: ['figures', 'posters', 'pins'],
    nameRu: 'Коллекционное издание «Звездопад»',
    nameEn: 'Starfall Collector’s Edition',
    about: {
      ru: 'Фигурка «Пилот Вега», постер «Туманность Кассиды» и значок «Щит флота» в большой коробке с номерным сертификатом.',
      en: 'The Pilot Vega figure, the Kassida Nebula poster and the Fleet Shield pin in a large box with a numbered certificate.',
    },
    note: limited(200),
    features: {
      ru: ['Фигурка 18 см', 'Постер A2', 'Эмалевый значок 30 мм', 'Номерной сертификат'],
      en: ['18 cm figure', 'A2 poster', '30 mm enamel pin', 'Numbered certificate'],
    },
    price: 12_900_00,
    weight: 1_100,
    quantity: 4,
    weekSale: true,
    images: [
      { item: 'figure', character: 'pilot', view: 'scene' },
      { item: 'poster', landscape: 'space' },
      { item: 'pin', view: 'detail' },
    ],
  },
];

const EMBER_HOLLOW: ProductDraft[] = [
  {
    link: 'ember-lamplighter-tee',
    project: 'ember-hollow',
    categories: ['t-shirts'],
    nameRu: 'Футболка «Фонарщик»',
    nameEn: 'Lamplighter T-shirt',
    about: {
      ru: 'Каждый вечер фонарщик обходит лощину и зажигает огоньки. Серая футболка с тёплым огоньком на груди.',
      en: 'Every evening the lamplighter walks the hollow and lights the lanterns. A heather-grey tee with a warm little flame on the chest.',
    },
    price: 2_190_00,
    weight: 200,
    quantity: 27,
    images: [
      { item: 'tshirt', tone: 'heather' },
      { item: 'tshirt', tone: 'heather', view: 'back' },
    ],
  },
  {
    link: 'ember-hearth-hoodie',
    project: 'ember-hollow',
    categories: ['hoodies'],
    nameRu: 'Худи «Тёплый очаг»',
    nameEn: 'Hearth Hoodie',
    about: {
      ru: 'Мягкое худи цвета мха для вечеров у камина. Огонёк на груди и большой огонь на спине.',
      en: 'A soft moss-green hoodie for evenings by the fire. A small flame on the chest and a big one on the back.',
    },
    price: 5_790_00,
    weight: 600,
    quantity: 14,
    weekSale: true,
    images: [{ item: 'hoodie' }, { item: 'hoodie', view: 'back' }, { item: 'hoodie', view: 'scene' }],
  },
  {
    link: 'ember-herbal-tea-mug',
    project: 'ember-hollow',
    categories: ['mugs'],
    nameRu: 'Кружка «Травяной чай»',
    nameEn: 'Herbal Tea Mug',
    about: {
      ru: 'Кремовая кружка для чая с мятой и чабрецом — в игре такой напиток восстанавливает силы.',
      en: 'A cream mug for tea with mint and thyme, the drink that restores your energy in the game.',
    },
    price: 1_190_00,
    sale: 950_00,
    weight: 450,
    quantity: 33,
    images: [
      { item: 'mug', tone: 'secondary', view: 'scene' },
      { item: 'mug', tone: 'secondary' },
      { item: 'mug', tone: 'secondary', view: 'detail' },
    ],
  },
  {
    link: 'ember-misty-hollow-poster',
    project: 'ember-hollow',
    categories: ['posters'],
    nameRu: 'Постер «Лощина в тумане»',
    nameEn: 'Misty Hollow Poster',
    about: {
      ru: 'Еловый лес, туман над холмами и солнце, которое пробивается сквозь него. Спокойный постер для спальни или кабинета.',
      en: 'A spruce forest, mist over the hills and the sun breaking through. A calm poster for a bedroom or a study.',
    },
    price: 1_390_00,
    weight: 150,
    quantity: 24,
    images: [
      { item: 'poster', landscape: 'forest' },
      { item: 'poster', landscape: 'forest', view: 'scene' },
    ],
  },
  {
    link: 'ember-fire-keeper-figure',
    project: 'ember-hollow',
    categories: ['figures'],
    nameRu: 'Фигурка «Хранительница огня»',
    nameEn: 'Fire Keeper Figure',
    about: {
      ru: 'Хранительница огня в остроконечной шляпе и с посохом-фонарём. Свет в навершии покрыт фосфоресцентной краской.',
      en: 'The Fire Keeper in her pointed hat with a lantern staff. The light at its tip is painted in glow-in-the-dark paint.',
    },
    note: envisionedNote,
    price: 7_900_00,
    weight: 800,
    quantity: 0,
    envisioned: true,
    images: [
      { item: 'figure', character: 'mage' },
      { item: 'figure', character: 'mage', view: 'back' },
    ],
  },
  {
    link: 'ember-spark-pin',
    project: 'ember-hollow',
    categories: ['pins'],
    nameRu: 'Значок «Искра»',
    nameEn: 'Spark Pin',
    about: {
      ru: 'Маленькая искра из большого костра. Значок, который греет, хоть и не по-настоящему.',
      en: 'A small spark from a big fire. A pin that keeps you warm, if only in spirit.',
    },
    price: 320_00,
    weight: 30,
    quantity: 50,
    images: [
      { item: 'pin', tone: 'accent' },
      { item: 'pin', tone: 'accent', view: 'scene' },
    ],
  },
  {
    link: 'ember-cozy-evening-set',
    project: 'ember-hollow',
    categories: ['mugs', 'pins'],
    nameRu: 'Набор «Уютный вечер»',
    nameEn: 'Cozy Evening Set',
    about: {
      ru: 'Кружка «Травяной чай» и значок «Искра» в крафтовой коробке с сушёной мятой.',
      en: 'The Herbal Tea mug and the Spark pin in a kraft box with dried mint.',
    },
    features: {
      ru: ['Кружка 330 мл', 'Эмалевый значок 30 мм', 'Крафтовая коробка'],
      en: ['330 ml mug', '30 mm enamel pin', 'Kraft gift box'],
    },
    price: 1_390_00,
    weight: 520,
    quantity: 5,
    images: [
      { item: 'mug', tone: 'secondary', view: 'scene' },
      { item: 'pin', tone: 'accent', view: 'detail' },
    ],
  },
];

export const PRODUCTS: ProductSeed[] = [...NORTHWIND, ...PIXEL_OUTLAWS, ...STARFALL, ...EMBER_HOLLOW].map(
  describe,
);

// ── Partners ────────────────────────────────────────────────────────────────────────────────────

// ── Search synonyms ─────────────────────────────────────────────────────────────────────────────

/** Words shoppers type for what the catalogue calls otherwise; the manager keeps more in the back office. */
export const SEARCH_SYNONYMS: Array<{ term: string; meaning: string }> = [
  { term: 'tee', meaning: 't-shirt' },
  { term: 'badge', meaning: 'pin' },
  { term: 'cup', meaning: 'mug' },
  { term: 'sweatshirt', meaning: 'hoodie' },
  { term: 'кофта', meaning: 'худи' },
  { term: 'толстовка', meaning: 'худи' },
  { term: 'майка', meaning: 'футболка' },
  { term: 'чашка', meaning: 'кружка' },
  { term: 'плакат', meaning: 'постер' },
];

export const PARTNERS: PartnerSeed[] = [
  {
    nameRu: 'Студия «Северный ветер»',
    nameEn: 'Northwind Studio',
    descriptionRu:
      'Независимая студия из Петрозаводска, авторы «Саги Северного ветра». Вместе выбираем, какие сцены игры становятся постерами и фигурками.',
    descriptionEn:
      'An independent studio from Petrozavodsk, the makers of Northwind Saga. Together we choose which scenes of the game become posters and figures.',
    email: 'hello@northwind.example',
    link: 'https://northwind.example',
    telegram: '@northwind_shop',
    socials: [
      { type: 'vk', link: 'https://vk.example/northwind' },
      { type: 'youtube', link: 'https://youtube.example/@northwind' },
      { type: 'steam', link: 'https://store.steam.example/app/100001' },
    ],
    art: { colours: ['#1d3557', '#e9b44c'], mark: 'hexagon' },
  },
  {
    nameRu: 'Lasso Games',
    nameEn: 'Lasso Games',
    descriptionRu:
      'Команда из трёх человек, которая сделала «Пиксельных разбойников». Каждый новый значок сначала проходит проверку их сообщества.',
    descriptionEn:
      'The three-person team behind Pixel Outlaws. Every new pin is first put to a vote in their community.',
    email: 'team@lasso-games.example',
    link: 'https://lasso-games.example',
    telegram: '@lasso_games',
    socials: [
      { type: 'twitter', link: 'https://twitter.example/lassogames' },
      { type: 'steam', link: 'https://store.steam.example/app/100002' },
      { type: 'discord', link: 'https://discord.example/lasso' },
    ],
    art: { colours: ['#d1495b', '#f2c14e'], mark: 'arch' },
  },
  {
    nameRu: 'Starfall Interactive',
    nameEn: 'Starfall Interactive',
    descriptionRu:
      'Разработчики «Тактики Звездопада». Делятся с нами концепт-артом, по которому мы делаем фигурки и коллекционные издания.',
    descriptionEn:
      'The developers of Starfall Tactics. They share the concept art our figures and collector’s editions are made from.',
    email: 'merch@starfall.example',
    link: 'https://starfall.example',
    phoneNumber: '+7 (812) 555-01-42',
    telegram: '@starfall_hq',
    socials: [
      { type: 'youtube', link: 'https://youtube.example/@starfall' },
      { type: 'twitter', link: 'https://twitter.example/starfall_hq' },
      { type: 'facebook', link: 'https://facebook.example/starfallinteractive' },
      { type: 'instagram', link: 'https://instagram.example/starfall.hq' },
    ],
    art: { colours: ['#14213d', '#fc7a1e'], mark: 'triangle' },
  },
  {
    nameRu: 'Типография «Оттиск»',
    nameEn: 'Ottisk Print House',
    descriptionRu:
      'Печатают наши постеры и футболки: пигментные чернила, шелкография вручную и строгий контроль цвета каждой партии.',
    descriptionEn:
      'They print our posters and T-shirts: pigment inks, hand-pulled screen prints and a colour check on every batch.',
    email: 'orders@ottisk.example',
    phoneNumber: '+7 (495) 555-01-23',
    phoneNumberMobile: '+7 (900) 555-01-17',
    telegram: '@ottisk_print',
    messenger: 'WhatsApp: +7 (900) 555-01-17',
    socials: [
      { type: 'vk', link: 'https://vk.example/ottisk' },
      { type: 'instagram', link: 'https://instagram.example/ottisk.print' },
    ],
    art: { colours: ['#2b2d42', '#8ecae6'], mark: 'diamond' },
  },
  {
    nameRu: 'Мастерская «Глина и глазурь»',
    nameEn: 'Clay & Glaze Workshop',
    descriptionRu:
      'Керамическая мастерская, где обжигают наши кружки. Рисунок вжигается в глазурь и не стирается годами.',
    descriptionEn:
      'The ceramics workshop that fires our mugs. The design is fired into the glaze and lasts for years.',
    email: 'studio@clay-glaze.example',
    link: 'https://clay-glaze.example',
    phoneNumberMobile: '+7 (921) 555-01-88',
    telegram: '@clay_and_glaze',
    socials: [{ type: 'vk', link: 'https://vk.example/clayglaze' }],
    art: { colours: ['#3f6b4a', '#f1dca7'], mark: 'circle' },
  },
];
