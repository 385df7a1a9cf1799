/**
 * The history index over `node:sqlite` (Node 22.5+; VS Code 1.101+'s extension host runs Node 22,
 * today's Node 24). Loaded through `process.getBuiltinModule`, so nothing is loaded on a Node
 * without it, and its one-time "experimental" warning is kept off the user's terminal.
 */
import type { SqlDatabase, SqlRow, SqlStatement, SqlValue } from './sqlDatabase';

/** The part of `node:sqlite` used here (our @types/node is Node 20's, which has none). */
interface NodeSqliteModule {
	readonly DatabaseSync: new (path: string, options?: { readonly open?: boolean }) => NodeSqliteDatabase;
}

interface NodeSqliteDatabase {
	exec(sql: string): void;
	prepare(sql: string): NodeSqliteStatement;
	close(): void;
}

interface NodeSqliteStatement {
	run(...params: SqlValue[]): unknown;
	get(...params: SqlValue[]): SqlRow | undefined;
	all(...params: SqlValue[]): SqlRow[];
}

let loaded: NodeSqliteModule | null | undefined;

/** `node:sqlite`, or undefined when this Node has none. */
export function nodeSqliteModule(): NodeSqliteModule | undefined {
	if (loaded === undefined) {
		// getBuiltinModule: Node 20.16+ and 22.3+; undefined for a module this Node does not have.
		loaded = typeof process.getBuiltinModule === 'function' ? quietly(() => process.getBuiltinModule('node:sqlite') as NodeSqliteModule | undefined) ?? null : null;
	}
	return loaded ?? undefined;
}

export function openNodeSqlite(module: NodeSqliteModule, path: string): SqlDatabase {
	const db = new module.DatabaseSync(path);
	const statements = new Map<string, SqlStatement>();
	return {
		engine: 'node:sqlite',
		exec: (sql) => db.exec(sql),
		prepare: (sql) => {
			let statement = statements.get(sql);
			if (!statement) {
				const prepared = db.prepare(sql);
				statement = {
					run: (params = []) => void prepared.run(...params),
					get: (params = []) => prepared.get(...params),
					all: (params = []) => prepared.all(...params),
				};
				statements.set(sql, statement);
			}
			return statement;
		},
		beforeUse: () => undefined,
		close: () => {
			statements.clear();
			db.close();
		},
	};
}

/** Runs `load` with Node's ExperimentalWarning for SQLite (Node 22) not printed; every other warning passes. */
function quietly<T>(load: () => T): T | undefined {
	const original = Object.getOwnPropertyDescriptor(process, 'emitWarning');
	const passOn = process.emitWarning.bind(process);
	process.emitWarning = ((warning: string | Error, ...rest: []): void => {
		const text = typeof warning === 'string' ? warning : warning.message;
		if (!/SQLite is an experimental feature/.test(text)) {
			passOn(warning, ...rest);
		}
	});
	try {
		return load();
	} catch {
		return undefined;
	} finally {
		if (original) {
			Object.defineProperty(process, 'emitWarning', original);
		}
	}
}
