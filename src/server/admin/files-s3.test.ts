import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imageKeys } from '../files/images.ts';
import { listenS3Simulator } from '../providers/simulators/s3.ts';
import { multipartBody, signedInAdmin } from '../testing/admin.ts';
import { createTestApp } from '../testing/app.ts';

/**
 * The file manager and `/img/…` with uploads in an S3 bucket (the simulator): the same API and
 * URLs as on the local disk, nothing written to the disk.
 */

const BUCKET = 'vitrina-uploads';
const KEYS = { accessKeyId: 'shop-uploads', secretAccessKey: 'shop-uploads-secret' };

let s3: Awaited<ReturnType<typeof listenS3Simulator>>;
let shop: Awaited<ReturnType<typeof createTestApp>>;
let cookies: Record<string, string>;
const bucket = () => s3.simulator.bucket(BUCKET);

beforeAll(async () => {
  s3 = await listenS3Simulator({ credentials: [KEYS], buckets: [BUCKET], region: 'ru-central1' });
  shop = await createTestApp({
    env: {
      S3_BUCKET: BUCKET,
      S3_ENDPOINT: s3.endpoint,
      S3_REGION: 'ru-central1',
      S3_ACCESS_KEY_ID: KEYS.accessKeyId,
      S3_SECRET_ACCESS_KEY: KEYS.secretAccessKey,
    },
  });
  cookies = await signedInAdmin(shop);
});
afterAll(async () => {
  await shop.close();
  await s3.close();
  rmSync(shop.services.config.dataDir, { recursive: true, force: true });
});

const call = async (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) => {
  const response = await shop.app.inject({ method, url, cookies, ...(payload ? { payload } : {}) });
  return { status: response.statusCode, body: response.json() as Record<string, unknown> };
};

async function upload(folder: string, name: string, data: Buffer) {
  const { payload, contentType } = await multipartBody({ path: folder }, [{ name, type: 'image/png', data }]);
  const response = await shop.app.inject({
    method: 'POST',
    url: '/api/admin/files',
    headers: { 'content-type': contentType },
    payload,
    cookies,
  });
  return { status: response.statusCode, body: response.json() as Record<string, unknown> };
}

const picture = (width: number, height: number, colour: string) =>
  sharp({ create: { width, height, channels: 3, background: colour } })
    .png()
    .toBuffer();

describe('file manager on S3', () => {
  it('uploads a picture into a folder and serves it back from the bucket under /img', async () => {
    expect((await call('POST', '/api/admin/files/folders', { path: '', name: 'merch' })).status).toBe(200);
    expect(bucket().get('files/merch/')).toMatchObject({ contentType: 'application/x-directory' });
    expect((await call('GET', '/api/admin/files')).body).toMatchObject({ folders: ['merch'], files: [] });

    const stored = await upload('merch', 'Wolf photo.png', await picture(1600, 900, '#336699'));
    expect(stored.status).toBe(200);
    const file = stored.body.file as { id: number; name: string; url: string; size: number };
    expect(file).toMatchObject({ width: 1200, height: 675, url: `/img/products/640/${file.name}` });
    for (const key of imageKeys('products', file.name)) {
      expect(bucket().get(key)?.contentType, key).toBe('image/webp');
    }
    expect(file.size).toBe(bucket().get(`img/products/${file.name}`)?.body.length);
    // Nothing went to the local disk.
    expect(existsSync(path.join(shop.services.config.uploadsDir, 'img'))).toBe(false);
    expect((await call('GET', '/api/admin/files?path=merch')).body.files).toEqual([
      expect.objectContaining({ id: file.id, name: file.name, originalName: 'Wolf photo.png' }),
    ]);

    const served = await shop.app.inject({ method: 'GET', url: file.url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/webp');
    expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(served.headers['content-length']).toBe(String(served.rawPayload.length));
    expect(
      served.rawPayload.equals(bucket().get(`img/products/640/${file.name}`)?.body ?? Buffer.alloc(0)),
    ).toBe(true);
    expect((await sharp(served.rawPayload).metadata()).width).toBe(640);
    const head = await shop.app.inject({ method: 'HEAD', url: file.url });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-type']).toBe('image/webp');
  });

  it('answers 404 for a missing image and for any key outside img/', async () => {
    bucket().set('secret.txt', {
      body: Buffer.from('not for the public'),
      contentType: 'text/plain',
      etag: '"0"',
      lastModified: new Date(),
    });
    for (const url of [
      '/img/products/640/ffffffffffffffff.webp',
      '/img/products/640/',
      '/img/',
      '/img/../secret.txt',
      '/img/..%2fsecret.txt',
      '/img/%2e%2e/secret.txt',
      '/img/products/..%2f..%2fsecret.txt',
      '/img//secret.txt',
      '/img/.%2e/files/merch/',
    ]) {
      const response = await shop.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
      expect(response.body, url).not.toContain('not for the public');
    }
  });

  it('keeps a non-empty folder, deletes the picture from the bucket with its entry, then the folder', async () => {
    const stored = await upload('merch', 'mug.png', await picture(300, 300, '#aa0000'));
    const file = stored.body.file as { id: number; name: string; url: string };
    expect((await call('DELETE', '/api/admin/files/folders', { path: 'merch' })).status).toBe(409);

    const listed = (await call('GET', '/api/admin/files?path=merch')).body.files as Array<{ id: number }>;
    for (const entry of listed) {
      expect((await call('DELETE', `/api/admin/files/${entry.id}`)).body).toEqual({
        success: true,
        keptOnDisk: false,
      });
    }
    for (const key of imageKeys('products', file.name)) expect(bucket().has(key), key).toBe(false);
    expect((await shop.app.inject({ method: 'GET', url: file.url })).statusCode).toBe(404);

    expect((await call('DELETE', '/api/admin/files/folders', { path: 'merch' })).status).toBe(200);
    expect(bucket().has('files/merch/')).toBe(false);
    expect((await call('GET', '/api/admin/files')).body).toMatchObject({ folders: [] });
    expect((await call('GET', '/api/admin/files?path=merch')).status).toBe(404);
  });

  it('nests folders and refuses one that exists or whose parent does not', async () => {
    expect((await call('POST', '/api/admin/files/folders', { path: '', name: 'a' })).status).toBe(200);
    expect((await call('POST', '/api/admin/files/folders', { path: 'a', name: 'b' })).status).toBe(200);
    expect((await call('POST', '/api/admin/files/folders', { path: 'a', name: 'b' })).status).toBe(409);
    expect((await call('POST', '/api/admin/files/folders', { path: 'missing', name: 'x' })).status).toBe(404);
    expect((await call('GET', '/api/admin/files?path=a')).body).toMatchObject({ path: 'a', folders: ['b'] });
    expect((await call('DELETE', '/api/admin/files/folders', { path: 'a' })).status).toBe(409);
    expect((await call('DELETE', '/api/admin/files/folders', { path: 'a/b' })).status).toBe(200);
    expect((await call('DELETE', '/api/admin/files/folders', { path: 'a' })).status).toBe(200);
    expect([...bucket().keys()].filter((key) => key.startsWith('files/'))).toEqual([]);
  });
});
