import type { FastifyInstance } from 'fastify';
import { missingVariant } from '../files/images.ts';
import type { ObjectStorage } from '../files/storage.ts';
import { isStorageKey } from '../files/storage-keys.ts';
import { NOT_FOUND_ANSWER } from '../http/api.ts';

/** Names are content hashes, so a stored image never changes under its URL. */
export const IMMUTABLE_FOR_A_YEAR = 'public, max-age=31536000, immutable';

/** An image variant's address below `/img`: `/{folder}/{width}/{name}`. */
const VARIANT_PATH = /^\/img\/([^/]+)\/(\d+)\/([^/]+)$/;

/**
 * Registered in the `/img` context: a variant that was never made, for a width added to
 * IMAGE_WIDTHS after its image was stored, is made from the stored original on its first request
 * and stored (ADR 0079); anything else missing is the app's 404.
 */
export function variantsMadeOnDemand(images: FastifyInstance, storage: ObjectStorage) {
  images.setNotFoundHandler(async (request, reply) => {
    const [, folder = '', width = '', name = ''] =
      VARIANT_PATH.exec(request.url.split('?', 1)[0] ?? '') ?? [];
    const variant =
      request.method === 'GET' || request.method === 'HEAD'
        ? await missingVariant(storage, folder, Number(width), name)
        : null;
    if (!variant) return reply.status(404).send(NOT_FOUND_ANSWER);
    return reply
      .header('cache-control', IMMUTABLE_FOR_A_YEAR)
      .header('x-content-type-options', 'nosniff')
      .type('image/webp')
      .send(variant);
  });
}

/**
 * `GET /img/*` from a bucket: the object with key `img/…` streamed through the shop, with the same
 * URLs and cache headers the disk's static files get. Only keys under `img/` made of plain names
 * are read (no `..`, no empty segment, no folder); anything else, and a missing object, is a 404.
 */
export function imagesFromStorage(storage: ObjectStorage) {
  return async (app: FastifyInstance) => {
    app.get('/*', async (request, reply) => {
      const key = `img/${(request.params as { '*': string })['*']}`;
      const object = isStorageKey(key) ? await storage.get(key) : null;
      if (!object) return reply.callNotFound();
      return reply
        .header('cache-control', IMMUTABLE_FOR_A_YEAR)
        .header('x-content-type-options', 'nosniff')
        .header('content-length', object.length)
        .type(object.contentType)
        .send(object.body);
    });
  };
}
