import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';

/**
 * Carries "the catalogue changed" from the instance that wrote to every other instance, so that
 * their caches (catalogue answers and server-rendered pages) drop what they hold.
 *
 * With one process there is nothing to carry: `localInvalidation()`. With several, Redis pub/sub:
 * every instance subscribes to one channel and publishes on each write. A subscriber that loses
 * its connection may miss messages, so while it is down the instance keeps nothing in its caches
 * (`canKeep()` is false) and it clears them again when the subscription is back.
 */
export interface CatalogInvalidation {
  /** Tells the other instances; resolves once Redis has handed the message to every subscriber. */
  publish(): Promise<void>;
  /** False while a change made elsewhere could go unnoticed: caches must not keep answers then. */
  canKeep(): boolean;
  close(): Promise<void>;
}

export const localInvalidation = (): CatalogInvalidation => ({
  publish: async () => {},
  canKeep: () => true,
  close: async () => {},
});

export const CATALOG_INVALIDATION_CHANNEL = 'vitrina:catalog:invalidate';

export function redisInvalidation(options: {
  redis: Redis;
  /** Called when another instance changed the catalogue, or when messages may have been missed. */
  onRemoteChange: () => void;
  channel?: string;
  log?: (message: string) => void;
}): CatalogInvalidation {
  const { redis, onRemoteChange } = options;
  const channel = options.channel ?? CATALOG_INVALIDATION_CHANNEL;
  const instance = randomUUID();
  const subscriber = redis.duplicate({
    connectionName: `${channel}#subscriber`,
    autoResubscribe: false,
    enableOfflineQueue: true,
    maxRetriesPerRequest: null,
  });
  let subscribed = false;

  subscriber.on('message', (from: string, sender: string) => {
    if (from === channel && sender !== instance) onRemoteChange();
  });
  // Every (re)connection subscribes anew; nothing may be kept until the subscription stands,
  // and what was kept before may have missed messages, so it is dropped then too.
  subscriber.on('ready', () => {
    subscriber
      .subscribe(channel)
      .then(() => {
        subscribed = true;
        onRemoteChange();
      })
      .catch((error: Error) => options.log?.(`catalogue invalidation: ${error.message}`));
  });
  subscriber.on('close', () => {
    if (subscribed) options.log?.('catalogue invalidation: Redis subscription lost, caching paused');
    subscribed = false;
    onRemoteChange();
  });
  subscriber.on('error', (error: Error) => options.log?.(`catalogue invalidation: ${error.message}`));

  // A change that could not be announced is announced as soon as Redis is reachable again.
  let unannounced = false;
  const publish = async () => {
    try {
      unannounced = false;
      await redis.publish(channel, instance);
    } catch (error) {
      unannounced = true;
      options.log?.(`catalogue invalidation: publish failed: ${(error as Error).message}`);
    }
  };
  redis.on('ready', () => {
    if (unannounced) void publish();
  });

  return {
    publish,
    canKeep: () => subscribed,
    async close() {
      subscribed = false;
      subscriber.disconnect();
    },
  };
}
