import type { FastifyInstance } from 'fastify';
import type { ObjectStorage } from '../files/storage.ts';
import { isStorageKey } from '../files/storage-keys.ts';

/** Names are content hashes, so a stored image never changes under its URL. */
export const IMMUTABLE_FOR_A_YEAR = 'public, max-age=31536000, immutable';

/**
 * `GET /img/*` from a bucket: the object with key `img/…` streamed through the shop, with the same
 * URLs and cache headers the disk's static files get. Only keys under `img/` made of plain names
 * are read (no `..`, no empty segment, no folder); anything else, and a missing object, is a 404.
 */
export function imagesFromStorage(storage: ObjectStorage) {
  return async (app: FastifyInstance) => {
    app.get('/img/*', async (request, reply) => {
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
