/**
 * Number formats used on both sides of the preview (host, engine, CLI and page): token counts as
 * pi-condense's status line writes them, and file sizes. No Node, no DOM.
 */

/** `340`, `1.2k`, `92.0k`, `1.2M`: one decimal from a thousand up (pi-condense's footer and stats). */
export function formatCompactCount(n: number): string {
	if (n >= 1_000_000) {
		return `${(n / 1_000_000).toFixed(1)}M`;
	}
	if (n >= 1_000) {
		return `${(n / 1_000).toFixed(1)}k`;
	}
	return String(n);
}

/** `512 B`, `3.4 KB`, `12.0 MB`. */
export function formatBytes(bytes: number): string {
	if (bytes < 1024) {
		return `${bytes} B`;
	}
	if (bytes < 1024 * 1024) {
		return `${(bytes / 1024).toFixed(1)} KB`;
	}
	return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
