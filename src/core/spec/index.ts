export * from './embedder.js';
export * from './errors.js';
export * from './language-model.js';
export * from './memory.js';
export * from './records.js';
export * from './runtime.js';
export * from './store.js';
export * from './video-provider.js';
