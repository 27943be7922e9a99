import { expect } from 'vitest';

// Assertions about an error belong after the call, not inside a `catch` that never runs when
// nothing is thrown: a test written that way passes exactly when the code under test is broken.

/** What `fn` throws; the calling test fails when it throws nothing. */
export function thrownBy(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  return expect.fail('expected a throw, but nothing was thrown');
}
