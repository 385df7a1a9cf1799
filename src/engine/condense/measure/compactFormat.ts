/**
 * Number formats of pi-condense's status line and `/pruner stats`. Pure.
 */

/** `340`, `1.2k`, `92.0k`, `1.2M`: one decimal from a thousand up. */
export function formatCompactCount(n: number): string {
	if (n >= 1_000_000) {
		return `${(n / 1_000_000).toFixed(1)}M`;
	}
	if (n >= 1_000) {
		return `${(n / 1_000).toFixed(1)}k`;
	}
	return String(n);
}

/** `$0.003`, and `<$0.001` for a positive cost below a tenth of a cent. */
export function formatCost(usd: number): string {
	if (usd > 0 && usd < 0.001) {
		return '<$0.001';
	}
	return `$${usd.toFixed(3)}`;
}

/** pi-condense's token estimate: characters / 4, rounded. */
export function charsToTokens(chars: number): number {
	return Math.round(chars / 4);
}
