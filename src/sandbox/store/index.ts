/** The sandbox store: one interface, in memory or on disk (see `types.ts`). */
export { memoryStore } from './memory.js';
export { openDiskStore, MAX_STORED_ORDERS, STATE_FILE } from './disk.js';
export { StoreBusyError, StoreCorruptError, StoreFullError, type Collection, type SandboxStore } from './types.js';
