import { describe, expect, it } from 'vitest';
import { closestWord, normaliseSearchText, otherLayout, typoDistance, wordsOf } from './search-text.ts';

describe('reading a search text', () => {
  it('counts a missing, an extra, a wrong letter and two swapped neighbours as one edit each', () => {
    expect(typoDistance('compas', 'compass')).toBe(1);
    expect(typoDistance('compasss', 'compass')).toBe(1);
    expect(typoDistance('compaws', 'compass')).toBe(1);
    expect(typoDistance('copmass', 'compass')).toBe(1);
    expect(typoDistance('кружак', 'кружка')).toBe(1);
    expect(typoDistance('lantern', 'lantern')).toBe(0);
  });

  it('takes a misspelt word for the closest catalogue word within the edits its length allows', () => {
    expect(closestWord('copmass', ['compose', 'compass'])).toBe('compass');
    expect(closestWord('mgu', ['mug'])).toBe('mug');
    expect(closestWord('zzqqxx', ['lantern', 'compass'])).toBeUndefined();
  });

  it('reads text typed in the other keyboard layout, both ways', () => {
    expect(otherLayout('ghbdtn')).toBe('привет');
    expect(otherLayout('кгтуы')).toBe('runes');
    expect(otherLayout('rhe;rf')).toBe('кружка');
    expect(otherLayout('hfp,jqybrb')).toBe('разбойники');
    expect(otherLayout('mug кружка')).toBeNull();
    expect(otherLayout('330')).toBeNull();
  });

  it('normalises case, ё, spaces and length, and splits words as search matches them', () => {
    expect(normaliseSearchText('  Тёплый   ОЧАГ ')).toBe('теплый очаг');
    expect(normaliseSearchText('x'.repeat(300))).toHaveLength(100);
    expect(wordsOf('pins & badges, t-shirt')).toEqual(['pins', 'badges', 't', 'shirt']);
  });
});
