/**
 * Closes a chokidar watcher without leaving its timers behind. chokidar 4's `close()` forgets the
 * timers of its event throttles (5 ms to 1 s, the longest for a folder read again) without clearing
 * them, so a deactivated extension could leave one running for a second. Each throttle chokidar
 * keeps has its own `clear`, which is called first; a chokidar without them is simply closed.
 */
import type { FSWatcher } from 'chokidar';

export function closeWatcher(watcher: FSWatcher): Promise<void> {
	clearThrottles(watcher);
	return watcher.close();
}

function clearThrottles(watcher: FSWatcher): void {
	const throttled: unknown = Reflect.get(watcher, '_throttled');
	if (!(throttled instanceof Map)) {
		return;
	}
	for (const perPath of throttled.values()) {
		if (!(perPath instanceof Map)) {
			continue;
		}
		// `clear` removes its entry from this map: iterate over a copy.
		for (const entry of [...perPath.values()]) {
			const clear: unknown = typeof entry === 'object' && entry !== null ? Reflect.get(entry, 'clear') : undefined;
			if (typeof clear === 'function') {
				Reflect.apply(clear, undefined, []);
			}
		}
	}
}
