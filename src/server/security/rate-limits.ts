import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { TooManyRequests } from '../errors.ts';

/**
 * Attempts allowed per IP and per account (e-mail) for the calls people abuse. Counters live in
 * Redis when it is configured, so all instances share them; in memory otherwise.
 */
const RULES = {
  login: { ip: [30, 900], account: [8, 900] },
  registration: { ip: [10, 3600], account: [5, 3600] },
  restore: { ip: [10, 3600], account: [3, 3600] },
  reset: { ip: [10, 3600], account: [5, 3600] },
  feedback: { ip: [5, 3600], account: [5, 3600] },
} as const;

export type LimitedAction = keyof typeof RULES;
type Limiter = RateLimiterMemory | RateLimiterRedis;

export function createRateLimits(options: { redis?: Redis | undefined; multiplier?: number }) {
  const multiplier = options.multiplier ?? 1;
  const make = (keyPrefix: string, [points, duration]: readonly [number, number]): Limiter => {
    const settings = { keyPrefix: `vitrina:${keyPrefix}`, points: points * multiplier, duration };
    return options.redis
      ? new RateLimiterRedis({
          ...settings,
          storeClient: options.redis,
          // If Redis is down, limit in memory rather than letting everything through or failing.
          insuranceLimiter: new RateLimiterMemory(settings),
        })
      : new RateLimiterMemory(settings);
  };
  const limiters = Object.fromEntries(
    Object.entries(RULES).map(([action, rule]) => [
      action,
      { ip: make(`${action}:ip`, rule.ip), account: make(`${action}:account`, rule.account) },
    ]),
  ) as Record<LimitedAction, { ip: Limiter; account: Limiter }>;

  return {
    /** Counts one attempt; throws TooManyRequests (429, Retry-After) when over the limit. */
    async consume(action: LimitedAction, ip: string, account?: string) {
      const { ip: byIp, account: byAccount } = limiters[action];
      try {
        await byIp.consume(ip);
        if (account) await byAccount.consume(account.toLowerCase());
      } catch (error) {
        if (error instanceof RateLimiterRes) throw new TooManyRequests(Math.ceil(error.msBeforeNext / 1000));
        throw error;
      }
    },
    /** Forgets an account's failed attempts after a success. */
    async forgive(action: LimitedAction, account: string) {
      await limiters[action].account.delete(account.toLowerCase());
    },
  };
}

export type RateLimits = ReturnType<typeof createRateLimits>;
