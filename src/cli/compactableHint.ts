/**
 * The line the command line adds when chains are left for `compact` (a `now` resumed after a
 * killed flush stops at "nothing pending", as the release does, leaving them raw).
 */
import { notices } from '../engine/flush';

export function compactableHint(count: number, sessionFile: string): string {
	return `${notices.compactableChainsText(count)}: run pi-condense compact ${sessionFile}`;
}
