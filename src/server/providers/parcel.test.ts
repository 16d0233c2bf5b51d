import { describe, expect, it } from 'vitest';
import { fitsIn, parcelBox, parseBox } from './parcel.ts';
import { packFor, parsePacks } from './russian-post.ts';

describe('the parcel box (ADR 0057)', () => {
  const defaultBox = { length: 30, width: 20, height: 15 };

  it('reads a box setting and refuses anything else', () => {
    expect(parseBox('30x20x15')).toEqual(defaultBox);
    expect(parseBox(' 53 × 36 × 22 ')).toEqual({ length: 53, width: 36, height: 22 });
    expect(['30x20', '0x1x1', 'big', '30x20x15x1'].map(parseBox)).toEqual([null, null, null, null]);
  });

  it('is the largest of the items’ boxes, the default standing in for items without one', () => {
    expect(parcelBox([], defaultBox)).toEqual(defaultBox);
    expect(parcelBox([{ length: 10, width: 10, height: 5 }], defaultBox)).toEqual({
      length: 10,
      width: 10,
      height: 5,
    });
    expect(parcelBox([{ length: 10, width: 10, height: 5 }, null], defaultBox)).toEqual(defaultBox);
    expect(parcelBox([null, { length: 60, width: 40, height: 40 }], defaultBox)).toEqual({
      length: 60,
      width: 40,
      height: 40,
    });
  });

  it('fits a box turned any way', () => {
    expect(fitsIn({ length: 8, width: 26, height: 17 }, { length: 26, width: 17, height: 8 })).toBe(true);
    expect(fitsIn({ length: 27, width: 10, height: 5 }, { length: 26, width: 17, height: 8 })).toBe(false);
  });

  it('picks the smallest Russian Post pack the box fits in, none when it fits in no box', () => {
    const packs = parsePacks('40:53x36x22,10:26x17x8,20:30x20x15,30:40x27x18');
    expect(packs?.map((pack) => pack.code)).toEqual([10, 20, 30, 40]);
    expect(packFor({ length: 20, width: 10, height: 5 }, packs ?? [])).toBe(10);
    expect(packFor(defaultBox, packs ?? [])).toBe(20);
    expect(packFor({ length: 60, width: 40, height: 40 }, packs ?? [])).toBeUndefined();
    expect(parsePacks('10:26x17')).toBeNull();
  });
});
