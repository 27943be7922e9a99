/**
 * The offline embedder: feature hashing of stemmed words, word pairs and character
 * n-grams. Needs no download, no network and no native module.
 *
 * @module
 */
export {
  createLocalEmbedder,
  LOCAL_EMBEDDER_MAX_DIMENSIONS,
  LOCAL_EMBEDDER_MIN_DIMENSIONS,
  LOCAL_EMBEDDER_VERSION,
  type LocalEmbedderOptions,
  localEmbeddingOf,
} from './local-embedder.js';
