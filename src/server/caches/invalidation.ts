import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { type CatalogChange, EVERYTHING } from './changes.ts';

/**
 * Carries what changed in the catalogue (its keys, or everything) from the instance that wrote to
 * every other instance, so that their caches (catalogue answers and server-rendered pages) drop
 * what shows it.
 *
 * With one process there is nothing to carry: `localInvalidation()`. With several, Redis pub/sub:
 * every instance subscribes to one channel and publishes on each write. A subscriber that loses
 * its connection may miss messages, so while it is down the instance keeps nothing in its caches
 * (`canKeep()` is false) and it clears them again when the subscription is back.
 */
export interface CatalogInvalidation {
  /** Tells the other instances; resolves once Redis has handed the message to every subscriber. */
  publish(change: CatalogChange): Promise<void>;
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
  /**
   * Called with what another instance changed, or with everything when messages may have been
   * missed (the subscription was down).
   */
  onRemoteChange: (change: CatalogChange) => void;
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

  subscriber.on('message', (from: string, message: string) => {
    if (from !== channel) return;
    const { sender, change } = readMessage(message);
    if (sender !== instance) onRemoteChange(change);
  });
  // Every (re)connection subscribes anew; nothing may be kept until the subscription stands,
  // and what was kept before may have missed messages, so it is dropped then too.
  subscriber.on('ready', () => {
    subscriber
      .subscribe(channel)
      .then(() => {
        subscribed = true;
        onRemoteChange(EVERYTHING);
      })
      .catch((error: Error) => options.log?.(`catalogue invalidation: ${error.message}`));
  });
  subscriber.on('close', () => {
    if (subscribed) options.log?.('catalogue invalidation: Redis subscription lost, caching paused');
    subscribed = false;
    onRemoteChange(EVERYTHING);
  });
  subscriber.on('error', (error: Error) => options.log?.(`catalogue invalidation: ${error.message}`));

  // A change that could not be announced is announced as soon as Redis is reachable again, as a
  // change of everything (what else went unannounced meanwhile is not kept).
  let unannounced = false;
  const publish = async (change: CatalogChange) => {
    try {
      unannounced = false;
      await redis.publish(channel, JSON.stringify({ sender: instance, change }));
    } catch (error) {
      unannounced = true;
      options.log?.(`catalogue invalidation: publish failed: ${(error as Error).message}`);
    }
  };
  redis.on('ready', () => {
    if (unannounced) void publish(EVERYTHING);
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

/** A message this channel carries; anything unreadable counts as a change of everything. */
function readMessage(message: string): { sender: string; change: CatalogChange } {
  try {
    const parsed = JSON.parse(message) as {
      sender?: unknown;
      change?: Partial<{ everything: true; keys: unknown; stockOnly: unknown }>;
    };
    const change = parsed.change;
    const sender = typeof parsed.sender === 'string' ? parsed.sender : '';
    if (change && Array.isArray(change.keys) && change.keys.every((key) => typeof key === 'string'))
      return { sender, change: { keys: change.keys as string[], stockOnly: change.stockOnly === true } };
    return { sender, change: EVERYTHING };
  } catch {
    return { sender: '', change: EVERYTHING };
  }
}
