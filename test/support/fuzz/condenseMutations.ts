/**
 * Mutations aimed at pi-condense's own entries: missing or wrong-typed payload fields, refs and
 * aliases that point nowhere, chains whose timestamps match nothing, and hand-made bad entries
 * inserted into files that have none.
 */
import type { Random } from '../random';
import { allPaths, deleteAt, randomHexId, setAt, wrongValue, type Json } from './jsonPaths';

const CONDENSE_TYPE = /^context-prune-/;

function asEntry(line: string | undefined): Json | undefined {
	try {
		const value = JSON.parse((line ?? '').replace(/\r$/, '')) as unknown;
		return typeof value === 'object' && value !== null && !Array.isArray(value) ? value as Json : undefined;
	} catch {
		return undefined;
	}
}

function toolCallIds(lines: readonly string[]): string[] {
	const ids = new Set<string>();
	for (const line of lines) {
		for (const match of line.matchAll(/"(?:toolCallId|id)":"(call[^"]{0,60}|toolu_[^"]{0,60})"/g)) {
			ids.add(match[1] as string);
		}
		if (ids.size > 200) {
			break;
		}
	}
	return [...ids];
}

export function mutateCondensePayload(lines: string[], random: Random): string {
	const targets = lines.flatMap((line, i) => {
		const entry = asEntry(line);
		return entry !== undefined && typeof entry['customType'] === 'string' && CONDENSE_TYPE.test(entry['customType']) ? [i] : [];
	});
	if (targets.length === 0 || random.chance(0.25)) {
		return insertBadEntry(lines, random);
	}
	const at = random.pick(targets);
	const entry = asEntry(lines[at]) as Json;
	const payloadKey = entry['type'] === 'custom_message' ? 'details' : 'data';
	const what = editPayload(entry, payloadKey, random, toolCallIds(lines));
	lines[at] = JSON.stringify(entry);
	return `condensePayload(line ${at + 1} ${String(entry['customType'])}: ${what})`;
}

function editPayload(entry: Json, key: string, random: Random, callIds: readonly string[]): string {
	const kind = random.int(0, 6);
	const paths = allPaths(entry[key]).filter((p) => p.path.length > 0).map((p) => ({ ...p, path: [key, ...p.path] }));
	const someCall = (): string => (callIds.length > 0 && random.chance(0.5) ? random.pick(callIds) : `call_${randomHexId(random)}`);
	switch (kind) {
		case 0: {
			if (paths.length === 0) {
				entry[key] = wrongValue(entry[key], random);
				return `${key} replaced`;
			}
			const target = random.pick(paths);
			setAt(entry, target.path, wrongValue(target.value, random));
			return `wrong type at ${target.path.join('.')}`;
		}
		case 1: {
			if (paths.length === 0) {
				delete entry[key];
				return `${key} removed`;
			}
			const target = random.pick(paths);
			deleteAt(entry, target.path);
			return `missing ${target.path.join('.')}`;
		}
		case 2: {
			const idPaths = paths.filter((p) => typeof p.value === 'string' && /toolCallId|ToolCallId|toolCallIds/.test(p.path.join('.')));
			for (const target of idPaths) {
				if (random.chance(0.5)) {
					setAt(entry, target.path, someCall());
				}
			}
			return `tool-call ids repointed (${idPaths.length} candidates)`;
		}
		case 3: {
			const refPaths = paths.filter((p) => typeof p.value === 'string' && /shortId|toolRefs|blockId/.test(p.path.join('.')));
			for (const target of refPaths) {
				setAt(entry, target.path, random.pick(['t999', 't0', 'tx', '', 'b0', 't-1', 't1e3', `t${random.int(1, 12)}`]));
			}
			return `refs repointed (${refPaths.length})`;
		}
		case 4: {
			const numbers = paths.filter((p) => typeof p.value === 'number');
			for (const target of numbers) {
				if (random.chance(0.6)) {
					setAt(entry, target.path, random.pick([0, -1, 1, 1e15, Date.now(), random.int(1, 2 ** 40), 2 ** 53 + 2]));
				}
			}
			return `numbers (timestamps, turns) changed (${numbers.length})`;
		}
		case 5:
			entry[key] = wrongValue(entry[key], random);
			return `${key} of the wrong type`;
		default:
			entry['customType'] = random.pick(['context-prune-index', 'context-prune-summary', 'context-prune-chain', 'context-prune-dedup-alias', 'context-prune-frontier', 'context-prune-stats']);
			return `customType now ${String(entry['customType'])}`;
	}
}

function insertBadEntry(lines: string[], random: Random): string {
	const callIds = toolCallIds(lines);
	const call = (): string => (callIds.length > 0 && random.chance(0.7) ? random.pick(callIds) : `call_${randomHexId(random)}`);
	const parentId = lastId(lines);
	const base = { id: randomHexId(random), parentId, timestamp: new Date(random.int(0, 2 ** 41)).toISOString() };
	const record = (): Json => ({
		toolCallId: call(), toolName: random.pick(['bash', 'read', 'edit', 7]), args: random.pick([{ path: 'a' }, [], null]),
		resultText: random.pick(['out', '', 5]), isError: random.pick([false, 'no']), turnIndex: random.pick([0, 3, -2, 'x']),
		timestamp: random.int(0, 2 ** 41),
		...(random.chance(0.3) ? { spillPath: random.pick(['../../etc/passwd', '/tmp/x-blobs/a.txt', 'a/../../b.txt']), spillBytes: random.int(0, 1e6), resultPreview: 'head' } : {}),
	});
	const kinds: readonly (() => Json)[] = [
		() => ({ type: 'custom', customType: 'context-prune-index', data: random.pick([{ toolCalls: [record(), record()] }, { toolCalls: {} }, { toolCalls: [null, 3] }, {}]), ...base }),
		() => ({
			type: 'custom_message', customType: 'context-prune-summary', content: random.pick(['summary of things', [{ type: 'text', text: 's' }], 9]), display: true,
			details: { toolCallRefs: [{ shortId: `t${random.int(1, 20)}`, toolCallId: call() }, { shortId: 't1', toolCallId: call() }], toolNames: ['bash'], turnIndex: random.int(-1, 30), timestamp: random.int(0, 2 ** 41) },
			...base,
		}),
		() => ({
			type: 'custom', customType: 'context-prune-chain',
			data: { blockId: `b${random.int(0, 9)}`, startUserTimestamp: random.int(0, 2 ** 41), droppedToolCallIds: [call(), call()], finalAssistantTimestamp: random.pick([null, random.int(0, 2 ** 41)]), toolRefs: ['t1', 't99'], compressedAt: 0, ...(random.chance(0.5) ? { rangeSummaryText: 'range' } : {}) },
			...base,
		}),
		() => ({ type: 'custom', customType: 'context-prune-dedup-alias', data: { newToolCallId: call(), originalToolCallId: call() }, ...base }),
		() => ({ type: 'custom', customType: 'context-prune-frontier', data: { lastAttemptedToolCallId: call(), lastAttemptedTurnIndex: random.pick([2, 'x', -5]), outcome: random.pick(['summarized', 'nonsense']) }, ...base }),
		() => ({ type: 'custom', customType: 'context-prune-stats', data: { totalInputTokens: random.pick([1, -5, 'many']), totalCost: random.pick([0.5, null]), callCount: 1e20 }, ...base }),
	];
	const kind = random.int(0, kinds.length - 1);
	const entry = (kinds[kind] as () => Json)();
	const at = random.chance(0.7) ? lines.length - (lines.at(-1) === '' ? 1 : 0) : random.int(1, Math.max(1, lines.length - 1));
	lines.splice(at, 0, JSON.stringify(entry));
	return `condensePayload(insert ${String(entry['customType'])} at ${at + 1})`;
}

function lastId(lines: readonly string[]): string | null {
	for (let i = lines.length - 1; i > 0; i--) {
		const id = asEntry(lines[i])?.['id'];
		if (typeof id === 'string') {
			return id;
		}
	}
	return null;
}
