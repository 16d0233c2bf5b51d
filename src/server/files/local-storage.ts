import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readdir, realpath, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FolderListing, ObjectStorage } from './storage.ts';
import { assertStorageKey, isFolderKey, isStorageKey } from './storage-keys.ts';

/**
 * Objects as files below `root` (the uploads directory), a key's segments being its path: the
 * layout the shop has always had, so existing uploads keep working. Folders are directories.
 * Nothing is followed out of the root, not even through a symbolic link planted inside it.
 */

/** The disk keeps no content type, so it comes from the name (what a static file server does too). */
const CONTENT_TYPES: Record<string, string> = {
  '.webp': 'image/webp',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.avif': 'image/avif',
};
const TEMPORARY = /\.[0-9a-f]{12}\.tmp$/;

const errorCode = (error: unknown) => (error as NodeJS.ErrnoException).code;
/** Runs a file-system call, answering `missing` when the path (or a parent) does not exist. */
async function unlessMissing<T>(work: () => Promise<T>, missing: T): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (errorCode(error) === 'ENOENT' || errorCode(error) === 'ENOTDIR') return missing;
    throw error;
  }
}

export function createLocalStorage(root: string): ObjectStorage {
  const base = path.resolve(root);
  let realBase: Promise<string> | undefined;
  const resolvedBase = () => {
    realBase ??= mkdir(base, { recursive: true })
      .then(() => realpath(base))
      .catch((error: unknown) => {
        realBase = undefined;
        throw error;
      });
    return realBase;
  };
  const isInside = (inside: string, real: string) => real === inside || real.startsWith(inside + path.sep);
  const pathOf = (key: string) => path.join(base, ...key.split('/').filter(Boolean));

  /** The real location of an existing key's file or directory, or null when missing or outside the root. */
  async function existing(key: string): Promise<string | null> {
    const inside = await resolvedBase();
    const real = await unlessMissing(() => realpath(pathOf(key)), null);
    if (real === null) return null;
    return isInside(inside, real) ? real : null;
  }

  /** Makes a key's directories one by one, refusing (before making anything there) one that leads out of the root. */
  async function makeDirectories(segments: string[]): Promise<string> {
    const inside = await resolvedBase();
    let directory = inside;
    for (const segment of segments) {
      const next = path.join(directory, segment);
      await mkdir(next).catch((error: unknown) => {
        if (errorCode(error) !== 'EEXIST') throw error;
      });
      directory = await realpath(next);
      if (!isInside(inside, directory))
        throw new Error(`${segments.join('/')}/ leads out of the storage root`);
    }
    return directory;
  }

  async function entryKind(key: string): Promise<'file' | 'directory' | null> {
    const real = await existing(key);
    if (real === null) return null;
    const entry = await unlessMissing(() => stat(real), null);
    return entry?.isFile() ? 'file' : entry?.isDirectory() ? 'directory' : null;
  }

  return {
    async put(key, bytes) {
      assertStorageKey(key);
      const segments = key.split('/').filter(Boolean);
      if (isFolderKey(key)) {
        if (bytes.length > 0) throw new TypeError(`A folder takes no bytes: ${key}`);
        await makeDirectories(segments);
        return;
      }
      const name = segments.pop() as string;
      const target = path.join(await makeDirectories(segments), name);
      // A temporary name and a rename keep half-written files invisible.
      const temporary = `${target}.${randomBytes(6).toString('hex')}.tmp`;
      try {
        await writeFile(temporary, bytes);
        await rename(temporary, target);
      } finally {
        await rm(temporary, { force: true });
      }
    },

    async get(key) {
      assertStorageKey(key, 'object');
      const real = await existing(key);
      const entry = real === null ? null : await unlessMissing(() => stat(real), null);
      if (!real || !entry?.isFile()) return null;
      return {
        body: createReadStream(real),
        contentType: CONTENT_TYPES[path.extname(real).toLowerCase()] ?? 'application/octet-stream',
        length: entry.size,
      };
    },

    async exists(key) {
      assertStorageKey(key);
      return (await entryKind(key)) === (isFolderKey(key) ? 'directory' : 'file');
    },

    async delete(keys) {
      for (const key of keys) assertStorageKey(key);
      for (const key of keys) {
        if (key === '') continue;
        if (!isFolderKey(key)) {
          // rm removes a planted link itself, never what it points to.
          await rm(pathOf(key), { force: true });
          continue;
        }
        try {
          await rmdir(pathOf(key));
        } catch (error) {
          // A folder that still holds something stays, as a bucket's folder does without its marker.
          if (!['ENOENT', 'ENOTDIR', 'ENOTEMPTY', 'EEXIST'].includes(errorCode(error) ?? '')) throw error;
        }
      }
    },

    async list(folderKey): Promise<FolderListing> {
      assertStorageKey(folderKey, 'folder');
      const real = await existing(folderKey);
      const entries = real ? await unlessMissing(() => readdir(real, { withFileTypes: true }), []) : [];
      const listing: FolderListing = { objects: [], folders: [] };
      for (const entry of entries) {
        // Links are neither files nor folders here: nothing is followed out of the root.
        const key = `${folderKey}${entry.name}`;
        if (entry.isDirectory() && isStorageKey(`${key}/`, 'folder')) listing.folders.push(`${key}/`);
        else if (entry.isFile() && isStorageKey(key) && !TEMPORARY.test(entry.name))
          listing.objects.push(key);
      }
      listing.objects.sort();
      listing.folders.sort();
      return listing;
    },
  };
}
