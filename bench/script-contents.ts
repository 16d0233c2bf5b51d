import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants } from 'node:zlib';
import { SourceMapConsumer } from 'source-map-js';

/**
 * What a built script is made of: its bytes by original source file, plain and with brotli at the
 * quality the build uses, read from the script's source map (ADR 0086). A source's brotli size is
 * that of its own bytes compressed alone, a little more than its share of the whole script.
 *
 *   BUILD_SOURCEMAP=1 npm run build
 *   node --import tsx bench/script-contents.ts build/client/assets/shop-*.js
 *
 * A build for the shop is made without source maps (plain `npm run build`).
 */

export interface SourceShare {
  /** `react-dom`, `react-router`… for a package; the path under the project for the shop's code. */
  source: string;
  plain: number;
  br: number;
}

const brotli = (text: string) =>
  brotliCompressSync(Buffer.from(text), {
    params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY },
  }).length;

/** A package's name, or the project's path, of a source map's source. */
export function sourceName(source: string | null): string {
  if (!source) return '(no source)';
  const inPackage = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(source);
  if (inPackage?.[1]) return inPackage[1];
  const inProject = /(?:^|\/)((?:src|node_modules|bench|scripts)\/.*)$/.exec(source);
  return inProject?.[1] ?? source;
}

/** The script's text by source, from its code and source map (each mapping's text to the next). */
export function scriptContents(code: string, sourceMap: string): SourceShare[] {
  const consumer = new SourceMapConsumer(JSON.parse(sourceMap));
  const lines = code.split('\n');
  const mappings: Array<{ line: number; column: number; source: string }> = [];
  consumer.eachMapping((mapping) =>
    mappings.push({
      line: mapping.generatedLine,
      column: mapping.generatedColumn,
      source: sourceName(mapping.source),
    }),
  );
  const texts = new Map<string, string[]>();
  mappings.forEach((mapping, index) => {
    const next = mappings[index + 1];
    const line = lines[mapping.line - 1] ?? '';
    const end = next && next.line === mapping.line ? next.column : line.length;
    const parts = texts.get(mapping.source) ?? [];
    parts.push(line.slice(mapping.column, end));
    texts.set(mapping.source, parts);
  });
  return [...texts]
    .map(([source, parts]) => {
      const text = parts.join('');
      return { source, plain: text.length, br: brotli(text) };
    })
    .sort((first, second) => second.br - first.br);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const files = process.argv.slice(2);
  if (files.length === 0) {
    console.error(
      'Usage: node --import tsx bench/script-contents.ts <built script>… (built with BUILD_SOURCEMAP=1)',
    );
    process.exit(1);
  }
  const kilobytes = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`.padStart(9);
  for (const file of files) {
    const code = readFileSync(file, 'utf8');
    const shares = scriptContents(code, readFileSync(`${file}.map`, 'utf8'));
    console.log(`\n${file}: ${kilobytes(brotli(code))} br, ${kilobytes(code.length)} plain`);
    for (const share of shares)
      console.log(`  ${kilobytes(share.br)}  ${kilobytes(share.plain)}  ${share.source}`);
  }
}
