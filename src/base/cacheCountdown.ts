/**
 * The live countdown of the provider's prompt cache, in words, for the Last sent panel (which ticks it
 * every second) and its tests: "cache warm for 3:12 more", then "cache may have expired" between the
 * likely and the sure end of its lifetime, then "cache expired 1:05 ago". No Node, no DOM.
 */

/** When the cache its last use refreshed likely and surely expires (epoch ms), and whose lifetime that is. */
export interface CacheClock {
	readonly warmUntil: number;
	readonly surelyUntil: number;
	/** e.g. `Anthropic: 5 minutes`. */
	readonly lifetime: string;
}

/** `0:07`, `4:59`, `59:00`, `1:02:03`. */
export function clockDuration(ms: number): string {
	const seconds = Math.max(0, Math.floor(ms / 1000));
	const hours = Math.floor(seconds / 3600);
	const minutes = Math.floor((seconds % 3600) / 60);
	const rest = String(seconds % 60).padStart(2, '0');
	return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${rest}` : `${minutes}:${rest}`;
}

export function cacheCountdownText(clock: CacheClock, now: number): string {
	if (now < clock.warmUntil) {
		return `cache warm for ${clockDuration(clock.warmUntil - now)} more (${clock.lifetime}): pruning now makes the next request write it again`;
	}
	if (now < clock.surelyUntil) {
		return `cache may have expired (${clock.lifetime}; surely gone in ${clockDuration(clock.surelyUntil - now)})`;
	}
	return `cache expired ${clockDuration(now - clock.warmUntil)} ago (${clock.lifetime}): pruning now costs no extra cache write`;
}
