import assert from 'node:assert/strict';
import { join } from 'node:path';
import { buildCondenseState, renderContext } from '../../../../src/engine/condense';
import { syntheticBlockId } from '../../../../src/engine/condense/phases/syntheticChain';
import { alignContexts, type Alignment } from '../../../../src/engine/preview/alignContexts';
import type { AgentMessage } from '../../../../src/engine/session/types';
import { referenceReleases } from '../../../support/releases';
import { loadSession, REFERENCE_DIR, referenceConfig } from '../condense/piReference';

/** The plain forward scan the indexed pass replaced: the definition of the pairing. */
function scanAlignment(raw: readonly AgentMessage[], rendered: readonly AgentMessage[]): Alignment {
	const rawIndexOf: number[] = [];
	const renderedIndexOf: number[] = new Array<number>(raw.length).fill(-1);
	let cursor = 0;
	for (const [i, message] of rendered.entries()) {
		const synthetic = syntheticBlockId(message) !== undefined;
		let found = -1;
		for (let r = cursor; r < raw.length; r++) {
			const candidate = raw[r] as AgentMessage;
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
	for (const [folder, release] of referenceReleases()) {
		it(`pairs the rendered and raw contexts of ${folder} as a forward scan does`, () => {
			const { branch, messages } = loadSession(join(REFERENCE_DIR, folder, 'session.jsonl'));
			const rendered = renderContext(messages, buildCondenseState(branch, release), referenceConfig(folder, release), release);
			assert.notEqual(rendered, messages, 'the reference session renders differently from its raw context');
			const alignment = alignContexts(messages, rendered);
			assert.deepEqual(alignment, scanAlignment(messages, rendered));
			assert.ok(alignment.rawIndexOf.includes(-1) || !rendered.some((m) => syntheticBlockId(m) !== undefined), 'synthetic chains have no raw counterpart');
		});
	}

	it('finds a message again after a run of raw messages the render dropped, and leaves a foreign one unpaired', () => {
		const at = (role: 'user' | 'assistant', timestamp: number): AgentMessage => (role === 'user'
			? { role, content: 'u', timestamp }
			: { role, content: [], api: 'x', provider: 'p', model: 'm', usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } }, stopReason: 'stop', timestamp });
		const raw = [at('user', 1), at('assistant', 2), at('assistant', 3), at('user', 4)];
		const copyOfLast = { ...raw[3] } as AgentMessage;
		const foreign = at('user', 99);
		const rendered = [raw[0] as AgentMessage, foreign, copyOfLast];
		assert.deepEqual(alignContexts(raw, rendered), { rawIndexOf: [0, -1, 3], renderedIndexOf: [0, -1, -1, 2] });
		assert.deepEqual(alignContexts(raw, rendered), scanAlignment(raw, rendered));
	});
});
