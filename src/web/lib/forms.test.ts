import { describe, expect, it } from 'vitest';
import { Invalid, TooManyRequests } from '../../server/errors.ts';
import { actionError } from './forms.ts';

describe('actionError', () => {
  it('answers a 429 with its Retry-After, as the API does', () => {
    const answer = actionError(new TooManyRequests(7), 'en');
    expect(answer.init?.status).toBe(429);
    expect(new Headers(answer.init?.headers).get('retry-after')).toBe('7');
    expect(answer.data.formError).toBe('Too many attempts. Please wait a little and try again.');
  });

  it('sends no Retry-After with other refusals', () => {
    const answer = actionError(new Invalid('wrong-credentials', { email: ['wrong-credentials'] }), 'ru');
    expect(answer.init?.status).toBe(422);
    expect(new Headers(answer.init?.headers).has('retry-after')).toBe(false);
  });
});
