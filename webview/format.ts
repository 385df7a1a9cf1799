/**
 * Number formats of the page: token counts as pi-condense's status line writes them (`340`,
 * `1.2k`, `92.0k`, `1.2M`, shared with the host), dollars and sizes.
 */
import { formatBytes, formatCompactCount } from '../src/base/numberFormat';

export const tokens = formatCompactCount;
export const bytes = formatBytes;

export function usd(value: number | undefined): string {
	if (value === undefined) {
		return '—';
	}
	const sign = value < 0 ? '−' : '';
	const abs = Math.abs(value);
	if (abs > 0 && abs < 0.0001) {
		return `${sign}<$0.0001`;
	}
	return `${sign}$${abs < 1 ? abs.toFixed(4) : abs.toFixed(2)}`;
}

export function chars(n: number): string {
	return n >= 1000 ? `${tokens(n)} chars` : `${n} chars`;
}

export function perMillion(price: number): string {
	// Prices derived from a recorded cost are long fractions: four significant digits say them.
	return `$${Number(price.toPrecision(4))}/M`;
}
