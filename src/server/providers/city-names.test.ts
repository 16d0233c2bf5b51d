import { describe, expect, it } from 'vitest';
import { cityNameKey, findCity, searchedCityKey } from './city-names.ts';

const CITIES = ['Москва', 'Санкт-Петербург', 'Екатеринбург', 'Нижний Новгород', 'Ростов-на-Дону', 'Тольятти'];
const found = (typed: string) => findCity(CITIES, (name) => name, typed);

describe('a city typed in Russian or English', () => {
  it('finds the Russian city by its English name, however it is romanized', () => {
    expect(found('Moscow')).toBe('Москва');
    expect(found('moscow ')).toBe('Москва');
    expect(found('Moskva')).toBe('Москва');
    expect(found('Saint Petersburg')).toBe('Санкт-Петербург');
    expect(found('St. Petersburg')).toBe('Санкт-Петербург');
    expect(found('Sankt-Peterburg')).toBe('Санкт-Петербург');
    expect(found('Yekaterinburg')).toBe('Екатеринбург');
    expect(found('Ekaterinburg')).toBe('Екатеринбург');
    expect(found('Nizhny Novgorod')).toBe('Нижний Новгород');
    expect(found('Nizhniy Novgorod')).toBe('Нижний Новгород');
    expect(found('Rostov-on-Don')).toBe('Ростов-на-Дону');
    expect(found('Togliatti')).toBe('Тольятти');
    expect(found('Tolyatti')).toBe('Тольятти');
  });

  it('finds it by its Russian name, with or without the kind of settlement and ё', () => {
    expect(found('Москва')).toBe('Москва');
    expect(found('москва г')).toBe('Москва');
    expect(found('г. Москва')).toBe('Москва');
    expect(found('нижний новгород')).toBe('Нижний Новгород');
  });

  it('finds nothing for a city Boxberry does not list, or for nothing typed', () => {
    expect(found('Atlantis')).toBeUndefined();
    expect(found('Mos')).toBeUndefined();
    expect(found('')).toBeUndefined();
    expect(found('  ')).toBeUndefined();
  });

  it('prefers the city named exactly over one that only reads the same in Latin letters', () => {
    expect(findCity(['Moskva', 'Москва'], (name) => name, 'Москва')).toBe('Москва');
  });

  it('makes one key of the usual spellings', () => {
    expect(cityNameKey('Москва')).toBe('moskva');
    expect(cityNameKey('Хабаровск')).toBe(cityNameKey('Khabarovsk'));
    expect(cityNameKey('Ульяновск')).toBe(cityNameKey('Ulianovsk'));
    expect(cityNameKey('Ярославль')).toBe(cityNameKey('Jaroslavl'));
    expect(searchedCityKey('Moscow')).toBe('moskva');
  });
});
