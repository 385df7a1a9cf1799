/**
 * Runs Pi 0.73.1's own session code (ESM-only, loaded at run time) on a text, for parity checks.
 * Pi may rewrite the file it opens (migration, or truncation of a file without a valid header), so
 * it always works on a private temporary copy.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type PiModule = typeof import('@mariozechner/pi-coding-agent');
type Manager = import('@mariozechner/pi-coding-agent').SessionManager;

let loaded: Promise<PiModule> | undefined;

export function loadPi(): Promise<PiModule> {
	loaded ??= import('@mariozechner/pi-coding-agent');
	return loaded;
}

export interface PiReading {
	readonly context: ReturnType<Manager['buildSessionContext']>;
	readonly entries: ReturnType<Manager['getEntries']>;
	readonly branch: ReturnType<Manager['getBranch']>;
	readonly leafId: string | null;
	readonly name: string | undefined;
	readonly tree: ReturnType<Manager['getTree']>;
	readonly labelOf: (id: string) => string | undefined;
	readonly convertToLlm: PiModule['convertToLlm'];
}

/** Opens `text` as a session file with Pi's `SessionManager` and reads everything we compare. */
export async function readWithPi(text: string): Promise<PiReading> {
	const pi = await loadPi();
	const dir = mkdtempSync(join(tmpdir(), 'pi-parity-'));
	try {
		const file = join(dir, 'session.jsonl');
		writeFileSync(file, text);
		const manager = pi.SessionManager.open(file, dir);
		return {
			context: manager.buildSessionContext(),
			entries: manager.getEntries(),
			branch: manager.getBranch(),
			leafId: manager.getLeafId(),
			name: manager.getSessionName(),
			tree: manager.getTree(),
			labelOf: (id) => manager.getLabel(id),
			convertToLlm: pi.convertToLlm,
		};
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}
