/**
 * Number formats of pi-condense's status line and `/pruner stats`. Pure. The token count format is
 * shared with the preview page, so it lives in src/shared.
 */
export { formatCompactCount } from '../../../base/numberFormat';

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
