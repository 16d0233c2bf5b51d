import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { TooManyRequests } from '../errors.ts';

/**
 * Attempts allowed per IP and per account (e-mail) for the calls people abuse. Counters live in
 * Redis when it is configured, so all instances share them; in memory otherwise.
 */
const RULES = {
  registration: { ip: [10, 3600], account: [5, 3600] },
  restore: { ip: [10, 3600], account: [3, 3600] },
  reset: { ip: [10, 3600], account: [5, 3600] },
  feedback: { ip: [5, 3600], account: [5, 3600] },
} as const;

export type LimitedAction = keyof typeof RULES;
type Limiter = RateLimiterMemory | RateLimiterRedis;

/**
 * Failed sign-ins (OWASP Authentication Cheat Sheet), counted per address, per address and
 * account, and per account for the browsers it does not know, or per device cookie for those it
 * does (OWASP "Slow down online guessing attacks with device cookies", ADR 0055). Past its free
 * failures, each further failure makes the address, the pair, the account's unknown browsers or
 * the device wait twice as long as the one before (2 s, 4 s, 8 s … up to 15 minutes) before they
 * may try again. A guesser spread over many addresses is so slowed by the account's count, while
 * the owner's browser, known by its device cookie, signs in at once; a device cookie whose own
 * failures made it wait is locked out for that wait. A success clears the pair; the counts are
 * forgotten a window after the first failure.
 */
const LOGIN_FAILURES = {
  address: { free: 20, windowSeconds: 3600 },
  pair: { free: 5, windowSeconds: 24 * 3600 },
  account: { free: 10, windowSeconds: 3600 },
  device: { free: 10, windowSeconds: 3600 },
  longestWaitSeconds: 900,
} as const;

type LoginScope = Exclude<keyof typeof LOGIN_FAILURES, 'longestWaitSeconds'>;

/** The wait after the `failures`th failure when `free` of them cost nothing. */
export const loginWaitSeconds = (failures: number, free: number) =>
  failures <= free ? 0 : Math.min(2 ** (failures - free), LOGIN_FAILURES.longestWaitSeconds);

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
  const loginThrottle = (scope: LoginScope) => {
    const { free, windowSeconds } = LOGIN_FAILURES[scope];
    return {
      free: free * multiplier,
      // Counts failures; never refuses by itself (its points are out of reach).
      failures: make(`login:${scope}:failures`, [1e9, windowSeconds]),
      // Blocked for the current wait after a failure past the free ones.
      wait: make(`login:${scope}:wait`, [1, LOGIN_FAILURES.longestWaitSeconds]),
    };
  };
  const byAddress = loginThrottle('address');
  const byPair = loginThrottle('pair');
  const byAccount = loginThrottle('account');
  const byDevice = loginThrottle('device');
  type Throttle = typeof byAddress;
  /**
   * Each throttle with its key for this address and account, and the browser: its device cookie
   * (`device`) when it is one the account knows, the account's unknown browsers otherwise.
   */
  const loginKeys = (ip: string, email: string, device: string | undefined): [Throttle, string][] => [
    [byAddress, ip],
    [byPair, `${ip} ${email.toLowerCase()}`],
    device === undefined ? [byAccount, email.toLowerCase()] : [byDevice, device],
  ];
  /** The seconds left of a throttle's wait for `key`, 0 when there is none. */
  const secondsToWait = async (throttle: Throttle, key: string) => {
    // Only `block` writes to it: any entry is a wait still running.
    const waiting = await throttle.wait.get(key);
    return waiting !== null && waiting.msBeforeNext > 0
      ? Math.max(1, Math.ceil(waiting.msBeforeNext / 1000))
      : 0;
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
        if (error instanceof RateLimiterRes)
          throw new TooManyRequests(Math.max(1, Math.ceil(error.msBeforeNext / 1000)));
        throw error;
      }
    },
    /**
     * Before a sign-in is tried: 429 while the address, the address and account, or the browser
     * (the account's unknown browsers, or this device) must wait.
     */
    async checkLogin(ip: string, email: string, device: string | undefined) {
      for (const [throttle, key] of loginKeys(ip, email, device)) {
        const seconds = await secondsToWait(throttle, key);
        if (seconds > 0) throw new TooManyRequests(seconds);
      }
    },
    /** A wrong password: counted for the address, the pair and the browser, and past the free ones, a wait. */
    async loginFailed(ip: string, email: string, device: string | undefined) {
      for (const [throttle, key] of loginKeys(ip, email, device)) {
        const { consumedPoints } = await throttle.failures.consume(key);
        const wait = loginWaitSeconds(consumedPoints, throttle.free);
        if (wait > 0) await throttle.wait.block(key, wait);
      }
    },
    /** A successful sign-in clears the failures of this address and account. */
    async loginSucceeded(ip: string, email: string) {
      const key = `${ip} ${email.toLowerCase()}`;
      await Promise.all([byPair.failures.delete(key), byPair.wait.delete(key)]);
    },
  };
}

export type RateLimits = ReturnType<typeof createRateLimits>;
