/**
 * One session's costs as history rows (`history.ts`): its requests, its rebuilds and prunes keyed so
 * that a fork's copies are recognised, and the pi-condense settings its entries show. Pure.
 */
import { isPlainObject } from '../../base/plainObject';
import { CUSTOM_TYPE_INDEX } from '../condense/types';
import type { SessionEntry, SessionHeader } from '../session/types';
import type { CostEventRow, ObservedSettings, RequestRow, SessionRow } from './history';
import { requestKey } from './history';
import type { CacheRebuild } from './cacheRebuilds';
import type { PruneAccount } from './pruneAccount';
import type { SessionTimeline } from './sessionTimeline';
import type { StoredAccounts } from './indexedHistory';
import type { ContextPruneConfig } from '../config';
import type { ReleaseRules } from '../release';

export interface SessionRowsInputs {
	readonly path: string;
	readonly header: SessionHeader;
	readonly title?: string;
	readonly entries: readonly SessionEntry[];
	readonly timeline: SessionTimeline;
	readonly rebuilds: readonly CacheRebuild[];
	/** Undefined when the prunes were not accounted (then the session has no prune rows). */
	readonly accounts?: readonly PruneAccount[];
}

export function sessionRows(inputs: SessionRowsInputs): { readonly requests: RequestRow[]; readonly session: SessionRow } {
	const { timeline } = inputs;
	const requests = timeline.requests.map((request): RequestRow => ({
		session: inputs.path, entryId: request.entryId, entryTimestamp: request.entryTimestamp, kind: request.kind, provider: request.provider, model: request.model, tokens: request.tokens, cost: request.cost,
	}));
	const rebuilds = inputs.rebuilds.map((rebuild): CostEventRow => {
		const request = requests[rebuild.request] as RequestRow;
		return { key: requestKey(request), at: Date.parse(request.entryTimestamp), usd: { low: rebuild.missedCost, mid: rebuild.missedCost, high: rebuild.missedCost } };
	});
	const prunes = pruneEventsOf(inputs.accounts ?? []);
	const startedAt = Date.parse(inputs.header.timestamp);
	return {
		requests,
		session: {
			session: inputs.path,
			id: inputs.header.id,
			project: inputs.header.cwd,
			startedAt: Number.isFinite(startedAt) ? startedAt : 0,
			...(inputs.header.parentSession === undefined ? {} : { parentSession: inputs.header.parentSession }),
			...(inputs.title === undefined ? {} : { title: inputs.title }),
			rebuilds,
			prunes,
			settings: observedSettings(inputs.entries, timeline),
		},
	};
}

/** Each prune that reached a request, as a history event: its first entry's id and time, its net effect. */
function pruneEventsOf(accounts: readonly PruneAccount[]): CostEventRow[] {
	return accounts.filter((account) => account.firstRequest !== undefined).map((account): CostEventRow => ({
		key: `${account.prune.entryId}\u0000${account.prune.at}`, at: account.prune.at, usd: account.net,
	}));
}

/**
 * A session's prune accounts as the session index keeps them (`costs_accounts`): one shape for the command
 * line (`costs --all`) and VS Code (the Costs panel keeps what it worked out).
 */
export function storedAccountsOf(entries: readonly SessionEntry[], timeline: SessionTimeline, accounts: readonly PruneAccount[]): StoredAccounts {
	return { prunes: pruneEventsOf(accounts), settings: observedSettings(entries, timeline) };
}

/** What a session's prune accounts were worked out with (another release or settings make them due again). */
export function accountsBasis(rules: ReleaseRules, config: ContextPruneConfig): string {
	return `${rules.version} ${JSON.stringify(config)}`;
}

/**
 * What pi-condense's entries show of the settings it ran with: the trigger of most flushes (recorded
 * from 2.7.0), and the batching (`agent-message` batches gather calls of several assistant turns into
 * one summary: an index entry whose records span turns). The chain window leaves no trace.
 */
export function observedSettings(entries: readonly SessionEntry[], timeline: SessionTimeline): ObservedSettings {
	const triggers = new Map<string, number>();
	for (const marker of timeline.markers) {
		if (marker.kind === 'prune' && marker.trigger !== undefined && marker.trigger !== 'rearmed') {
			triggers.set(marker.trigger, (triggers.get(marker.trigger) ?? 0) + 1);
		}
	}
	const trigger = [...triggers].sort((a, b) => b[1] - a[1])[0]?.[0];
	const batching = batchingOf(entries);
	return { ...(trigger === undefined ? {} : { trigger }), ...(batching === undefined ? {} : { batching }) };
}

function batchingOf(entries: readonly SessionEntry[]): ObservedSettings['batching'] {
	let multiCallBatches = 0;
	for (const entry of entries) {
		if (entry.type !== 'custom' || entry.customType !== CUSTOM_TYPE_INDEX || !isPlainObject(entry.data) || entry.data['backfilled'] === true) {
			continue;
		}
		const calls = Array.isArray(entry.data['toolCalls']) ? entry.data['toolCalls'].filter(isPlainObject) : [];
		if (calls.some((call) => typeof call['spillPath'] === 'string')) {
			continue;
		}
		const turns = new Set(calls.map((call) => call['turnIndex']));
		if (turns.size > 1) {
			return 'agent-message';
		}
		multiCallBatches += calls.length > 1 ? 1 : 0;
	}
	return multiCallBatches > 0 ? 'turn' : undefined;
}
