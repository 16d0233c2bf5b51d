import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { createLocalStorage } from '../files/local-storage.ts';
import { IMMUTABLE_FOR_A_YEAR, imagesFromStorage } from './images.ts';

// The route over the disk storage, where `..` would really lead somewhere: only keys under img/ may be read.
const root = mkdtempSync(path.join(os.tmpdir(), 'vitrina-image-routes-'));
mkdirSync(path.join(root, 'img', 'products'), { recursive: true });
writeFileSync(path.join(root, 'img', 'products', 'a1b2c3d4e5f60718.webp'), 'webp bytes');
writeFileSync(path.join(root, 'secret.txt'), 'not for the public');
mkdirSync(path.join(root, 'files', 'merch'), { recursive: true });
writeFileSync(path.join(root, 'files', 'merch', 'note.webp'), 'not an image URL');

const app = Fastify();
await app.register(imagesFromStorage(createLocalStorage(root)));
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
