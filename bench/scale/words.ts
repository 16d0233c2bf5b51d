/**
 * Word lists of the scale catalogue: names and descriptions are built from them in SQL, so that
 * full-text and typo search meet the kind of text a merchandise shop has. Russian adjectives and
 * nouns are all masculine, so any pair agrees. Each entry is [Russian, English].
 */

export type Pair = readonly [ru: string, en: string];

/** Project names: a title word and a world, 8 × 5 = 40 projects. */
export const PROJECT_TITLES: readonly Pair[] = [
  ['Хроники', 'Chronicles of'],
  ['Сага', 'Saga of'],
  ['Легенды', 'Legends of'],
  ['Тактика', 'Tactics of'],
  ['Осада', 'Siege of'],
];
export const PROJECT_WORLDS: readonly Pair[] = [
  ['Эльдории', 'Eldoria'],
  ['Нордмара', 'Nordmar'],
  ['Зефира', 'Zephyr'],
  ['Аурелии', 'Aurelia'],
  ['Харада', 'Kharad'],
  ['Вельморы', 'Velmora'],
  ['Драконии', 'Draconia'],
  ['Остравы', 'Ostrava'],
];

/** Product types: [singular ru, singular en, plural ru, plural en, base price in roubles, grams]. */
export const PRODUCT_TYPES = [
  ['футболка', 'T-shirt', 'Футболки', 'T-shirts', 1900, 200],
  ['худи', 'hoodie', 'Худи', 'Hoodies', 4500, 600],
  ['кружка', 'mug', 'Кружки', 'Mugs', 900, 450],
  ['постер', 'poster', 'Постеры', 'Posters', 700, 150],
  ['фигурка', 'figure', 'Фигурки', 'Figures', 4900, 500],
  ['значок', 'pin', 'Значки', 'Pins', 350, 20],
  ['брелок', 'keychain', 'Брелоки', 'Keychains', 450, 30],
  ['кепка', 'cap', 'Кепки', 'Caps', 1500, 150],
  ['шарф', 'scarf', 'Шарфы', 'Scarves', 1700, 250],
  ['рюкзак', 'backpack', 'Рюкзаки', 'Backpacks', 3900, 900],
  ['блокнот', 'notebook', 'Блокноты', 'Notebooks', 600, 300],
  ['коврик для мыши', 'mouse pad', 'Коврики для мыши', 'Mouse pads', 800, 350],
  ['набор наклеек', 'sticker pack', 'Наклейки', 'Stickers', 300, 40],
  ['носки', 'socks', 'Носки', 'Socks', 500, 80],
  ['артбук', 'art book', 'Артбуки', 'Art books', 2900, 1200],
  ['мягкая игрушка', 'plush toy', 'Мягкие игрушки', 'Plush toys', 1900, 400],
  ['чехол для телефона', 'phone case', 'Чехлы для телефонов', 'Phone cases', 1100, 60],
  ['сумка-шоппер', 'tote bag', 'Сумки', 'Bags', 1200, 200],
  ['пазл', 'puzzle', 'Пазлы', 'Puzzles', 1300, 700],
  ['настольная игра', 'board game', 'Настольные игры', 'Board games', 3500, 1500],
  ['винил с саундтреком', 'soundtrack vinyl', 'Винил', 'Vinyl', 3200, 400],
  ['светильник', 'lamp', 'Светильники', 'Lamps', 2700, 800],
  ['термос', 'thermos', 'Термосы', 'Thermoses', 1600, 500],
  ['закладка', 'bookmark', 'Закладки', 'Bookmarks', 250, 15],
  ['нашивка', 'patch', 'Нашивки', 'Patches', 400, 20],
] as const;

/** Collections: 25 types × 8 collections = 200 categories. */
export const COLLECTIONS: readonly Pair[] = [
  ['классика', 'classic'],
  ['лимитированная серия', 'limited edition'],
  ['коллекционное издание', "collector's edition"],
  ['юбилейная серия', 'anniversary'],
  ['зимняя коллекция', 'winter collection'],
  ['летняя коллекция', 'summer collection'],
  ['ретро', 'retro'],
  ['премиум', 'premium'],
];

export const ADJECTIVES: readonly Pair[] = [
  ['ледяной', 'frost'],
  ['огненный', 'fire'],
  ['теневой', 'shadow'],
  ['железный', 'iron'],
  ['золотой', 'golden'],
  ['серебряный', 'silver'],
  ['багровый', 'crimson'],
  ['древний', 'ancient'],
  ['дикий', 'wild'],
  ['безмолвный', 'silent'],
  ['грозовой', 'storm'],
  ['северный', 'northern'],
  ['восточный', 'eastern'],
  ['потерянный', 'lost'],
  ['храбрый', 'brave'],
  ['тёмный', 'dark'],
  ['светлый', 'bright'],
  ['скрытый', 'hidden'],
  ['королевский', 'royal'],
  ['лунный', 'lunar'],
  ['солнечный', 'solar'],
  ['каменный', 'stone'],
  ['хрустальный', 'crystal'],
  ['стальной', 'steel'],
  ['изумрудный', 'emerald'],
  ['ночной', 'night'],
  ['странствующий', 'wandering'],
  ['механический', 'clockwork'],
  ['пиксельный', 'pixel'],
  ['космический', 'cosmic'],
];

export const NOUNS: readonly Pair[] = [
  ['дракон', 'dragon'],
  ['волк', 'wolf'],
  ['рыцарь', 'knight'],
  ['ворон', 'raven'],
  ['странник', 'wanderer'],
  ['голем', 'golem'],
  ['феникс', 'phoenix'],
  ['лис', 'fox'],
  ['медведь', 'bear'],
  ['тигр', 'tiger'],
  ['волшебник', 'wizard'],
  ['следопыт', 'ranger'],
  ['пират', 'pirate'],
  ['робот', 'robot'],
  ['самурай', 'samurai'],
  ['викинг', 'viking'],
  ['охотник', 'hunter'],
  ['страж', 'guardian'],
  ['титан', 'titan'],
  ['призрак', 'ghost'],
  ['грифон', 'griffin'],
  ['сокол', 'falcon'],
  ['лев', 'lion'],
  ['филин', 'owl'],
  ['кракен', 'kraken'],
  ['змей', 'serpent'],
  ['воин', 'warrior'],
  ['алхимик', 'alchemist'],
  ['друид', 'druid'],
  ['паладин', 'paladin'],
  ['некромант', 'necromancer'],
  ['лучник', 'archer'],
  ['кузнец', 'blacksmith'],
  ['капитан', 'captain'],
  ['император', 'emperor'],
  ['отшельник', 'hermit'],
  ['шут', 'jester'],
  ['торговец', 'merchant'],
  ['монах', 'monk'],
  ['разведчик', 'scout'],
];

/** What sets a product apart, as description text ("Кружка ручной работы", "Handmade mug"). */
export const FEATURES: readonly Pair[] = [
  ['ручной работы', 'Handmade'],
  ['с авторским рисунком', 'Hand-drawn'],
  ['из переработанных материалов', 'Eco-friendly'],
  ['со светящимся рисунком', 'Glow-in-the-dark'],
  ['коллекционной серии', 'Collectible'],
  ['с голографическим принтом', 'Holographic'],
  ['ограниченного тиража', 'Limited-run'],
  ['в ретро-стиле', 'Retro-style'],
];

/** The closing sentence of a description. */
export const CLOSINGS: readonly Pair[] = [
  ['Подарочная упаковка.', 'Comes in a gift box.'],
  ['Пронумерованный тираж.', 'Numbered print run.'],
  ['Официальная лицензия.', 'Officially licensed.'],
  ['Рисунок не выцветает после стирки.', 'The print survives washing.'],
  ['Сделано небольшой мастерской.', 'Made by a small workshop.'],
  ['С подписью художника.', 'Signed by the artist.'],
];
