import { existsSync, mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { storeImage } from '../files/images.ts';
import { createLocalStorage } from '../files/local-storage.ts';
import { IMMUTABLE_FOR_A_YEAR, imagesFromStorage, variantsMadeOnDemand } from './images.ts';

// The route over the disk storage, where `..` would really lead somewhere: only keys under img/ may be read.
const root = mkdtempSync(path.join(os.tmpdir(), 'vitrina-image-routes-'));
mkdirSync(path.join(root, 'img', 'products'), { recursive: true });
writeFileSync(path.join(root, 'img', 'products', 'a1b2c3d4e5f60718.webp'), 'webp bytes');
writeFileSync(path.join(root, 'secret.txt'), 'not for the public');
mkdirSync(path.join(root, 'files', 'merch'), { recursive: true });
writeFileSync(path.join(root, 'files', 'merch', 'note.webp'), 'not an image URL');

const storage = createLocalStorage(root);
const app = Fastify();
await app.register(
  async (images) => {
    await images.register(imagesFromStorage(storage));
    variantsMadeOnDemand(images, storage);
  },
  { prefix: '/img' },
);
afterAll(async () => {
  await app.close();
  rmSync(root, { recursive: true, force: true });
});

describe('GET /img/* from a storage', () => {
  it('streams the object with its type, length and a year of immutable caching', async () => {
    const response = await app.inject({ method: 'GET', url: '/img/products/a1b2c3d4e5f60718.webp' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('webp bytes');
    expect(response.headers).toMatchObject({
      'content-type': 'image/webp',
      'content-length': '10',
      'cache-control': IMMUTABLE_FOR_A_YEAR,
    });
  });

  it('answers 404 for a missing key and for every way out of img/', async () => {
    for (const url of [
      '/img/products/ffffffffffffffff.webp',
      '/img/products/',
      '/img/..%2fsecret.txt',
      '/img/%2e%2e/secret.txt',
      '/img/products/..%2f..%2fsecret.txt',
      '/img/..%2ffiles/merch/note.webp',
      '/img/%2e%2e%5csecret.txt',
      '/img//secret.txt',
    ]) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
      expect(response.body, url).not.toMatch(/not for the public|not an image URL/);
    }
  });
});

describe('an image variant of a width added after the image was stored', () => {
  it('is made from the stored original on its first request, then kept', async () => {
    const picture = await sharp({ create: { width: 1600, height: 900, channels: 3, background: '#3366cc' } })
      .png()
      .toBuffer();
    const { name } = await storeImage(storage, 'products', picture);
    // As a shop that stored it before 800 px was one of the widths left it.
    const key = path.join(root, 'img', 'products', '800', name);
    unlinkSync(key);

    const response = await app.inject({ method: 'GET', url: `/img/products/800/${name}` });
    expect(response.statusCode).toBe(200);
    expect(response.headers).toMatchObject({
      'content-type': 'image/webp',
      'cache-control': IMMUTABLE_FOR_A_YEAR,
    });
    expect((await sharp(response.rawPayload).metadata()).width).toBe(800);
    expect(existsSync(key)).toBe(true);
  });

  it("is not made for a width that is not one of the shop's, nor for an image that is not stored", async () => {
    const { name } = await storeImage(
      storage,
      'products',
      await sharp({ create: { width: 900, height: 900, channels: 3, background: '#118844' } })
        .png()
        .toBuffer(),
    );
    for (const url of [
      `/img/products/700/${name}`,
      '/img/products/800/ffffffffffffffff.webp',
      `/img/secrets/800/${name}`,
    ]) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
    }
    expect(existsSync(path.join(root, 'img', 'products', '700', name))).toBe(false);
  });
});
