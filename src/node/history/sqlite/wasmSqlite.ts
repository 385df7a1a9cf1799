/**
 * The history index over SQLite compiled to WebAssembly (`node-sqlite3-wasm`, MIT), where
 * `node:sqlite` is missing. Its file layer locks a database by creating the folder `<db>.lock`
 * for any lock, shared or not, and removes it when the connection lets go; a process killed while
 * holding it leaves it behind. Every use of the index holds our own cross-process lock first
 * (`indexLock.ts`), so a `<db>.lock` found then belongs to no live process and is removed.
 */
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Database as WasmDatabase, Statement as WasmStatement } from 'node-sqlite3-wasm';
import type { SqlDatabase, SqlRow, SqlStatement, SqlValue } from './sqlDatabase';

/** The chunk built from `wasmSqliteModule.ts`, with the `.wasm` it reads beside it. */
export const WASM_CHUNK_FILE = 'sqlite-wasm.js';

interface WasmModule {
	readonly Database: typeof WasmDatabase;
}

const loaded = new Map<string, WasmModule>();

/** Loads the chunk from `distDir` (once per folder: compiling the WebAssembly takes tens of milliseconds). */
export function wasmSqliteModule(distDir: string): WasmModule {
	const chunkPath = join(distDir, WASM_CHUNK_FILE);
	let module = loaded.get(chunkPath);
	if (!module) {
		module = createRequire(chunkPath)(chunkPath) as WasmModule;
		loaded.set(chunkPath, module);
	}
	return module;
}

export function openWasmSqlite(module: WasmModule, path: string): SqlDatabase {
	const lockFolder = `${path}.lock`;
	const db = new module.Database(path);
	const statements = new Map<string, { statement: SqlStatement; prepared: WasmStatement }>();
	return {
		engine: 'wasm',
		exec: (sql) => db.exec(sql),
		prepare: (sql) => {
			let cached = statements.get(sql);
			if (!cached) {
				const prepared = db.prepare(sql);
				const values = (params: readonly SqlValue[] | undefined): SqlValue[] => (params ? [...params] : []);
				cached = {
					prepared,
					statement: {
						run: (params) => void prepared.run(values(params)),
						// Stepped to its end (`all`): a statement left midway (RETURNING) would keep the transaction from committing.
						get: (params) => (prepared.all(values(params))[0] as SqlRow | undefined),
						all: (params) => prepared.all(values(params)) as SqlRow[],
					},
				};
				statements.set(sql, cached);
			}
			return cached.statement;
		},
		beforeUse: () => {
			if (!db.inTransaction) {
				rmSync(lockFolder, { recursive: true, force: true });
			}
		},
		close: () => {
			for (const { prepared } of statements.values()) {
				prepared.finalize();
			}
			statements.clear();
			db.close();
		},
	};
}
