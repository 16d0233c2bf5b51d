import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * A new, empty folder in the system's temporary folder, named `vitrina-<name>-…`, for a test file to
 * remove in its teardown: `npm test` (scripts/test.ts) reports any such folder a suite leaves behind.
 */
export function temporaryFolder(name: string) {
  const folder = mkdtempSync(path.join(os.tmpdir(), `vitrina-${name}-`));
  return { path: folder, remove: () => rmSync(folder, { recursive: true, force: true }) };
}
