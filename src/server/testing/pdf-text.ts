import { inflateSync } from 'node:zlib';

/** The text a PDF draws: its content streams inflated, each `<hex> Tj` decoded. */
export function pdfText(bytes: Uint8Array): string {
  const raw = Buffer.from(bytes);
  const texts: string[] = [];
  let from = 0;
  for (;;) {
    const start = raw.indexOf('stream\n', from);
    if (start === -1) break;
    const end = raw.indexOf('\nendstream', start);
    try {
      const content = inflateSync(raw.subarray(start + 7, end)).toString('latin1');
      for (const match of content.matchAll(/<([0-9A-Fa-f]+)> Tj/g))
        texts.push(Buffer.from(match[1] ?? '', 'hex').toString('latin1'));
    } catch {
      // Not a deflated stream (fonts, object streams): no text of ours in it.
    }
    from = end + 10;
  }
  return texts.join('\n');
}
