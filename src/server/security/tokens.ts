import { createHash, randomBytes } from 'node:crypto';

/** A random secret for links and cookies, and the hash that is stored in its place. */
export const newSecret = (): string => randomBytes(32).toString('base64url');
export const hashSecret = (secret: string): string => createHash('sha256').update(secret).digest('hex');
