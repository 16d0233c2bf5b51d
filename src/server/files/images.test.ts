import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { IMAGE_WIDTHS, storeImage } from './images.ts';
import { createLocalStorage } from './local-storage.ts';

const uploadsDir = mkdtempSync(path.join(os.tmpdir(), 'vitrina-images-'));
const storage = createLocalStorage(uploadsDir);
afterAll(() => rmSync(uploadsDir, { recursive: true, force: true }));

const picture = (width: number, height: number, colour = '#3366cc') =>
  sharp({ create: { width, height, channels: 3, background: colour } })
    .png()
    .toBuffer();

const widthOf = async (file: string) => (await sharp(file).metadata()).width;

describe('storeImage', () => {
  it('stores a WebP original of at most 1200 px and one variant per width', async () => {
    const stored = await storeImage(storage, 'products', await picture(2000, 1000));
    const { name } = stored;
    expect(name).toMatch(/^[0-9a-f]{16}\.webp$/);

    const folder = path.join(uploadsDir, 'img', 'products');
    const original = await sharp(path.join(folder, name)).metadata();
    expect(original.format).toBe('webp');
    expect([original.width, original.height]).toEqual([1200, 600]);
    expect(stored).toEqual({ name, width: 1200, height: 600, size: statSync(path.join(folder, name)).size });
    for (const width of IMAGE_WIDTHS) {
      expect(await widthOf(path.join(folder, String(width), name))).toBe(width);
    }
  });

  it('never upscales a narrow picture but still answers every variant URL', async () => {
    const { name } = await storeImage(storage, 'partners', await picture(500, 300, '#aa3300'));
    const folder = path.join(uploadsDir, 'img', 'partners');
    expect(await widthOf(path.join(folder, name))).toBe(500);
    expect(await widthOf(path.join(folder, '320', name))).toBe(320);
    expect(await widthOf(path.join(folder, '640', name))).toBe(500);
    expect(await widthOf(path.join(folder, '1200', name))).toBe(500);
  });

  it('names a picture by its content: the same picture gets the same name, another one a new name', async () => {
    const first = await storeImage(storage, 'projects', await picture(800, 800, '#118844'));
    const again = await storeImage(storage, 'projects', await picture(800, 800, '#118844'));
    const other = await storeImage(storage, 'projects', await picture(800, 800, '#881144'));
    expect(again).toEqual(first);
    expect(other.name).not.toBe(first.name);
    expect(
      readdirSync(path.join(uploadsDir, 'img', 'projects')).filter((file) => file.endsWith('.webp')),
    ).toHaveLength(2);
  });

  it('refuses content that is not a picture and writes nothing', async () => {
    const before = existsSync(path.join(uploadsDir, 'img')) ? readdirSync(path.join(uploadsDir, 'img')) : [];
    await expect(storeImage(storage, 'products', Buffer.from('<script>alert(1)</script>'))).rejects.toThrow(
      'image-not-a-picture',
    );
    await expect(storeImage(storage, 'products', Buffer.alloc(0))).rejects.toThrow('image-empty');
    expect(existsSync(path.join(uploadsDir, 'img')) ? readdirSync(path.join(uploadsDir, 'img')) : []).toEqual(
      before,
    );
  });

  it('refuses an SVG document even though it draws a picture', async () => {
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>',
    );
    await expect(storeImage(storage, 'products', svg)).rejects.toThrow('image-format-unsupported');
  });
});
