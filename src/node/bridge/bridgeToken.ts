/**
 * The bridge's secret: 32 random bytes (hex) written only into its 0600 record, and the comparison
 * of what a client sends against it in constant time (both sides are hashed first, so their lengths
 * are equal and nothing about the token leaks through timing).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export function newToken(): string {
	return randomBytes(32).toString('hex');
}

export function tokensEqual(given: string, expected: string): boolean {
	const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();
	return timingSafeEqual(digest(given), digest(expected));
}
