/**
 * Which pi-condense settings paid back best across the history (`docs/costs.md`). Pure.
 */
import { RangeSum } from './exactSum';
import type { Range } from './pruneAccount';

/** The pi-condense settings a session ran with, as far as anyone knows them. */
export interface ObservedSettings {
	/** What started its flushes: `budget`, `delta`, `message-end`, `manual`. */
	readonly trigger?: string;
	readonly batching?: 'turn' | 'agent-message';
	readonly chainWindow?: number;
}

/** What the comparison reads of a session of the history (`SessionRow`). */
export interface SettingsSession {
	readonly settings?: ObservedSettings;
	readonly prunes: readonly { readonly usd: Range }[];
}

export type SettingName = keyof ObservedSettings;

export interface SettingsComparison {
	readonly setting: SettingName;
	readonly groups: readonly { readonly value: string; readonly sessions: number; readonly prunes: number; readonly netPerPrune: Range; readonly net: Range }[];
	readonly verdict:
		| { readonly kind: 'best'; readonly value: string }
		| { readonly kind: 'no-clear-difference' }
		| { readonly kind: 'too-little-data'; readonly reason: string };
}

/** Sessions a value needs (each with at least one prune) before it is compared. */
export const MIN_SESSIONS_PER_SETTING = 3;

/**
 * Which value of each setting paid back best in this history: sessions grouped by the value they ran
 * with, each group's net effect per prune compared. A value wins only when its whole range lies above
 * every other value's range; too few sessions, or a single value, is said as such.
 */
export function compareSettings(sessions: readonly SettingsSession[]): SettingsComparison[] {
	const names: readonly SettingName[] = ['trigger', 'batching', 'chainWindow'];
	return names.map((setting) => {
		const byValue = new Map<string, { sessions: number; net: RangeSum }>();
		for (const session of sessions) {
			const value = session.settings?.[setting];
			if (value === undefined || session.prunes.length === 0) {
				continue;
			}
			let group = byValue.get(String(value));
			if (group === undefined) {
				group = { sessions: 0, net: new RangeSum() };
				byValue.set(String(value), group);
			}
			group.sessions++;
			for (const prune of session.prunes) {
				group.net.add(prune.usd);
			}
		}
		const groups = [...byValue].map(([value, group]) => {
			const net = group.net.range();
			const prunes = group.net.count;
			return { value, sessions: group.sessions, prunes, net, netPerPrune: { low: net.low / prunes, mid: net.mid / prunes, high: net.high / prunes } };
		}).sort((a, b) => b.netPerPrune.mid - a.netPerPrune.mid);
		return { setting, groups, verdict: settingVerdict(groups) };
	});
}

function settingVerdict(groups: readonly { readonly value: string; readonly sessions: number; readonly netPerPrune: Range }[]): SettingsComparison['verdict'] {
	if (groups.length < 2) {
		return { kind: 'too-little-data', reason: groups.length === 0 ? 'no pruned session says which value it ran with' : `every pruned session ran with ${groups[0]?.value ?? ''}` };
	}
	const thin = groups.filter((group) => group.sessions < MIN_SESSIONS_PER_SETTING);
	if (thin.length > 0) {
		return { kind: 'too-little-data', reason: `fewer than ${MIN_SESSIONS_PER_SETTING} pruned sessions ran with ${thin.map((group) => group.value).join(', ')}` };
	}
	const [best, ...others] = groups as [typeof groups[number], ...typeof groups];
	return others.every((other) => best.netPerPrune.low > other.netPerPrune.high) ? { kind: 'best', value: best.value } : { kind: 'no-clear-difference' };
}
