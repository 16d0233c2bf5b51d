import type { Readable } from 'node:stream';
import { createLocalStorage } from './local-storage.ts';
import { createS3Storage, type S3Settings } from './s3-storage.ts';

/**
 * Where uploads and generated images live: the local disk below the uploads root, or an
 * S3-compatible bucket (AWS, MinIO, Yandex Object Storage …). Both answer the same calls with the
 * same keys, so the code above never knows which one it writes to.
 *
 * A key is a relative, slash-separated path such as `img/products/640/0123456789abcdef.webp`
 * (rules in storage-keys.ts); a key ending in `/` names a folder. On the disk a folder is a directory; in a bucket it is a
 * zero-byte marker object with that key, as the S3 consoles make them. Either way a folder exists
 * while its marker or anything below it exists, so deleting the marker of a folder that still holds
 * something leaves the folder in place.
 */
export interface ObjectStorage {
  /** Writes an object (atomically: readers see the old bytes or the new ones); a folder key takes no bytes. */
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /** An object's bytes as a stream with its type and length; null when there is none. */
  get(key: string): Promise<StoredObject | null>;
  /** Whether an object (or, for a folder key, the folder) exists. */
  exists(key: string): Promise<boolean>;
  /** Deletes objects and folder markers; keys that do not exist are no error. */
  delete(keys: readonly string[]): Promise<void>;
  /** A folder's direct content: object keys and sub-folder keys (ending in `/`), each sorted. */
  list(folderKey: string): Promise<FolderListing>;
}

export interface StoredObject {
  body: Readable;
  contentType: string;
  length: number;
}

export interface FolderListing {
  objects: string[];
  folders: string[];
}

export type StorageSettings = { kind: 'local'; root: string } | ({ kind: 's3' } & S3Settings);

export function createStorage(settings: StorageSettings): ObjectStorage {
  return settings.kind === 'local' ? createLocalStorage(settings.root) : createS3Storage(settings);
}
