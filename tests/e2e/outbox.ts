import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { inject } from 'vitest';

/**
 * The mails the e2e server wrote to its outbox (`<DATA_DIR>/outbox/*.eml`), decoded to text. The
 * same reading as accounts.spec.ts, shared here for the other journeys and the load tests.
 */

/** Bytes of a quoted-printable body (soft line breaks joined, =XX decoded), read as UTF-8. */
function decodeQuotedPrintable(body: string): string {
  const joined = body.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let index = 0; index < joined.length; index++) {
    const hex = joined.slice(index + 1, index + 3);
    if (joined[index] === '=' && /^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      index += 2;
    } else {
      bytes.push(...Buffer.from(joined[index] ?? '', 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** The decoded text/plain parts of a MIME entity (a whole .eml file or one part of it). */
function plainTextParts(entity: string): string[] {
  const split = /\r?\n\r?\n/.exec(entity);
  const headers = (split ? entity.slice(0, split.index) : entity).replace(/\r?\n[ \t]+/g, ' ');
  const body = split ? entity.slice(split.index + split[0].length) : '';
  const boundary = /content-type:\s*multipart\/[^\r\n]*?boundary="?([^";\r\n]+)"?/i.exec(headers)?.[1];
  if (boundary) {
    return body
      .split(`--${boundary}`)
      .slice(1)
      .filter((part) => !part.startsWith('--'))
      .flatMap((part) => plainTextParts(part.replace(/^\r?\n/, '')));
  }
  const type = /content-type:\s*([\w/+.-]+)/i.exec(headers)?.[1]?.toLowerCase() ?? 'text/plain';
  if (type !== 'text/plain') return [];
  const encoding = /content-transfer-encoding:\s*([\w-]+)/i.exec(headers)?.[1]?.toLowerCase();
  if (encoding === 'base64') return [Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')];
  if (encoding === 'quoted-printable') return [decodeQuotedPrintable(body)];
  return [body];
}

/** Waits for the newest mail to `recipient` whose text matches `pattern`; returns its text. */
export function waitForMail(recipient: string, pattern: RegExp, timeoutMs = 30_000): Promise<string> {
  return waitForMailIn(path.join(inject('dataDir'), 'outbox'), recipient, pattern, timeoutMs);
}

/** The texts of the mails to `recipient` in an outbox folder whose text matches `pattern`, newest first. */
export function mailsIn(outbox: string, recipient: string, pattern: RegExp): string[] {
  if (!existsSync(outbox)) return [];
  return readdirSync(outbox)
    .filter((name) => name.endsWith('.eml'))
    .sort()
    .reverse()
    .flatMap((file) => {
      const raw = readFileSync(path.join(outbox, file), 'utf8');
      if (!raw.includes(recipient)) return [];
      const text = plainTextParts(raw).join('\n');
      return pattern.test(text) ? [text] : [];
    });
}

/** The same, in any outbox folder (`<DATA_DIR>/outbox` of the server that sent it). */
export async function waitForMailIn(
  outbox: string,
  recipient: string,
  pattern: RegExp,
  timeoutMs = 30_000,
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [newest] = mailsIn(outbox, recipient, pattern);
    if (newest !== undefined) return newest;
    if (Date.now() > deadline) throw new Error(`No mail to ${recipient} matching ${pattern}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
