/**
 * The box a parcel goes in (ADR 0057): each item's product box, or the shop's default parcel size
 * for a product without one; the parcel is the largest of them by volume. Carriers are asked with
 * it (Boxberry's `height`/`width`/`depth`, Russian Post's `pack`), so a bulky parcel is priced as
 * bulky.
 */

/** Centimetres. */
export interface Box {
  length: number;
  width: number;
  height: number;
}

/** `30x20x15` (cm, any of x × *) → a box; anything else → null. */
export function parseBox(text: string): Box | null {
  const match = /^\s*(\d{1,3})\s*[x×*]\s*(\d{1,3})\s*[x×*]\s*(\d{1,3})\s*$/i.exec(text);
  if (!match) return null;
  const [length, width, height] = match.slice(1).map(Number) as [number, number, number];
  return length > 0 && width > 0 && height > 0 ? { length, width, height } : null;
}

const volume = (box: Box) => box.length * box.width * box.height;
const sides = (box: Box) => [box.length, box.width, box.height].sort((a, b) => a - b);

/** The largest of the items' boxes (null: the default's), or the default for no items. */
export function parcelBox(boxes: ReadonlyArray<Box | null>, defaultBox: Box): Box {
  const candidates = boxes.length === 0 ? [defaultBox] : boxes.map((box) => box ?? defaultBox);
  return candidates.reduce((largest, box) => (volume(box) > volume(largest) ? box : largest));
}

/** Whether `inner` fits in `outer`, turned any way. */
export function fitsIn(inner: Box, outer: Box): boolean {
  const [a, b] = [sides(inner), sides(outer)];
  return a.every((side, index) => side <= (b[index] ?? 0));
}

/** A box of a product row, or null when any side is missing. */
export const boxOf = (row: {
  boxLength: number | null;
  boxWidth: number | null;
  boxHeight: number | null;
}) =>
  row.boxLength && row.boxWidth && row.boxHeight
    ? { length: row.boxLength, width: row.boxWidth, height: row.boxHeight }
    : null;
