import { Mutex } from '../utils/mutex.js';

/**
 * A first-in, first-out queue of writes: one at a time inside this process, each starting once
 * every write queued before it has settled (whether it resolved or rejected). `acquire()` takes
 * the queue by hand, for a write that holds it across several steps.
 *
 * @group Store kit
 */
export class WriteQueue extends Mutex {
  /** Run `work` after every write queued before it; the queue moves on however `work` settles. */
  async run<T>(work: () => T | Promise<T>): Promise<T> {
    const release = await this.acquire();
    try {
      return await work();
    } finally {
      release();
    }
  }

  /** Resolves once every write queued so far has settled. */
  async idle(): Promise<void> {
    const release = await this.acquire();
    release();
  }
}
