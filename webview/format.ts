/**
 * Number formats of the page: token counts as pi-condense's status line writes them (`340`,
 * `1.2k`, `92.0k`, `1.2M`, shared with the host), dollars, sizes and ages.
 */
import { formatBytes, formatCompactCount } from '../src/shared/numberFormat';

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
	return `$${price}/M`;
}

/** `3 min ago`, `2 h ago`, from epoch ms. */
export function age(fromMs: number, nowMs: number): string {
	const minutes = Math.max(0, Math.round((nowMs - fromMs) / 60_000));
	if (minutes < 1) {
		return 'less than a minute ago';
	}
	if (minutes < 120) {
		return `${minutes} min ago`;
	}
	const hours = Math.round(minutes / 60);
	return hours < 48 ? `${hours} h ago` : `${Math.round(hours / 24)} days ago`;
}
