import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenS3Simulator } from '../providers/simulators/s3.ts';
import { createLocalStorage } from './local-storage.ts';
import { createS3Storage, type S3Settings } from './s3-storage.ts';
import type { ObjectStorage } from './storage.ts';

const BUCKET = 'vitrina-contract';
const KEYS = { accessKeyId: 'contract-key', secretAccessKey: 'contract-secret' };

let simulator: Awaited<ReturnType<typeof listenS3Simulator>>;
let s3Settings: S3Settings;
const temporary = mkdtempSync(path.join(os.tmpdir(), 'vitrina-storage-'));

beforeAll(async () => {
  simulator = await listenS3Simulator({ credentials: [KEYS], buckets: [BUCKET], region: 'ru-central1' });
  s3Settings = {
    bucket: BUCKET,
    region: 'ru-central1',
    endpoint: simulator.endpoint,
    forcePathStyle: true,
    credentials: KEYS,
  };
});
afterAll(async () => {
  await simulator.close();
  rmSync(temporary, { recursive: true, force: true });
});

const implementations: Array<[string, () => ObjectStorage]> = [
  ['local disk', () => createLocalStorage(path.join(temporary, 'uploads'))],
  ['S3 (simulated)', () => createS3Storage(s3Settings)],
];

const bytes = (text: string) => new Uint8Array(Buffer.from(text));
const read = async (storage: ObjectStorage, key: string) => {
  const object = await storage.get(key);
  return object && { ...object, body: (await buffer(object.body)).toString() };
};

describe.each(implementations)('storage contract: %s', (_name, create) => {
  let storage: ObjectStorage;
  beforeAll(() => {
    storage = create();
  });

  it('gives back what was put, with its type and length, and nothing for a missing key', async () => {
    await storage.put('img/products/640/0123456789abcdef.webp', bytes('RIFF-webp'), 'image/webp');
    expect(await read(storage, 'img/products/640/0123456789abcdef.webp')).toEqual({
      body: 'RIFF-webp',
      contentType: 'image/webp',
      length: 9,
    });
    expect(await storage.exists('img/products/640/0123456789abcdef.webp')).toBe(true);
    expect(await storage.get('img/products/640/ffffffffffffffff.webp')).toBeNull();
    expect(await storage.exists('img/products/640/ffffffffffffffff.webp')).toBe(false);
    expect(await storage.get('img/nowhere/at-all.webp')).toBeNull();
  });

  it('replaces an object whole and deletes it, a missing key being no error', async () => {
    await storage.put('img/partners/card.webp', bytes('first version'), 'image/webp');
    await storage.put('img/partners/card.webp', bytes('second'), 'image/webp');
    expect(await read(storage, 'img/partners/card.webp')).toMatchObject({ body: 'second', length: 6 });
    await storage.delete(['img/partners/card.webp', 'img/partners/never-was.webp']);
    expect(await storage.get('img/partners/card.webp')).toBeNull();
    expect(await storage.exists('img/partners/card.webp')).toBe(false);
  });

  it('keeps folders as the file manager sees them: markers, sub-folders and objects', async () => {
    await storage.put('files/', new Uint8Array(), 'application/x-directory');
    await storage.put('files/merch/', new Uint8Array(), 'application/x-directory');
    await storage.put('files/merch/2024/', new Uint8Array(), 'application/x-directory');
    await storage.put('files/merch/note.png', bytes('png'), 'image/png');
    expect(await storage.exists('files/merch/')).toBe(true);
    expect(await storage.exists('files/merch/2024/')).toBe(true);
    expect(await storage.exists('files/other/')).toBe(false);
    // An object key is not a folder, nor a folder an object.
    expect(await storage.exists('files/merch')).toBe(false);
    expect(await storage.exists('files/merch/note.png/')).toBe(false);

    expect(await storage.list('files/')).toEqual({ objects: [], folders: ['files/merch/'] });
    expect(await storage.list('files/merch/')).toEqual({
      objects: ['files/merch/note.png'],
      folders: ['files/merch/2024/'],
    });
    expect(await storage.list('files/merch/2024/')).toEqual({ objects: [], folders: [] });
    expect(await storage.list('files/missing/')).toEqual({ objects: [], folders: [] });

    // A folder holding something outlives its marker; an empty one goes with it.
    await storage.delete(['files/merch/']);
    expect(await storage.exists('files/merch/')).toBe(true);
    await storage.delete(['files/merch/2024/']);
    expect(await storage.exists('files/merch/2024/')).toBe(false);
    expect((await storage.list('files/merch/')).folders).toEqual([]);
    await storage.delete(['files/merch/note.png', 'files/merch/']);
    expect(await storage.exists('files/merch/')).toBe(false);
  });

  it('an object put into a folder that has no marker makes the folder exist', async () => {
    await storage.put('img/projects/320/logo.webp', bytes('logo'), 'image/webp');
    expect(await storage.exists('img/projects/320/')).toBe(true);
    expect((await storage.list('img/projects/')).folders).toEqual(['img/projects/320/']);
  });

  it('lists and deletes more objects than one S3 call carries (1000)', { timeout: 60_000 }, async () => {
    const keys = Array.from({ length: 1003 }, (_, index) => `bulk/${String(index).padStart(4, '0')}.bin`);
    for (let start = 0; start < keys.length; start += 50) {
      await Promise.all(
        keys.slice(start, start + 50).map((key) => storage.put(key, bytes(key), 'application/octet-stream')),
      );
    }
    const listed = await storage.list('bulk/');
    expect(listed.objects).toEqual(keys);
    await storage.delete(keys);
    expect(await storage.list('bulk/')).toEqual({ objects: [], folders: [] });
  });

  it('refuses keys that are not plain names before touching anything', async () => {
    for (const key of [
      '../escape.webp',
      'img/../../escape.webp',
      '/etc/passwd',
      'img//x.webp',
      'img/.hidden',
      'a\\b',
    ]) {
      await expect(storage.put(key, bytes('x'), 'image/webp'), key).rejects.toThrow(TypeError);
      await expect(storage.get(key), key).rejects.toThrow(TypeError);
      await expect(storage.delete([key]), key).rejects.toThrow(TypeError);
    }
    await expect(storage.list('img/../')).rejects.toThrow(TypeError);
    await expect(storage.put('files/x/', bytes('not empty'), 'image/webp')).rejects.toThrow(TypeError);
  });
});

describe('S3 storage against the simulator', () => {
  it('is refused with a wrong secret, and nothing is stored', async () => {
    const forged = createS3Storage({ ...s3Settings, credentials: { ...KEYS, secretAccessKey: 'guessed' } });
    await expect(forged.put('img/forged.webp', bytes('x'), 'image/webp')).rejects.toMatchObject({
      name: 'SignatureDoesNotMatch',
      $metadata: { httpStatusCode: 403 },
    });
    await expect(forged.get('img/products/640/0123456789abcdef.webp')).rejects.toMatchObject({
      name: 'SignatureDoesNotMatch',
    });
    expect(simulator.simulator.bucket(BUCKET).has('img/forged.webp')).toBe(false);
  });

  it('stores marker objects for folders and the content type it was given', async () => {
    const storage = createS3Storage(s3Settings);
    await storage.put('files/markers/', new Uint8Array(), 'application/x-directory');
    await storage.put('img/typed.png', bytes('png'), 'image/png');
    const objects = simulator.simulator.bucket(BUCKET);
    expect(objects.get('files/markers/')).toMatchObject({ contentType: 'application/x-directory' });
    expect(objects.get('files/markers/')?.body.length).toBe(0);
    expect(objects.get('img/typed.png')?.contentType).toBe('image/png');
  });

  it('says so when the bucket does not exist', async () => {
    const storage = createS3Storage({ ...s3Settings, bucket: 'no-such-bucket' });
    await expect(storage.get('img/x.webp')).rejects.toMatchObject({ name: 'NoSuchBucket' });
  });
});

describe('local storage', () => {
  it('follows no link planted inside the root out of it', async () => {
    const root = path.join(temporary, 'linked');
    const outside = path.join(temporary, 'outside');
    mkdirSync(path.join(root, 'img'), { recursive: true });
    mkdirSync(outside, { recursive: true });
    writeFileSync(path.join(outside, 'secret.webp'), 'secret');
    symlinkSync(outside, path.join(root, 'img', 'escape'));
    symlinkSync(path.join(outside, 'secret.webp'), path.join(root, 'img', 'secret.webp'));
    const storage = createLocalStorage(root);

    expect(await storage.get('img/escape/secret.webp')).toBeNull();
    expect(await storage.get('img/secret.webp')).toBeNull();
    expect(await storage.exists('img/escape/')).toBe(false);
    expect(await storage.list('img/')).toEqual({ objects: [], folders: [] });
    expect(await storage.list('img/escape/')).toEqual({ objects: [], folders: [] });
    await expect(storage.put('img/escape/planted.webp', bytes('x'), 'image/webp')).rejects.toThrow(
      /out of the storage root/,
    );
    await expect(storage.put('img/escape/deeper/planted.webp', bytes('x'), 'image/webp')).rejects.toThrow(
      /out of the storage root/,
    );
    await expect(
      storage.put('img/escape/folder/', new Uint8Array(), 'application/x-directory'),
    ).rejects.toThrow(/out of the storage root/);
    expect(readdirSync(outside)).toEqual(['secret.webp']);
    await storage.delete(['img/secret.webp']);
    expect(await read(createLocalStorage(outside), 'secret.webp')).toMatchObject({ body: 'secret' });
  });
});
