// memoir's own path for bulk changes (restore, import, clear), on the testing entry so a
// store's tests — the shipped contract among them — drive exactly what the client does.
export {
  type AtomicChangeOptions,
  type AtomicChangeResult,
  type BulkWriter,
  changeAtomically,
} from '../core/backup/atomic-change.js';
