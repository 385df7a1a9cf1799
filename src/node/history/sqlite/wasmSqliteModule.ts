/**
 * Entry point of the SQLite-in-WebAssembly chunk (`dist/sqlite-wasm.js`, with
 * `dist/node-sqlite3-wasm.wasm` beside it): `node-sqlite3-wasm`, SQLite compiled to WebAssembly
 * over Node's file functions. Loaded only where `node:sqlite` is missing (VS Code 1.100's extension
 * host and the command line on Node 20), and only when the index is first opened.
 */
export { Database } from 'node-sqlite3-wasm';
