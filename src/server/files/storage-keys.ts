/**
 * Storage keys: relative, slash-separated paths of segments made of letters (any script: a folder
 * may be named in Russian), digits, `.`, `_` and `-`, none starting with a dot (so never `.` or `..`). A key ending in `/` names a folder; `''` is
 * the root folder.
 */

const KEY_SEGMENT = /^[\p{L}\p{N}_-][\p{L}\p{N}._-]*$/u;

/** Whether `key` is an object key (`a/b.webp`) or, with `folder`, a folder key (`a/b/`; `''` is the root). */
export function isStorageKey(key: string, kind: 'object' | 'folder' = 'object'): boolean {
  if (kind === 'folder') {
    if (key === '') return true;
    if (!key.endsWith('/')) return false;
    key = key.slice(0, -1);
  }
  return key.length <= 1024 && key.split('/').every((segment) => KEY_SEGMENT.test(segment));
}

export const isFolderKey = (key: string) => key.endsWith('/') || key === '';

/** Refuses a key that is neither an object key nor a folder key: a bug in the caller, never user input. */
export function assertStorageKey(key: string, kind: 'object' | 'folder' | 'any' = 'any'): void {
  const folder = kind === 'folder' || (kind === 'any' && isFolderKey(key));
  if (!isStorageKey(key, folder ? 'folder' : 'object')) {
    throw new TypeError(`Not a storage ${folder ? 'folder ' : ''}key: ${JSON.stringify(key)}`);
  }
}
