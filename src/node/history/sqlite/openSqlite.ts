/**
 * Opens the index's SQLite file with the engine this Node has: `node:sqlite` (Node 22.5+), else
 * SQLite compiled to WebAssembly. Neither is a native module built per Electron version. Both run
 * the same SQLite file format, so a VS Code window on Node 24 and one on Node 20 share one file.
 */
import { nodeSqliteModule, openNodeSqlite } from './nodeSqlite';
import type { SqlDatabase, SqlEngineName } from './sqlDatabase';
import { openWasmSqlite, wasmSqliteModule } from './wasmSqlite';

/** `auto` picks `node:sqlite` when there is one; the others force an engine (tests, the bench). */
export type SqlEngineChoice = 'auto' | SqlEngineName;

export interface OpenSqliteOptions {
	readonly engine: SqlEngineChoice;
	/** The folder holding the WebAssembly chunk (`dist/`). */
	readonly distDir: string;
}

export function openSqlite(path: string, options: OpenSqliteOptions): SqlDatabase {
	const native = options.engine === 'wasm' ? undefined : nodeSqliteModule();
	if (native) {
		return openNodeSqlite(native, path);
	}
	if (options.engine === 'node:sqlite') {
		throw new Error(`node:sqlite is not available in Node ${process.version}`);
	}
	return openWasmSqlite(wasmSqliteModule(options.distDir), path);
}

/** The engine `auto` picks on this Node. */
export function defaultEngine(): SqlEngineName {
	return nodeSqliteModule() ? 'node:sqlite' : 'wasm';
}
