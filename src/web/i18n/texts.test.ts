import { describe, expect, it } from 'vitest';
import { loadedTexts, loadTexts } from './texts.ts';

describe("a page's texts, one language at a time", () => {
  it('loads a language when first asked, once, and leaves the other unloaded', async () => {
    expect(loadedTexts('ru')).toBeUndefined();
    const [first, second] = await Promise.all([loadTexts('ru'), loadTexts('ru')]);
    expect(second).toBe(first);
    expect(loadedTexts('ru')).toBe(first);
    expect(first('cart')).toBe('Корзина');
    expect(first('search-found', { count: 3 })).toBe('Найдено: 3');
    expect(loadedTexts('en')).toBeUndefined();
  });
});
