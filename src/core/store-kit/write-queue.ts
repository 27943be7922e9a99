/**
 * A first-in, first-out queue of writes: one at a time inside this process, each starting once
 * every write queued before it has settled (whether it resolved or rejected).
 *
 * @group Store kit
 */
export class WriteQueue {
  #tail: Promise<void> = Promise.resolve();

  /** Resolves to a release function once every earlier holder has released. */
  acquire(): Promise<() => void> {
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const previous = this.#tail;
    this.#tail = previous.then(() => held);
    return previous.then(() => release);
  }

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
