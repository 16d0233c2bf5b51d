import { afterEach, describe, expect, it, vi } from 'vitest';
import { whenIdle } from './idle.ts';

describe('work left for an idle moment (ADR 0090)', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it('asks for an idle callback, at most two seconds away, and cancels it', () => {
    const request = vi.fn((_work: IdleRequestCallback, _options?: IdleRequestOptions) => 7);
    const cancel = vi.fn();
    vi.stubGlobal('requestIdleCallback', request);
    vi.stubGlobal('cancelIdleCallback', cancel);
    const work = vi.fn();
    const stop = whenIdle(work);
    expect(request).toHaveBeenCalledWith(work, { timeout: 2000 });
    expect(work).not.toHaveBeenCalled();
    stop();
    expect(cancel).toHaveBeenCalledWith(7);
  });

  it('runs in a task of its own where there are no idle callbacks, unless cancelled first', () => {
    vi.stubGlobal('requestIdleCallback', undefined);
    vi.useFakeTimers();
    const work = vi.fn();
    whenIdle(work);
    expect(work).not.toHaveBeenCalled();
    vi.runAllTimers();
    expect(work).toHaveBeenCalledTimes(1);
    const cancelled = vi.fn();
    whenIdle(cancelled)();
    vi.runAllTimers();
    expect(cancelled).not.toHaveBeenCalled();
  });
});
