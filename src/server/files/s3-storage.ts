import { Readable } from 'node:stream';
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import type { FolderListing, ObjectStorage } from './storage.ts';
import { assertStorageKey, isFolderKey, isStorageKey } from './storage-keys.ts';

/**
 * Objects in an S3-compatible bucket (AWS S3, MinIO, Yandex Object Storage …) under the same keys
 * the local disk uses. The bucket stays private: the shop reads it with its own credentials and
 * serves `/img/…` itself (ADR 0011).
 */

export interface S3Settings {
  bucket: string;
  region: string;
  /** The server's URL for anything that is not AWS itself, e.g. `https://storage.yandexcloud.net`. */
  endpoint: string | undefined;
  /** `https://host/bucket/key` instead of `https://bucket.host/key`; what MinIO needs. */
  forcePathStyle: boolean;
  /** Without them the SDK's default chain is used (environment, profile, instance role). */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
}

/** DeleteObjects takes at most this many keys per call. */
const DELETE_BATCH = 1000;

const errorName = (error: unknown) => (error as { name?: unknown }).name;

export function createS3Storage(settings: S3Settings): ObjectStorage {
  const client = new S3Client({
    region: settings.region,
    endpoint: settings.endpoint,
    forcePathStyle: settings.forcePathStyle,
    credentials: settings.credentials,
    // Checksums only where S3 demands them (DeleteObjects): the newer default ones on every upload
    // are not understood by every S3-compatible server.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const Bucket = settings.bucket;

  async function anyBelow(prefix: string) {
    const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix: prefix, MaxKeys: 1 }));
    return (page.KeyCount ?? 0) > 0;
  }

  return {
    async put(key, bytes, contentType) {
      assertStorageKey(key);
      if (key === '') return;
      if (isFolderKey(key) && bytes.length > 0) throw new TypeError(`A folder takes no bytes: ${key}`);
      await client.send(new PutObjectCommand({ Bucket, Key: key, Body: bytes, ContentType: contentType }));
    },

    async get(key) {
      assertStorageKey(key, 'object');
      try {
        const object = await client.send(new GetObjectCommand({ Bucket, Key: key }));
        if (!(object.Body instanceof Readable)) throw new Error('The S3 client gave no Node.js stream');
        return {
          body: object.Body,
          contentType: object.ContentType ?? 'application/octet-stream',
          length: object.ContentLength ?? 0,
        };
      } catch (error) {
        if (errorName(error) === 'NoSuchKey') return null;
        throw error;
      }
    },

    async exists(key) {
      assertStorageKey(key);
      if (key === '') return true;
      // A folder exists through its marker or through anything below it (the marker's key is the prefix).
      if (isFolderKey(key)) return anyBelow(key);
      try {
        await client.send(new HeadObjectCommand({ Bucket, Key: key }));
        return true;
      } catch (error) {
        if (errorName(error) === 'NotFound') return false;
        throw error;
      }
    },

    async delete(keys) {
      for (const key of keys) assertStorageKey(key);
      const objects = keys.filter((key) => key !== '').map((Key) => ({ Key }));
      for (let start = 0; start < objects.length; start += DELETE_BATCH) {
        const result = await client.send(
          new DeleteObjectsCommand({
            Bucket,
            Delete: { Objects: objects.slice(start, start + DELETE_BATCH), Quiet: true },
          }),
        );
        const [failed] = result.Errors ?? [];
        if (failed) throw new Error(`S3 could not delete ${failed.Key}: ${failed.Code} ${failed.Message}`);
      }
    },

    async list(folderKey): Promise<FolderListing> {
      assertStorageKey(folderKey, 'folder');
      const listing: FolderListing = { objects: [], folders: [] };
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket, Prefix: folderKey, Delimiter: '/', ContinuationToken }),
        );
        for (const { Key } of page.Contents ?? []) {
          // The folder's own marker is not part of its content; nor is a name the disk could not hold.
          if (Key && Key !== folderKey && isStorageKey(Key)) listing.objects.push(Key);
        }
        for (const { Prefix } of page.CommonPrefixes ?? []) {
          if (Prefix && isStorageKey(Prefix, 'folder')) listing.folders.push(Prefix);
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
      return listing;
    },
  };
}
