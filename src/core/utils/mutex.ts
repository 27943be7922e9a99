/**
 * A first-in, first-out lock made of a promise chain: one holder at a time inside this
 * process (stores use it to serialise their writes).
 */
export class Mutex {
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
}
