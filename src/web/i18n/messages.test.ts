import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { adminDictionaries, adminTranslator } from './admin-messages.ts';
import { dictionaries, translator } from './messages.ts';

// The back office's dictionaries hold the shop's texts and its own: every key there is checked.
const { en, ru } = adminDictionaries;

/** Keys built at run time from a prefix and a value list (`sort-${option}`, `language-${option}`). */
const DYNAMIC_PREFIXES = ['sort-', 'language-'];

function sourceFiles(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const file = path.join(directory, name);
    if (statSync(file).isDirectory()) return sourceFiles(file);
    return /\.tsx?$/.test(name) && !name.endsWith('.test.ts') && !file.includes(`${path.sep}i18n${path.sep}`)
      ? [file]
      : [];
  });
}

describe('message files', () => {
  it('ru and en have the same keys, none empty', () => {
    expect(Object.keys(ru).sort()).toEqual(Object.keys(en).sort());
    for (const [key, text] of [...Object.entries(ru), ...Object.entries(en)]) {
      expect(text.trim(), key).not.toBe('');
    }
  });

  it('every key is used by the code', () => {
    // The server writes some back-office texts itself (the orders CSV's columns).
    const code = [...sourceFiles(path.resolve('src/web')), ...sourceFiles(path.resolve('src/server'))]
      .map((file) => readFileSync(file, 'utf8'))
      .join('\n');
    // A plural form (`review-count-few`) is used through its base (`plural(…, 'review-count', …)`).
    const pluralBase = (key: string) => key.match(/^(.+)-(one|few|many|other)$/)?.[1];
    const used = (key: string) => {
      const base = pluralBase(key);
      return code.includes(`'${key}'`) || (base !== undefined && code.includes(`'${base}'`));
    };
    const unused = Object.keys(en).filter(
      (key) => !used(key) && !DYNAMIC_PREFIXES.some((prefix) => key.startsWith(prefix)),
    );
    expect(unused).toEqual([]);
  });

  it('the same placeholders appear in both languages', () => {
    const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();
    for (const key of Object.keys(en) as Array<keyof typeof en>) {
      expect(placeholders(ru[key]), key).toEqual(placeholders(en[key]));
    }
  });

  it('fills placeholders', () => {
    expect(translator('en')('search-found', { count: 3 })).toBe('Found: 3');
    expect(translator('ru')('search-found', { count: 3 })).toBe('Найдено: 3');
    expect(adminTranslator('en')('admin-page-of', { page: 2, last: 5 })).toBe('Page 2 of 5');
  });

  it('puts quotes inside a quoted name one level down, never «…«…»…»', () => {
    expect(adminTranslator('ru')('admin-confirm-delete', { name: 'Футболка «Роза ветров»' })).toBe(
      'Удалить «Футболка „Роза ветров“»? Это нельзя отменить.',
    );
    expect(adminTranslator('en')('admin-confirm-delete', { name: 'Mug “Dragon”' })).toBe(
      'Delete “Mug ‘Dragon’”? This cannot be undone.',
    );
    // A name not in quotes keeps its own.
    expect(adminTranslator('ru')('admin-edit-item', { name: 'Футболка «Роза ветров»' })).toContain(
      'Футболка «Роза ветров»',
    );
  });

  it("keeps the back office's texts out of the shop's dictionaries", () => {
    const shopKeys = Object.keys(dictionaries.en);
    expect(shopKeys.filter((key) => key.startsWith('admin-'))).toEqual([]);
    expect(Object.keys(en).length).toBeGreaterThan(shopKeys.length);
    expect(adminTranslator('ru')('search-found', { count: 3 })).toBe('Найдено: 3');
  });
});
