/**
 * Pi's own lock on `<agentDir>/auth.json`, as Pi 1.6.0's AuthStorage takes it: proper-lockfile on the
 * file's resolved path (so a symlinked auth.json shares one lock), stale after 30 s, retried with
 * backoff for up to 30 s while another process (Pi refreshing a login, `/login`) holds it. Holding
 * it, Pi and Pi Condense never write the file at the same time.
 */
import { errorCode } from '../fs/errors';

const LOCK_STALE_MS = 30_000;
const LOCK_WAIT_MS = 30_000;

export interface AuthFileLock {
	/** Set when proper-lockfile reports the lock lost (e.g. its folder was removed): write nothing then. */
	readonly compromised: () => Error | undefined;
}

/** Runs `work` under the lock; the file must exist (the lock resolves its path). */
export async function withAuthFileLock<T>(path: string, work: (lock: AuthFileLock) => Promise<T>): Promise<T> {
	const deadline = Date.now() + LOCK_WAIT_MS;
	let lost: Error | undefined;
	let release: (() => Promise<void>) | undefined;
	// Loaded here, not with the module: it installs process signal handlers when loaded, and a write is rare.
	const { default: lockfile } = await import('proper-lockfile');
	for (let attempt = 0; release === undefined; attempt++) {
		try {
			release = await lockfile.lock(path, { retries: 0, stale: LOCK_STALE_MS, onCompromised: (error) => { lost = error; } });
		} catch (error) {
			if (errorCode(error) !== 'ELOCKED' || Date.now() >= deadline) {
				throw error;
			}
			await new Promise((resolve) => setTimeout(resolve, Math.min(10 * 2 ** attempt, 1000)));
		}
	}
	try {
		const result = await work({ compromised: () => lost });
		if (lost) {
			throw lost;
		}
		return result;
	} finally {
		await release().catch(() => undefined);
	}
}
