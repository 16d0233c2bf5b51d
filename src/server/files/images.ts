import { createHash } from 'node:crypto';
import { buffer } from 'node:stream/consumers';
import sharp from 'sharp';
import { IMAGE_WIDTHS, type ImageFolder } from '../../contract/images.ts';
import { Invalid } from '../errors.ts';
import type { ObjectStorage } from './storage.ts';

/**
 * Storage of catalogue images (products, project logos, partner cards) in the uploads storage
 * (the disk or a bucket, see storage.ts). Every image is checked by its content, re-encoded as WebP
 * (which also drops EXIF and anything hidden in the original file) and named by the hash of what is
 * stored, so the same picture is stored once and its URLs can be cached forever. Keys, served at
 * `/{key}`:
 *
 *   img/{folder}/{name}            the "original", at most 1200 px wide
 *   img/{folder}/{width}/{name}    one copy per width in IMAGE_WIDTHS
 */

export { IMAGE_WIDTHS, type ImageFolder };

const MAX_WIDTH = 1200;
/** Raster formats a browser or a phone produces; SVG is refused (it is a document, not a picture). */
const ACCEPTED_FORMATS = new Set(['jpeg', 'png', 'webp', 'gif', 'avif', 'heif', 'tiff']);
/**
 * Refuse decompression bombs: 50 megapixels is more than any product photo needs. The refusal
 * (`image-too-many-pixels`) states this limit in the uploader's language.
 */
export const MAX_INPUT_PIXELS = 50_000_000;
/** Effort 2 encodes twice as fast as the default 4 for files about 5 % larger. */
const WEBP = { quality: 82, effort: 2 } as const;

// Each image is decoded and encoded once, when it is stored: libvips's operation cache (up to 50 MB)
// would only hold memory (ADR 0029).
sharp.cache(false);

/**
 * A refused upload is the uploader's mistake (422 at the HTTP edge), reported on the `image` field
 * with a key of contract/error-messages.ts, so the uploader reads it in their language.
 */
const invalidImage = (key: string) => new Invalid(key, { image: [key] });

export interface StoredImage {
  /** `{hash16}.webp` */
  name: string;
  width: number;
  height: number;
  /** Bytes of the original. */
  size: number;
}

/** The keys of an image's original and of each of its variants. */
export const imageKeys = (folder: ImageFolder, name: string) => [
  `img/${folder}/${name}`,
  ...IMAGE_WIDTHS.map((width) => `img/${folder}/${width}/${name}`),
];

/** Stores `input` as WebP with its resized variants; answers its name and the original's size. */
export async function storeImage(
  storage: ObjectStorage,
  folder: ImageFolder,
  input: Buffer,
): Promise<StoredImage> {
  const format = await detectFormat(input);
  if (!ACCEPTED_FORMATS.has(format)) {
    throw invalidImage('image-format-unsupported');
  }

  const original = await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS })
    .rotate()
    .resize({ width: MAX_WIDTH, withoutEnlargement: true })
    .webp(WEBP)
    .toBuffer({ resolveWithObject: true })
    .catch(() => {
      throw invalidImage('image-unreadable');
    });

  const name = `${createHash('sha256').update(original.data).digest('hex').slice(0, 16)}.webp`;
  await writeOnce(storage, `img/${folder}/${name}`, async () => original.data);

  for (const width of IMAGE_WIDTHS) {
    await writeOnce(storage, `img/${folder}/${width}/${name}`, () => resized(original.data, width));
  }
  return { name, width: original.info.width, height: original.info.height, size: original.data.length };
}

/** The variant of a stored original `width` px wide. */
async function resized(original: Buffer, width: number): Promise<Buffer> {
  const { width: originalWidth = 0 } = await sharp(original).metadata();
  // Never upscale: a narrower original is served as-is under every wider variant URL.
  if (width >= originalWidth) return original;
  // From the WebP original, which libvips can shrink while decoding: faster than the input.
  return sharp(original).resize({ width }).webp(WEBP).toBuffer();
}

/**
 * Makes and stores the variant `width` px wide of a stored image that has none: a width added to
 * IMAGE_WIDTHS after the image was stored (ADR 0079). Answers its bytes, or null when `width` is
 * not one of IMAGE_WIDTHS or there is no such image.
 */
export async function missingVariant(
  storage: ObjectStorage,
  folder: string,
  width: number,
  name: string,
): Promise<Buffer | null> {
  if (!isImageFolder(folder) || !IMAGE_WIDTHS.some((each) => each === width) || !IMAGE_NAME.test(name))
    return null;
  const stored = await storage.get(`img/${folder}/${name}`);
  if (!stored) return null;
  const variant = await resized(await buffer(stored.body), width);
  await storage.put(`img/${folder}/${width}/${name}`, variant, 'image/webp');
  return variant;
}

const IMAGE_FOLDERS = ['products', 'projects', 'partners'] as const satisfies readonly ImageFolder[];
const isImageFolder = (folder: string): folder is ImageFolder =>
  (IMAGE_FOLDERS as readonly string[]).includes(folder);

/** A stored image's name: what storeImage makes, or a name the seed or an older shop gave a logo. */
export const IMAGE_NAME = /^[\w-]+\.(webp|png|jpe?g|gif|avif)$/i;

const missingPicture = () => new Invalid('file-missing', { image: ['file-missing'] });

/** Whether `name` is stored as an image of `folder`. */
export async function imageExists(
  storage: ObjectStorage,
  folder: ImageFolder,
  name: string,
): Promise<boolean> {
  return IMAGE_NAME.test(name) && (await storage.exists(`img/${folder}/${name}`));
}

/**
 * Makes the picture `name` an image of `folder` (a project logo, a partner picture): it already is
 * one, or it is stored in another folder (an upload of the file manager is stored with the product
 * pictures) and is copied over with its variants. A name that is neither is refused (422 on `image`), so nothing shows a missing
 * picture.
 */
export async function adoptImage(storage: ObjectStorage, folder: ImageFolder, name: string): Promise<void> {
  if (!IMAGE_NAME.test(name)) throw missingPicture();
  if (await storage.exists(`img/${folder}/${name}`)) return;
  // An upload (stored with the product pictures), or another project's or partner's picture.
  const others = IMAGE_FOLDERS.filter((other) => other !== folder);
  let from: ImageFolder | undefined;
  for (const other of others) {
    if (await storage.exists(`img/${other}/${name}`)) {
      from = other;
      break;
    }
  }
  if (from === undefined) throw missingPicture();
  const sources = imageKeys(from, name);
  const targets = imageKeys(folder, name);
  // The original last: once it is there, the picture counts as adopted.
  for (let index = sources.length - 1; index >= 0; index -= 1) {
    const source = await storage.get(sources[index] as string);
    // A variant lost from the source is left out; the original is required below.
    const bytes = source ? await buffer(source.body) : null;
    if (bytes) await storage.put(targets[index] as string, bytes, 'image/webp');
  }
  if (!(await storage.exists(`img/${folder}/${name}`))) throw missingPicture();
}

async function detectFormat(input: Buffer): Promise<string> {
  if (input.length === 0) throw invalidImage('image-empty');
  // The header alone is read here (no pixels decoded), so a picture over the pixel limit is told so
  // rather than called "not an image".
  const metadata = await sharp(input, { limitInputPixels: false })
    .metadata()
    .catch(() => null);
  if (!metadata?.format || !metadata.width || !metadata.height) throw invalidImage('image-not-a-picture');
  if (metadata.width * metadata.height > MAX_INPUT_PIXELS) throw invalidImage('image-too-many-pixels');
  return metadata.format;
}

/** Content-addressed, so an existing object already holds these bytes. */
async function writeOnce(storage: ObjectStorage, key: string, produce: () => Promise<Buffer>): Promise<void> {
  if (await storage.exists(key)) return;
  await storage.put(key, await produce(), 'image/webp');
}
