/**
 * What a shopper typed, read the way search reads it: normalised, split into words, retyped in the
 * other keyboard layout, and how far a typed word is from a word of the catalogue. Plain functions:
 * the database work is in search.ts.
 */

/** Longest search text kept: longer ones are cut (a page address or a pasted paragraph). */
export const SEARCH_TEXT_LIMIT = 100;

/** Lower case, `ё` read as `е`, runs of spaces as one, cut to SEARCH_TEXT_LIMIT. */
export function normaliseSearchText(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replaceAll('ё', 'е')
    .replace(/\s+/gu, ' ')
    .trim()
    .slice(0, SEARCH_TEXT_LIMIT)
    .trim();
}

/** The words of a text as search matches them: runs of letters and digits. */
export const wordsOf = (text: string): string[] => text.match(/[\p{L}\p{N}]+/gu) ?? [];

// The same keys of a PC keyboard in the QWERTY and ЙЦУКЕН layouts (lower case, as normalised).
const QWERTY = "`qwertyuiop[]asdfghjkl;'zxcvbnm,.";
const JCUKEN = 'ёйцукенгшщзхъфывапролджэячсмитьбю';
const toCyrillic = new Map([...QWERTY].map((key, index) => [key, JCUKEN[index] ?? key]));
const toLatin = new Map([...JCUKEN].map((key, index) => [key, QWERTY[index] ?? key]));

/**
 * The text as it would read had it been typed in the other keyboard layout (`ghbdtn` → `привет`,
 * `кгтуы` → `runes`), or null when the text has letters of neither or both alphabets.
 */
export function otherLayout(text: string): string | null {
  const cyrillic = /[а-я]/u.test(text);
  const latin = /[a-z]/u.test(text);
  if (cyrillic === latin) return null;
  const keys = cyrillic ? toLatin : toCyrillic;
  const retyped = [...text].map((character) => keys.get(character) ?? character).join('');
  return retyped === text ? null : retyped;
}

/**
 * Edits between two words: a letter missing, extra or wrong, or two neighbours swapped, each counts
 * one (optimal string alignment: `copmass` is one edit from `compass`, where plain Levenshtein
 * counts two).
 */
export function typoDistance(typed: string, word: string): number {
  const a = [...typed];
  const b = [...word];
  let beforePrevious: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, (beforePrevious[j - 2] ?? 0) + 1);
      current.push(best);
    }
    beforePrevious = previous;
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** Edits a typed word may have and still be taken for a word of the catalogue: 1 up to 5 letters, then 2. */
export const allowedTypos = (word: string) => ([...word].length <= 5 ? 1 : 2);

/**
 * The word of `candidates` (most similar first) the typed word most likely meant: fewest edits,
 * within `allowedTypos`; the more similar one on a tie. Undefined when none is close enough.
 */
export function closestWord(typed: string, candidates: readonly string[]): string | undefined {
  let best: { word: string; distance: number } | undefined;
  for (const word of candidates) {
    const distance = typoDistance(typed, word);
    if (distance <= allowedTypos(typed) && (!best || distance < best.distance)) best = { word, distance };
  }
  return best?.word;
}
