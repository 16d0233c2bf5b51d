/**
 * Typed domain errors. Services throw them; one Fastify error handler turns them into the spec's
 * `{ success: false, errors, message }` shape with the matching HTTP status.
 */
export type FieldErrors = Record<string, string[]>;

export abstract class DomainError extends Error {
  abstract readonly status: number;
  constructor(
    message: string,
    readonly errors: FieldErrors = {},
    /** A translation key the client may show instead of the message (the spec's intlError). */
    readonly intlError?: string,
    /** Extra fields of the answer, such as the spec's `unavailable` list on order creation. */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class NotFound extends DomainError {
  readonly status = 404;
}
export class Invalid extends DomainError {
  readonly status = 422;
}
export class Unauthorized extends DomainError {
  readonly status = 401;
}
export class Forbidden extends DomainError {
  readonly status = 403;
}
export class Conflict extends DomainError {
  readonly status = 409;
}
export class Unavailable extends DomainError {
  readonly status = 503;
}
export class TooManyRequests extends DomainError {
  readonly status = 429;
  constructor(readonly retryAfterSeconds: number) {
    super('too-many-requests', { request: ['too-many-requests'] });
  }
}
