import assert from 'node:assert/strict';
import { join } from 'node:path';
import { buildCondenseStateSteps, renderContextSteps } from '../../../../src/engine/condense';
import { syntheticBlockId } from '../../../../src/engine/condense/phases/syntheticChain';
import { alignContextsSteps, type Alignment } from '../../../../src/engine/preview/alignContexts';
import type { ContextMessage } from '../../../../src/engine/session/types';
import { referenceReleases } from '../../../support/releases';
import { loadSession, REFERENCE_DIR, referenceConfig } from '../condense/piReference';
import { runSteps } from '../../../../src/engine/steps';

/** The plain forward scan the indexed pass replaced: the definition of the pairing. */
function scanAlignment(raw: readonly ContextMessage[], rendered: readonly ContextMessage[]): Alignment {
	const rawIndexOf: number[] = [];
	const renderedIndexOf: number[] = new Array<number>(raw.length).fill(-1);
	let cursor = 0;
	for (const [i, message] of rendered.entries()) {
		const synthetic = syntheticBlockId(message) !== undefined;
		let found = -1;
		for (let r = cursor; r < raw.length; r++) {
			const candidate = raw[r] as ContextMessage;
			const same = candidate.role === message.role && candidate.timestamp === message.timestamp
				&& (candidate.role !== 'toolResult' || (message.role === 'toolResult' && candidate.toolCallId === message.toolCallId));
			if (candidate === message || (!synthetic && same)) {
				found = r;
				break;
			}
		}
		rawIndexOf.push(found);
		if (found >= 0) {
			renderedIndexOf[found] = i;
			cursor = found + 1;
		}
	}
	return { rawIndexOf, renderedIndexOf };
}

describe('alignContexts', () => {
	for (const [folder, rules] of referenceReleases()) {
		it(`pairs the rendered and raw contexts of ${folder} as a forward scan does`, () => {
			const { branch, messages } = loadSession(join(REFERENCE_DIR, folder, 'session.jsonl'));
			const rendered = runSteps(renderContextSteps(messages, runSteps(buildCondenseStateSteps(branch, rules)), referenceConfig(folder, rules), rules));
			assert.notEqual(rendered, messages, 'the reference session renders differently from its raw context');
			const alignment = runSteps(alignContextsSteps(messages, rendered));
			assert.deepEqual(alignment, scanAlignment(messages, rendered));
			assert.ok(alignment.rawIndexOf.includes(-1) || !rendered.some((m) => syntheticBlockId(m) !== undefined), 'synthetic chains have no raw counterpart');
		});
	}

	it('finds a message again after a run of raw messages the render dropped, and leaves a foreign one unpaired', () => {
		const at = (role: 'user' | 'assistant', timestamp: number): ContextMessage => (role === 'user'
			? { role, content: 'u', timestamp }
			: { role, content: [], api: 'x', provider: 'p', model: 'm', usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } }, stopReason: 'stop', timestamp });
		const raw = [at('user', 1), at('assistant', 2), at('assistant', 3), at('user', 4)];
		const copyOfLast = { ...raw[3] } as ContextMessage;
		const foreign = at('user', 99);
		const rendered = [raw[0] as ContextMessage, foreign, copyOfLast];
		assert.deepEqual(runSteps(alignContextsSteps(raw, rendered)), { rawIndexOf: [0, -1, 3], renderedIndexOf: [0, -1, -1, 2] });
		assert.deepEqual(runSteps(alignContextsSteps(raw, rendered)), scanAlignment(raw, rendered));
	});

	it('pairs as a forward scan does when many messages share a timestamp, a role or a tool-call id (2,000 random cases)', () => {
		let seed = 7;
		const random = (n: number): number => {
			seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
			return (seed >>> 8) % n;
		};
		const message = (): ContextMessage => {
			const timestamp = random(4) === 0 ? random(1e6) : random(3);
			switch (random(3)) {
				case 0: return { role: 'user', content: 'u', timestamp };
				case 1: return { role: 'toolResult', toolCallId: `c${random(3)}`, toolName: 'bash', content: [], isError: false, timestamp };
				default: return { role: 'assistant', content: [], api: 'x', provider: 'p', model: 'm', usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } }, stopReason: 'stop', timestamp };
			}
		};
		// A synthetic chain pairs only with itself, even where a raw user message has its timestamp.
		const synthetic = (timestamp: number): ContextMessage => ({ role: 'user', content: [{ type: 'text', text: '<compressed-chain id="b1" tools="t1">\nx\n</compressed-chain>' }], timestamp });
		assert.equal(syntheticBlockId(synthetic(0)), 'b1');
		for (let run = 0; run < 2000; run++) {
			const raw = Array.from({ length: random(40) }, message);
			const rendered: ContextMessage[] = [];
			for (const item of raw) {
				const choice = random(5);
				if (choice === 0) {
					continue; // dropped
				}
				rendered.push(choice === 1 ? { ...item } : item);
				if (random(6) === 0) {
					rendered.push(random(2) === 0 ? message() : synthetic(item.timestamp));
				}
			}
			assert.deepEqual(runSteps(alignContextsSteps(raw, rendered)), scanAlignment(raw, rendered), `case ${run}`);
		}
	});
});

