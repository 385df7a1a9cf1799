// The last guard of every test runner (the mocha suites through leakGuard.mjs, the harness scripts through
// lib.mjs): once the tests are done, whatever they opened (a server, a socket, a child process such as a
// browser or code-server, a timer) must be closed. What is still open keeps Node from exiting, so a forgotten
// handle would turn a finished run into a hang; instead the runner names what is open and exits with 1.
// Plain ESM without import.meta, shared by the mocha plugin and the harness.
import { setTimeout as sleep } from 'node:timers/promises';

function countTypes(types) {
	const counts = new Map();
	for (const type of types) {
		counts.set(type, (counts.get(type) ?? 0) + 1);
	}
	return counts;
}

/** What is open now (resource types keeping the event loop alive), to compare with later. */
export function openNow() {
	// Touching the standard streams opens them now rather than in the middle of the run.
	void process.stdout;
	void process.stderr;
	return { types: countTypes(process.getActiveResourcesInfo()), handles: new Set(process._getActiveHandles()) };
}

/** Resource types open now beyond `baseline`, e.g. `['TCPServerWrap', 'ProcessWrap']`. */
function typesOpenedSince(baseline) {
	const added = [];
	for (const [type, count] of countTypes(process.getActiveResourcesInfo())) {
		for (let extra = count - (baseline.types.get(type) ?? 0); extra > 0; extra--) {
			added.push(type);
		}
	}
	return added;
}

/** A line about one handle that was not open at `baseline`: what it is and what it is connected to. */
function describeHandle(handle) {
	if (typeof handle.pid === 'number' && Array.isArray(handle.spawnargs)) {
		return `child process ${handle.pid}: ${handle.spawnargs.join(' ').slice(0, 200)}`;
	}
	if (typeof handle.listening === 'boolean' && typeof handle.address === 'function') {
		const address = handle.address();
		return `server listening on ${typeof address === 'string' ? address : `${address?.address}:${address?.port}`}`;
	}
	if (handle.remoteAddress) {
		return `socket to ${handle.remoteAddress}:${handle.remotePort}`;
	}
	return `${handle.constructor?.name ?? 'handle'}${handle._type ? ` (${handle._type})` : ''}`;
}

/** Kills the child processes started since `baseline` that are still running, so none outlives the run. */
export function killChildrenSince(baseline) {
	for (const handle of process._getActiveHandles()) {
		if (!baseline.handles.has(handle) && typeof handle.pid === 'number' && typeof handle.kill === 'function') {
			handle.kill('SIGKILL');
		}
	}
}

/**
 * Waits up to `graceMs` for everything opened since `baseline` to close (a browser or a server takes a moment
 * to finish closing). Returns undefined when all closed, else a message naming what is still open.
 */
export async function stillOpenAfter(baseline, graceMs = 5000) {
	const deadline = Date.now() + graceMs;
	for (;;) {
		const types = typesOpenedSince(baseline);
		if (types.length === 0) {
			return undefined;
		}
		if (Date.now() >= deadline) {
			const handles = process._getActiveHandles().filter((handle) => !baseline.handles.has(handle)).map(describeHandle);
			return `still open after the tests: ${types.join(', ')}${handles.length > 0 ? `\n  ${handles.join('\n  ')}` : ''}`;
		}
		await sleep(100); // fired before the next look, so this timer is never counted
	}
}
