// Changes one entry of an auth.json with Pi 1.6.0's own AuthStorage (`@earendil-works/pi-coding-agent`, a dev
// dependency), under Pi's own lock, for the tests that check Pi Condense takes the same lock. Run by
// `test/support/pi16Auth.ts` on a Node Pi 1.x accepts (>= 22.19).
//
// argv: <auth.json> <provider> <key> <hold|now>
//   hold  inside Pi's modify (the lock held, the file read): prints "locked", waits for a line on stdin, then
//         returns the new entry, which Pi merges into what it read and writes
//   now   prints "started", then modifies at once (waiting for the lock like Pi does), and prints "waiting" the
//         first time Pi finds the lock held (proper-lockfile refuses with ELOCKED)
// stdout: the line above, then "done" once Pi has written the file.
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const piRoot = dirname(dirname(fileURLToPath(import.meta.resolve('@earendil-works/pi-coding-agent'))));
const authStorageFile = join(piRoot, 'dist', 'core', 'auth-storage.js');
// Pi takes its lock one attempt at a time (proper-lockfile with no retries of its own) and waits between
// attempts: the first refused attempt is the moment it waits for another holder.
const lockfile = createRequire(authStorageFile)('proper-lockfile');
const attempt = lockfile.lock;
let saidWaiting = false;
lockfile.lock = async (...args) => {
	try {
		return await attempt(...args);
	} catch (error) {
		if (error?.code === 'ELOCKED' && !saidWaiting) {
			saidWaiting = true;
			process.stdout.write('waiting\n');
		}
		throw error;
	}
};
// Not exported by the package: loaded from its file, as Pi itself loads it.
const { AuthStorage } = await import(pathToFileURL(authStorageFile).href);
const [authPath, provider, key, how] = process.argv.slice(2);
const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();

const storage = AuthStorage.create(authPath);
if (how === 'now') {
	process.stdout.write('started\n');
}
await storage.modify(provider, async () => {
	if (how === 'hold') {
		process.stdout.write('locked\n');
		await lines.next();
	}
	return { type: 'api_key', key };
});
process.stdout.write('done\n');
process.exit(0);
