/**
 * A per-load random nonce for the preview's script tag: 16 bytes from the OS's CSPRNG, base64.
 */
import { randomBytes } from 'node:crypto';

export function createNonce(): string {
	return randomBytes(16).toString('base64');
}
