// The store lives in ./store/; this path stays so repositories keep importing '../store.js'.
export * from './store/index.js';
