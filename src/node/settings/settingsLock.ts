/**
 * Pi's own lock on settings.json: `proper-lockfile` with `realpath: false` (a `settings.json.lock`
 * folder next to the file), as Pi 0.73.1's settings-manager takes it around every write. Holding
 * it means Pi and pi-condense's writers that use it cannot interleave with ours.
 */
import lockfile from 'proper-lockfile';
import { errorCode } from '../fs/errors';
import { errorMessage } from '../../base/errorMessage';

export class SettingsLockError extends Error {
	constructor(readonly path: string, readonly code: string | undefined, message: string) {
		super(message);
		this.name = 'SettingsLockError';
	}
}

export interface HeldLock {
	/** Set when proper-lockfile reports the lock lost (e.g. its folder was removed). */
	readonly compromised: () => Error | undefined;
	release(): Promise<void>;
}

/** Takes the lock, retrying for about two seconds while someone else holds it. */
export async function lockSettingsFile(path: string): Promise<HeldLock> {
	let lost: Error | undefined;
	let release: () => Promise<void>;
	try {
		release = await lockfile.lock(path, {
			realpath: false,
			retries: { retries: 12, factor: 1.5, minTimeout: 20, maxTimeout: 400 },
			// The default handler throws from a timer, which would crash the extension host.
			onCompromised: (error) => {
				lost = error;
			},
		});
	} catch (error) {
		const code = errorCode(error);
		const message = code === 'ELOCKED'
			? `${path} is locked by another program (Pi saving its settings?). Try again in a moment.`
			: `Could not lock ${path}: ${errorMessage(error)}`;
		throw new SettingsLockError(path, code, message);
	}
	return {
		compromised: () => lost,
		release: async () => {
			try {
				await release();
			} catch (error) {
				// Already released because it was compromised: nothing left to undo.
				if (errorCode(error) !== 'ERELEASED' && lost === undefined) {
					throw error;
				}
			}
		},
	};
}
