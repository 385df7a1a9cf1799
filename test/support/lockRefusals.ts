/**
 * The moment code under test is waiting for a lock someone else holds, for the tests of that wait: resolves
 * the first time a proper-lockfile `lock` attempt in this process is refused because the lock is held
 * (ELOCKED). A fixed pause could only hope the code got that far. Each test bundle holds one proper-lockfile
 * module, shared with the code it tests, so wrapping its `lock` sees that code's attempts.
 */
import lockfile from 'proper-lockfile';

export interface LockRefusals {
	/** Resolves at the first attempt refused as held. */
	readonly refused: Promise<void>;
	/** Puts proper-lockfile's own `lock` back. */
	restore(): void;
}

export function watchLockRefusals(): LockRefusals {
	const module = lockfile as { lock: typeof lockfile.lock };
	const attempt = module.lock;
	let seen: () => void = () => undefined;
	const refused = new Promise<void>((resolve) => (seen = resolve));
	module.lock = async (...args: Parameters<typeof attempt>) => {
		try {
			return await attempt(...args);
		} catch (error) {
			if ((error as { code?: unknown }).code === 'ELOCKED') {
				seen();
			}
			throw error;
		}
	};
	return { refused, restore: () => (module.lock = attempt) };
}
