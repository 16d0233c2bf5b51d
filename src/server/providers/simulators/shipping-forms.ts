import { PDFDocument, StandardFonts } from 'pdf-lib';

/**
 * Real, small PDFs for the carriers' simulators (labels, CN23): one A6 page with a title and lines
 * of text in Helvetica. Helvetica writes Latin only, so Cyrillic is transliterated; the real
 * carriers' forms are what production prints.
 */

const CYRILLIC: Record<string, string> = {
  а: 'a',
  б: 'b',
  в: 'v',
  г: 'g',
  д: 'd',
  е: 'e',
  ё: 'e',
  ж: 'zh',
  з: 'z',
  и: 'i',
  й: 'i',
  к: 'k',
  л: 'l',
  м: 'm',
  н: 'n',
  о: 'o',
  п: 'p',
  р: 'r',
  с: 's',
  т: 't',
  у: 'u',
  ф: 'f',
  х: 'kh',
  ц: 'ts',
  ч: 'ch',
  ш: 'sh',
  щ: 'shch',
  ъ: '',
  ы: 'y',
  ь: '',
  э: 'e',
  ю: 'iu',
  я: 'ia',
};

/** Text Helvetica can write: Cyrillic transliterated, anything else outside ASCII as '?'. */
export function latin(text: string): string {
  return [...text]
    .map((character) => {
      const lower = character.toLowerCase();
      const mapped = CYRILLIC[lower];
      if (mapped === undefined) return /[\x20-\x7e]/.test(character) ? character : '?';
      return character === lower ? mapped : mapped.charAt(0).toUpperCase() + mapped.slice(1);
    })
    .join('');
}

export async function formPdf(title: string, lines: readonly string[]): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  document.setTitle(latin(title));
  const page = document.addPage([298, 420]);
  const font = await document.embedFont(StandardFonts.Helvetica);
  const bold = await document.embedFont(StandardFonts.HelveticaBold);
  page.drawText(latin(title), { x: 16, y: 392, size: 13, font: bold });
  lines.forEach((line, index) => {
    page.drawText(latin(line).slice(0, 70), { x: 16, y: 366 - index * 13, size: 8, font });
  });
  return document.save();
}
