import { ensureCapacity } from './growable.js';
import { bytesOf, part, type SnapshotParts, viewOf } from './snapshot-parts.js';

/**
 * Every slot's vector, normalised and quantised to int8 in one contiguous matrix for the
 * kernel. A slot without a vector (dead, or waiting for its embedding) is a row of zeros
 * and flagged, so it never comes back as a hit.
 */
export class VectorSlab {
  readonly dimensions: number;
  /** int8 per component = round(component / |v| × scale), clamped to ±127. */
  readonly scale: number;
  matrix = new Int8Array(0);
  hasVector = new Uint8Array(0);

  constructor(dimensions: number) {
    this.dimensions = dimensions;
    // Components of a unit vector are about 1/√d; four times that keeps nearly all of them
    // unclamped while spending the int8 range on the values that occur.
    this.scale = 127 / Math.min(1, 4 / Math.sqrt(dimensions));
  }

  /** The first `slotCount` rows as snapshot parts. */
  toParts(parts: SnapshotParts, slotCount: number): void {
    parts.set('vectors.matrix', bytesOf(this.matrix.subarray(0, slotCount * this.dimensions)));
    parts.set('vectors.has', bytesOf(this.hasVector.subarray(0, slotCount)));
  }

  /** A slab restored from {@link VectorSlab.toParts}. */
  static fromParts(parts: SnapshotParts, dimensions: number, slotCount: number): VectorSlab {
    const slab = new VectorSlab(dimensions);
    slab.matrix = viewOf(part(parts, 'vectors.matrix'), Int8Array);
    slab.hasVector = viewOf(part(parts, 'vectors.has'), Uint8Array);
    if (slab.matrix.length !== slotCount * dimensions || slab.hasVector.length !== slotCount) {
      throw new Error('search index snapshot vectors disagree');
    }
    return slab;
  }

  /** Make room for `slots` rows at once. */
  reserve(slots: number): void {
    this.matrix = ensureCapacity(this.matrix, slots * this.dimensions, Int8Array);
    this.hasVector = ensureCapacity(this.hasVector, slots, Uint8Array);
  }

  /** Set `slot`'s vector (or clear it with null). */
  set(slot: number, vector: Float32Array | null): void {
    const d = this.dimensions;
    if ((slot + 1) * d > this.matrix.length || slot >= this.hasVector.length) {
      this.reserve(Math.max(slot + 1, (this.hasVector.length || 8) * 2));
    }
    if (vector === null || vector.length !== d) {
      this.clear(slot);
      return;
    }
    this.hasVector[slot] = this.quantiseInto(vector, this.matrix, slot * d) ? 1 : 0;
  }

  /** Zero `slot`'s row. */
  clear(slot: number): void {
    if (slot * this.dimensions >= this.matrix.length) return;
    this.matrix.fill(0, slot * this.dimensions, (slot + 1) * this.dimensions);
    this.hasVector[slot] = 0;
  }

  /** `vector` normalised and quantised; null when it is all zeros or not finite. */
  quantise(vector: Float32Array): Int8Array | null {
    const out = new Int8Array(vector.length);
    return this.quantiseInto(vector, out, 0) ? out : null;
  }

  // Writes zeros and answers false for a vector with no direction.
  quantiseInto(vector: Float32Array, out: Int8Array, offset: number): boolean {
    let norm = 0;
    for (let i = 0; i < vector.length; i++) norm += vector[i]! * vector[i]!;
    norm = Math.sqrt(norm);
    if (!(norm > 0) || !Number.isFinite(norm)) {
      out.fill(0, offset, offset + vector.length);
      return false;
    }
    const factor = this.scale / norm;
    for (let i = 0; i < vector.length; i++) {
      const value = Math.round(vector[i]! * factor);
      out[offset + i] = Math.max(-127, Math.min(127, value));
    }
    return true;
  }
}
