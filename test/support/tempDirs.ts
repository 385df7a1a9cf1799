/**
 * Real temporary folders for tests that touch the file system, removed after each test.
 */
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Registers mocha hooks and returns a getter for a fresh folder per test. The path is resolved
 * (no symlinks), so it compares equal to paths that file watchers report.
 */
export function useTempDir(prefix: string): () => string {
	let dir: string | undefined;
	beforeEach(() => {
		dir = realpathSync(mkdtempSync(join(tmpdir(), `${prefix}-`)));
	});
	afterEach(() => {
		if (dir !== undefined) {
			rmSync(dir, { recursive: true, force: true });
			dir = undefined;
		}
	});
	return () => {
		if (dir === undefined) {
			throw new Error('useTempDir: only available inside a test');
		}
		return dir;
	};
}
