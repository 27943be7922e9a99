/**
 * Options of one {@link Embedder.embed} call.
 *
 * @group Ports
 */
export interface EmbedOptions {
  /** Aborts the call; the embedder rejects with the signal's reason. */
  signal?: AbortSignal;
}

/**
 * How recall fuses an embedder's vector list with the lexical one (see {@link Embedder.fusion}).
 *
 * @group Ports
 */
export interface EmbedderFusion {
  /** The vector list's weight in reciprocal-rank fusion beside BM25's 1. */
  vectorWeight?: number;
  /** Cosine similarity below which a vector-only candidate is dropped. */
  minVectorSimilarity?: number;
}

/**
 * Turns texts into vectors. memoir's root export ships a local embedder that needs no
 * download; `memoir/openai` ships one for any OpenAI-compatible server.
 *
 * @group Ports
 */
export interface Embedder {
  /** Version of this interface the embedder implements. */
  readonly specificationVersion: 'v1';
  /**
   * Identifies the model and its settings, e.g. `openai:text-embedding-3-small`.
   * A store built with one id refuses another, because their vectors don't compare.
   */
  readonly id: string;
  /** Length of every vector returned. */
  readonly dimensions: number;
  /**
   * Whether the vectors capture meaning (a neural model) rather than shared words and
   * spellings (like the local hashing embedder). Recall trusts the vector list less when
   * false: its default fusion weight is 0.3 instead of 1. Default true.
   */
  readonly semantic?: boolean;
  /**
   * Whether stored memories are embedded after `retain` returns rather than before: for a model
   * much slower than storing (a neural encoder on the CPU). Retain then stores the text at once
   * and a background pass embeds it; recall finds it by its words until its vector is in.
   * Queries are always embedded at once. Default false.
   */
  readonly background?: boolean;
  /**
   * How recall should fuse this embedder's vector list with BM25's, when the model's measured
   * best differs from the defaults for its kind (`semantic`): the list's weight and the
   * similarity below which a memory found by the vector list alone is dropped. A client's own
   * `ranking.vectorWeight` and `ranking.minVectorSimilarity` win over these.
   */
  readonly fusion?: EmbedderFusion;
  /** Largest number of texts per `embed` call; the engine batches above it. Default 256. */
  readonly maxBatchSize?: number;
  /**
   * Embed texts. Resolves to one L2-normalised vector per text, in the same order; a
   * text with nothing to embed (empty or whitespace only) may get the zero vector, which
   * matches nothing. Rejects with a ValidationError when `texts` is not an array of
   * strings, and with a ProviderError when the model or service fails.
   */
  embed(texts: readonly string[], options?: EmbedOptions): Promise<Float32Array[]>;
}
