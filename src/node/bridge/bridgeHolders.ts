/**
 * "Does Pi hold this session?" answered by the bridges first: a Pi whose bridge answers says which
 * session it has open, so it holds this one exactly when it says so, whatever folder it runs in. The
 * process heuristic (src/node/write/piHolders.ts) still covers every Pi without a bridge, minus the
 * ones whose bridge named another session.
 */
import { resolve } from 'node:path';
import { detectPiHolders } from '../write/piHolders';
import type { PiHolderCheck } from '../write/piHolderTypes';
import type { LivePi } from './liveBridges';

export interface LiveSessionSource {
	readonly pis: readonly LivePi[];
	forSession(path: string): LivePi | undefined;
}

export function bridgeAwareHolders(live: LiveSessionSource, fallback: PiHolderCheck = detectPiHolders): PiHolderCheck {
	return async (query) => {
		const holder = live.forSession(resolve(query.sessionPath));
		if (holder) {
			const { state } = holder;
			return { checked: true, holders: [{ pid: state.pid, command: `pi ${state.piVersion} (${state.mode})`, why: 'bridge' }] };
		}
		const report = await fallback(query);
		const answered = new Set(live.pis.map((pi) => pi.state.pid));
		const holders = report.holders.filter((candidate) => !answered.has(candidate.pid));
		return report.checked ? { ...report, holders } : report;
	};
}
