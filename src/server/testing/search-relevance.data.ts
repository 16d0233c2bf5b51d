import type { Locale } from '../../contract/locale.ts';
import { type CategoryLink, PRODUCTS } from '../seed/catalogue.ts';

/**
 * The labelled relevance set of search (issue 17) over the demo catalogue: what shoppers type and
 * what they must then see among the first five results. `top` lists products that must all be
 * there (`first`: the first one must lead); `within` lists the products the first five must all
 * come from (a game's or a category's items).
 */
export interface RelevanceCase {
  locale: Locale;
  query: string;
  /** What the case shows (issue 17's points). */
  kind:
    | 'game'
    | 'game and kind'
    | 'category'
    | 'name'
    | 'typo'
    | 'layout'
    | 'other language'
    | 'synonym'
    | 'stem'
    | 'description';
  top?: string[];
  first?: boolean;
  within?: string[];
}

const ofProject = (project: string) =>
  PRODUCTS.filter((product) => product.project === project).map((p) => p.link);
const ofCategory = (category: CategoryLink) =>
  PRODUCTS.filter((product) => product.categories.includes(category)).map((p) => p.link);
const both = (project: string, category: CategoryLink) =>
  ofProject(project).filter((link) => ofCategory(category).includes(link));

const northwind = ofProject('northwind-saga');
const outlaws = ofProject('pixel-outlaws');
const starfall = ofProject('starfall-tactics');
const ember = ofProject('ember-hollow');
const sheriff = ['outlaws-sheriff-hoodie', 'outlaws-sheriff-star-pin', 'outlaws-sheriff-dolores-figure'];
const compass = ['northwind-compass-rose-tee', 'northwind-compass-pin'];

export const RELEVANCE_SET: RelevanceCase[] = [
  // Games by their names, in both languages
  { locale: 'en', query: 'northwind', kind: 'game', within: northwind },
  { locale: 'en', query: 'Northwind Saga', kind: 'game', within: northwind },
  { locale: 'en', query: 'pixel outlaws', kind: 'game', within: outlaws },
  { locale: 'en', query: 'ember hollow', kind: 'game', within: ember },
  { locale: 'en', query: 'starfall', kind: 'game', within: starfall },
  { locale: 'ru', query: 'разбойники', kind: 'game', within: outlaws },
  { locale: 'ru', query: 'звездопад', kind: 'game', within: starfall },
  { locale: 'ru', query: 'северный ветер', kind: 'game', within: northwind },
  { locale: 'ru', query: 'тлеющая лощина', kind: 'game', within: ember },
  { locale: 'en', query: 'pixel', kind: 'game', top: ['outlaws-pixel-kid-figure'], first: true },
  // A game and a kind of item: that game's items of that kind first
  {
    locale: 'en',
    query: 'outlaws mug',
    kind: 'game and kind',
    top: both('pixel-outlaws', 'mugs'),
    within: outlaws,
  },
  {
    locale: 'en',
    query: 'starfall poster',
    kind: 'game and kind',
    top: ['starfall-kassida-nebula-poster', 'starfall-sector-map-poster'],
    within: starfall,
  },
  { locale: 'ru', query: 'худи шериф', kind: 'game and kind', top: ['outlaws-sheriff-hoodie'], first: true },
  {
    locale: 'ru',
    query: 'кружка разбойники',
    kind: 'game and kind',
    top: both('pixel-outlaws', 'mugs'),
    within: outlaws,
  },
  {
    locale: 'en',
    query: 'northwind hoodie',
    kind: 'game and kind',
    top: both('northwind-saga', 'hoodies'),
    within: northwind,
  },
  {
    locale: 'ru',
    query: 'постер звездопад',
    kind: 'game and kind',
    top: ['starfall-kassida-nebula-poster', 'starfall-sector-map-poster'],
    within: starfall,
  },
  {
    locale: 'en',
    query: 'ember hollow mug',
    kind: 'game and kind',
    top: ['ember-herbal-tea-mug'],
    within: ember,
  },
  {
    locale: 'en',
    query: 'outlaws pin',
    kind: 'game and kind',
    top: ['outlaws-sheriff-star-pin', 'outlaws-posse-pin-set'],
    within: outlaws,
  },
  {
    locale: 'ru',
    query: 'фигурки северный ветер',
    kind: 'game and kind',
    top: both('northwind-saga', 'figures'),
    within: northwind,
  },
  // Category names
  { locale: 'en', query: 'badge', kind: 'category', within: ofCategory('pins') },
  { locale: 'en', query: 'badges', kind: 'category', within: ofCategory('pins') },
  { locale: 'en', query: 'pins', kind: 'category', within: ofCategory('pins') },
  { locale: 'ru', query: 'значки', kind: 'category', within: ofCategory('pins') },
  { locale: 'en', query: 'posters', kind: 'category', within: ofCategory('posters') },
  { locale: 'ru', query: 'фигурки', kind: 'category', within: ofCategory('figures') },
  { locale: 'en', query: 'hoodies', kind: 'category', within: ofCategory('hoodies') },
  { locale: 'ru', query: 'футболки', kind: 'category', within: ofCategory('t-shirts') },
  // Product names
  { locale: 'en', query: 'compass rose', kind: 'name', top: compass },
  { locale: 'ru', query: 'роза ветров', kind: 'name', top: compass },
  { locale: 'en', query: 'sheriff star', kind: 'name', top: ['outlaws-sheriff-star-pin'], first: true },
  { locale: 'ru', query: 'звезда шерифа', kind: 'name', top: ['outlaws-sheriff-star-pin'], first: true },
  { locale: 'en', query: 'herbal tea', kind: 'name', top: ['ember-herbal-tea-mug'], first: true },
  { locale: 'ru', query: 'травяной чай', kind: 'name', top: ['ember-herbal-tea-mug'], first: true },
  {
    locale: 'en',
    query: 'kassida nebula',
    kind: 'name',
    top: ['starfall-kassida-nebula-poster'],
    first: true,
  },
  { locale: 'ru', query: 'туманность', kind: 'name', top: ['starfall-kassida-nebula-poster'], first: true },
  { locale: 'en', query: 'jarl astrid', kind: 'name', top: ['northwind-jarl-astrid-figure'], first: true },
  { locale: 'ru', query: 'ярл астрид', kind: 'name', top: ['northwind-jarl-astrid-figure'], first: true },
  { locale: 'en', query: 'fire keeper', kind: 'name', top: ['ember-fire-keeper-figure'], first: true },
  { locale: 'ru', query: 'хранительница огня', kind: 'name', top: ['ember-fire-keeper-figure'], first: true },
  { locale: 'en', query: 'high noon', kind: 'name', top: ['outlaws-high-noon-poster'], first: true },
  { locale: 'ru', query: 'дуэль в полдень', kind: 'name', top: ['outlaws-high-noon-poster'], first: true },
  {
    locale: 'en',
    query: 'aurora',
    kind: 'name',
    top: ['northwind-aurora-hoodie', 'northwind-aurora-poster'],
  },
  // Typos: missing, extra and swapped letters
  { locale: 'en', query: 'Copmass', kind: 'typo', top: compass },
  { locale: 'en', query: 'compas', kind: 'typo', top: compass },
  { locale: 'en', query: 'nothwind', kind: 'typo', within: northwind },
  { locale: 'en', query: 'outlawss', kind: 'typo', within: outlaws },
  { locale: 'en', query: 'sherrif', kind: 'typo', top: sheriff },
  { locale: 'en', query: 'lamplihgter', kind: 'typo', top: ['ember-lamplighter-tee'], first: true },
  { locale: 'en', query: 'starfal tactics', kind: 'typo', within: starfall },
  { locale: 'en', query: 'ebmer hollow', kind: 'typo', within: ember },
  { locale: 'ru', query: 'кружак', kind: 'typo', within: ofCategory('mugs') },
  { locale: 'ru', query: 'футблка', kind: 'typo', within: ofCategory('t-shirts') },
  { locale: 'ru', query: 'постерр', kind: 'typo', within: ofCategory('posters') },
  { locale: 'ru', query: 'разбойнкии', kind: 'typo', within: outlaws },
  // The other keyboard layout
  { locale: 'ru', query: 'rhe;rf', kind: 'layout', within: ofCategory('mugs') },
  { locale: 'en', query: 'ьгп', kind: 'layout', within: ofCategory('mugs') },
  { locale: 'en', query: 'зщыеук', kind: 'layout', within: ofCategory('posters') },
  { locale: 'ru', query: 'ajyfhobr', kind: 'layout', top: ['ember-lamplighter-tee'], first: true },
  { locale: 'en', query: 'ырукшаа', kind: 'layout', top: sheriff },
  { locale: 'ru', query: 'hfp,jqybrb', kind: 'layout', within: outlaws },
  // A Latin query on the Russian shop, a Cyrillic one on the English shop
  { locale: 'ru', query: 'outlaws', kind: 'other language', within: outlaws },
  {
    locale: 'ru',
    query: 'aurora hoodie',
    kind: 'other language',
    top: ['northwind-aurora-hoodie'],
    first: true,
  },
  { locale: 'en', query: 'кружка', kind: 'other language', within: ofCategory('mugs') },
  { locale: 'en', query: 'шериф', kind: 'other language', top: sheriff },
  // The manager's synonyms (seeded)
  { locale: 'en', query: 'tee', kind: 'synonym', within: ofCategory('t-shirts') },
  { locale: 'en', query: 'outlaws tee', kind: 'synonym', top: both('pixel-outlaws', 't-shirts') },
  { locale: 'ru', query: 'кофта', kind: 'synonym', within: ofCategory('hoodies') },
  { locale: 'ru', query: 'кофта шериф', kind: 'synonym', top: ['outlaws-sheriff-hoodie'], first: true },
  { locale: 'en', query: 'cup', kind: 'synonym', within: ofCategory('mugs') },
  { locale: 'ru', query: 'плакат', kind: 'synonym', within: ofCategory('posters') },
  { locale: 'ru', query: 'чашка', kind: 'synonym', within: ofCategory('mugs') },
  // Stemming, as before
  { locale: 'en', query: 'mugs', kind: 'stem', within: ofCategory('mugs') },
  { locale: 'ru', query: 'кружкой', kind: 'stem', within: ofCategory('mugs') },
  { locale: 'ru', query: 'постеров', kind: 'stem', within: ofCategory('posters') },
  // Descriptions, weighed below names
  { locale: 'en', query: 'ceramic', kind: 'description', within: ofCategory('mugs') },
  { locale: 'ru', query: 'керамика', kind: 'description', within: ofCategory('mugs') },
  { locale: 'en', query: 'fleece', kind: 'description', within: ofCategory('hoodies') },
];
