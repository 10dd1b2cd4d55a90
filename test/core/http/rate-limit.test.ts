import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RateLimiter } from '../../../core/http/rate-limit.js';

describe('RateLimiter', () => {
  it('allows max requests per key in a window, then refuses until the window ends', () => {
    const limiter = new RateLimiter(2, 1000);
    assert.deepEqual(limiter.hit('a', 0), { allowed: true, limit: 2, remaining: 1, resetMs: 1000 });
    assert.equal(limiter.hit('a', 100).allowed, true);
    assert.deepEqual(limiter.hit('a', 400), { allowed: false, limit: 2, remaining: 0, resetMs: 600 });
    // Another key has its own count.
    assert.equal(limiter.hit('b', 400).allowed, true);
    // A new window starts with the first request after the old one ended.
    assert.deepEqual(limiter.hit('a', 1000), { allowed: true, limit: 2, remaining: 1, resetMs: 1000 });
  });

  it('remembers at most 10,000 keys: a flood of new addresses forgets the oldest, not the current ones', () => {
    const limiter = new RateLimiter(1, 60_000);
    limiter.hit('first', 0);
    for (let i = 0; i < 10_000; i++) limiter.hit(`flood-${i}`, 1);
    // "first" was forgotten to make room, so it may call again; the latest flood key may not.
    assert.equal(limiter.hit('first', 2).allowed, true);
    assert.equal(limiter.hit('flood-9999', 2).allowed, false);
  });
});
