/** A segment on disk, as the buffer sees it. */
export interface BufferedSegment {
  /** Absolute path. */
  path: string;
  /** Size in bytes. */
  bytes: number;
  /** Whether it has been uploaded (always true when nothing uploads). */
  uploaded: boolean;
}

/** Limits of the rolling buffer. */
export interface BufferLimits {
  /** Segments to keep. */
  maxSegments: number;
  /** Bytes to keep. */
  maxBytes: number;
  /** Bytes past which segments not yet uploaded go too. */
  hardMaxBytes: number;
}

/** A segment to delete and why. */
export interface Eviction {
  /** The segment. */
  segment: BufferedSegment;
  /** `rotation`: over the count or byte budget and already uploaded; `hard-cap`: over the hard byte cap, uploaded or not. */
  reason: 'rotation' | 'hard-cap';
}

/**
 * Which segments to delete, oldest first. Over `maxSegments` or `maxBytes`, only uploaded
 * segments go (a segment still waiting for upload would be lost for good); past
 * `hardMaxBytes` the oldest go whatever their state, since a full disk loses everything.
 */
export function planEvictions(oldestFirst: readonly BufferedSegment[], limits: BufferLimits): Eviction[] {
  const evictions: Eviction[] = [];
  const kept = [...oldestFirst];
  let bytes = kept.reduce((sum, segment) => sum + segment.bytes, 0);
  const over = () => kept.length > limits.maxSegments || bytes > limits.maxBytes;
  for (let i = 0; i < kept.length && over(); ) {
    const segment = kept[i]!;
    if (!segment.uploaded) {
      i++;
      continue;
    }
    kept.splice(i, 1);
    bytes -= segment.bytes;
    evictions.push({ segment, reason: 'rotation' });
  }
  while (bytes > limits.hardMaxBytes && kept.length > 0) {
    const segment = kept.shift()!;
    bytes -= segment.bytes;
    evictions.push({ segment, reason: 'hard-cap' });
  }
  return evictions;
}
