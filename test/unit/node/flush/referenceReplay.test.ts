/**
 * What our `now` appends is what the user's release appended, entry for entry: every flush of the
 * reference sessions written by real Pi + real pi-condense (2.0.0 and 2.9.1) is replayed on a copy
 * of the session cut just before that flush's entries (the reply that triggered it kept last, as
 * the release saw it), through `flushSession`, the real pi-ai client and the fake LLM server
 * answering as the scripted model that wrote the folder did. Our appended entries must be the
 * release's: same types and customTypes in the same order, same payloads, field order included.
 * Only what is random or the clock's may differ: chain `compressedAt`, the flush-metrics `ts`,
 * token and cost totals (the fake server's usage), and blob paths (our temp folder; the file name
 * must be the same). The flush-metrics `trigger` is `manual` for our `now` (the release's was a
 * `message-end` flush). Its `metrics` are compared when no reply triggered the flush: the release
 * measured the branch before that reply, our `now` measures all of it (the metrics themselves are
 * checked against every real snapshot in test/unit/engine/metrics).
 *
 * The scripted model of the Pi 0.78–0.83 sessions summarized by a rule the oracle follows; that of the
 * Pi 1.6.0 sessions wrote summaries for its scenario, so for those the fake server answers each flush's
 * batches with the summaries that flush wrote, in order.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { flushSession } from '../../../../src/node/flush/flushSession';
import { useFlushEnvironment } from '../../../support/flushEnvironment';
import { promptOf } from '../../../support/fakeLlmServer';
import { HELD_LONGER } from '../../../support/heldLonger';
import { labelledOracleReply } from '../../../support/oracleReplies';
import { piCondenseSessionsDir } from '../../../support/paths';
import { referencePiVersions, referenceReleases } from '../../../support/releases';
import { referenceConfig } from '../../engine/condense/piReference';
import { testWork } from '../../../support/testWork';

type Json = Record<string, unknown>;

interface FlushGroup {
	/** 0-based line of the flush's first entry. */
	readonly start: number;
	/** 0-based line after its last entry. */
	readonly end: number;
}

const isPrunerEntry = (e: Json): boolean => typeof e['customType'] === 'string' && (e['customType']).startsWith('context-prune-');

/** An eager spill's index entry (`turn_end`, before any flush): not part of the flush after it. */
const isEagerSpill = (e: Json): boolean => {
	if (e['customType'] !== 'context-prune-index') {
		return false;
	}
	const data = e['data'] as { toolCalls: Json[]; backfilled?: boolean };
	return data.backfilled !== true && data.toolCalls.every((record) => typeof record['spillPath'] === 'string');
};

function flushGroups(entries: readonly Json[]): FlushGroup[] {
	const groups: FlushGroup[] = [];
	for (let i = 0; i < entries.length;) {
		if (!isPrunerEntry(entries[i] as Json) || isEagerSpill(entries[i] as Json)) {
			i++;
			continue;
		}
		let end = i;
		while (end < entries.length && isPrunerEntry(entries[end] as Json)) {
			end++;
		}
		groups.push({ start: i, end });
		i = end;
	}
	return groups;
}

/** The parts of an entry that must be equal (see the header for what is left out). */
function comparable(e: Json, withMetrics: boolean, heldLonger = false): unknown {
	const customType = e['customType'];
	if (e['type'] === 'custom_message') {
		return { type: e['type'], customType, content: e['content'], display: e['display'], details: e['details'] };
	}
	const data = e['data'] as Json;
	switch (customType) {
		case 'context-prune-chain': {
			const { compressedAt: _clock, ...rest } = data;
			return { customType, data: rest, keys: Object.keys(data) };
		}
		case 'context-prune-frontier': {
			// A batch holding a message real Pi held longer than the file has it: its character counts came from memory.
			const { rawCharCount: _raw, summaryCharCount: _summary, ...rest } = data;
			return heldLonger ? { customType, data: rest, keys: Object.keys(data) } : { type: e['type'], customType, data, keys: Object.keys(data) };
		}
		case 'context-prune-stats':
			return { customType, callCount: data['callCount'], chainsCompressed: data['chainsCompressed'], rangesSummarized: data['rangesSummarized'] };
		case 'context-prune-flush-metrics':
			return { customType, keys: Object.keys(data), capturedBatches: data['capturedBatches'], processedBatches: data['processedBatches'], outcome: data['outcome'], ...(withMetrics ? { metrics: data['metrics'] } : {}) };
		case 'context-prune-index': {
			const records = (data['toolCalls'] as Json[]).map((record) => ({
				...record,
				keys: Object.keys(record).join(','),
				...(typeof record['spillPath'] === 'string' ? { spillPath: (record['spillPath']).split(/[\\/]/).pop() } : {}),
			}));
			return { customType, data: { ...data, toolCalls: records }, keys: Object.keys(data) };
		}
		default:
			return { type: e['type'], customType, data, keys: Object.keys(data) };
	}
}

/** The tool-call id of a tool-result entry. */
function lastToolCallOf(entries: readonly Json[], entryId: string): string {
	const message = entries.find((e) => e['id'] === entryId)?.['message'] as Json | undefined;
	return `"lastAttemptedToolCallId":"${String(message?.['toolCallId'])}"`;
}

/** A summary message's model reply: its content without the refs footer pi-condense appends. */
function replyOf(summary: Json): string {
	const content = summary['content'] as string;
	const footer = content.lastIndexOf('\n\n---\n**Summarized tool refs**');
	return footer < 0 ? content : content.slice(0, footer);
}

describe('our now appends what the user\'s pi-condense release appended (reference sessions, flush by flush)', function () {
	this.timeout(300_000);
	/** Replies recorded in the session for the flush being replayed, answered first, in order. */
	let recorded: string[] = [];
	const env = useFlushEnvironment({ text: (request) => recorded.shift() ?? labelledOracleReply(promptOf(request)) });
	const piVersions = referencePiVersions();

	for (const [folder, rules] of referenceReleases()) {
		it(`${folder} (pi-condense ${rules.version})`, async () => {
			const lines = readFileSync(join(piCondenseSessionsDir, folder, 'session.jsonl'), 'utf8').trimEnd().split('\n');
			const entries = lines.map((line) => JSON.parse(line) as Json);
			const groups = flushGroups(entries);
			assert.ok(groups.length > 0);
			const config = { ...referenceConfig(folder, rules), summarizerModel: env.agent.modelRef };
			for (const [n, group] of groups.entries()) {
				const previous = entries[group.start - 1] as Json;
				const closing = entries[group.end];
				const cut = [...lines.slice(0, group.start)];
				const replyAppended = Boolean(closing && closing['type'] === 'message' && (closing['message'] as Json)['role'] === 'assistant');
				if (closing && closing['type'] === 'message' && (closing['message'] as Json)['role'] === 'assistant') {
					// Pi persists the reply after the flush it triggered; the release saw it as the last message.
					cut.push(JSON.stringify({ ...closing, parentId: previous['id'] }));
				}
				const real = entries.slice(group.start, group.end);
				recorded = piVersions.get(folder)?.startsWith('1.') === true
					? real.filter((e) => e['customType'] === 'context-prune-summary').map(replyOf)
					: [];
				const path = join(env.dir.path, `${folder}-${n}.jsonl`);
				writeFileSync(path, `${cut.join('\n')}\n`);
				const outcome = await flushSession(testWork, env.request(path, { config, rules }));
				const label = `${folder}: flush ${n + 1} of ${groups.length} (lines ${group.start + 1}–${group.end})`;
				const ours = (outcome.entries ?? []).map((prepared) => JSON.parse(JSON.stringify(prepared.entry)) as Json);
				assert.deepEqual(ours.map((e) => e['customType']), real.map((e) => e['customType']), `${label}: ${outcome.message}`);
				// The frontier's counts of a batch holding a message real Pi held longer (test/support/heldLonger.ts).
				const held = HELD_LONGER[folder];
				const heldLonger = held !== undefined && real.some((e) => e['customType'] === 'context-prune-frontier' && JSON.stringify(e).includes(lastToolCallOf(entries, held.entryId)));
				ours.forEach((e, i) => assert.deepEqual(comparable(e, !replyAppended, heldLonger), comparable(real[i] as Json, !replyAppended, heldLonger), `${label}, entry ${i + 1} (${String(e['customType'])})`));
			}
		});
	}
});
