import { hash, verify } from '@node-rs/argon2';

/**
 * Password hashing with argon2id and the OWASP minimum parameters (19 MiB memory, 2 passes,
 * 1 lane). The encoded hash carries its own parameters, so raising them later keeps old hashes valid.
 */

/** `Algorithm.Argon2id` of @node-rs/argon2; the package declares a const enum, which isolatedModules cannot import. */
const ARGON2ID = 2;

const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

/** True when `password` matches `passwordHash`; false (never an exception) for a malformed hash. */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}
