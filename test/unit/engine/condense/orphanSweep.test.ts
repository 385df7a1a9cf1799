import assert from 'node:assert/strict';
import { orphanWarningsSteps } from '../../../../src/engine/condense/phases/orphanWarnings';
import { sweepOrphanResultsSteps } from '../../../../src/engine/condense/phases/orphanSweep';
import type { ReleaseDiagnostic } from '../../../../src/engine/condense/phases/renderReport';
import type { AgentMessage } from '../../../../src/engine/session/types';

import { assistant, call, result, text, user } from './builders';
import { deepFreeze } from './piReference';
import { runSteps } from '../../../../src/engine/steps';
import { releaseRules } from '../../../../src/engine/release/releases';

const note = (timestamp: number): AgentMessage => ({ role: 'custom', customType: 'other-extension', content: 'notice', display: true, timestamp });

describe('orphan sweep (2.6.0+)', () => {
	it('returns the same array when every result answers an open call', () => {
		const messages = deepFreeze([user(1), assistant(2, call('a', 'bash'), call('b', 'bash')), result('a', 'bash', 3, 'A'), result('b', 'bash', 4, 'B'), assistant(5, text('ok'))]);
		assert.equal(runSteps(sweepOrphanResultsSteps(messages, 'assistant-only', undefined)), messages);
		assert.equal(runSteps(sweepOrphanResultsSteps(messages, 'barrier', undefined)), messages);
	});

	it('sweeps a second result for one id and a result answering an older assistant, reported as the release words it', () => {
		const messages = deepFreeze([
			assistant(1, call('a', 'bash')), result('a', 'bash', 2, 'A'), result('a', 'bash', 3, 'again'),
			assistant(4, call('b', 'bash')), result('z', 'bash', 5, 'stray'), result('b', 'bash', 6, 'B'),
		]);
		const reports: ReleaseDiagnostic[] = [];
		const out = runSteps(sweepOrphanResultsSteps(messages, 'assistant-only', (d) => reports.push(d)));
		assert.deepEqual(out.map((m) => (m.role === 'toolResult' ? m.timestamp : m.role)), ['assistant', 2, 'assistant', 6]);
		assert.deepEqual(reports.map((d) => d.detail), ['swept 2 orphan toolResult(s): a, z']);
	});

	it('lists five ids and counts the rest', () => {
		const strays = ['f', 'e', 'd', 'c', 'b', 'a', 'g'].map((id, i) => result(id, 'bash', i + 2, 'x'));
		const reports: ReleaseDiagnostic[] = [];
		runSteps(sweepOrphanResultsSteps([assistant(1, text('none')), ...strays], 'barrier', (d) => reports.push(d)));
		assert.deepEqual(reports.map((d) => d.detail), ['swept 7 orphan toolResult(s): a, b, c, d, e ... +2 more']);
	});

	it('2.6.0–2.9.0 keep a result behind a foreign message; 2.9.1 treats any other message as a barrier', () => {
		const messages = deepFreeze([assistant(1, call('x', 'bash')), note(2), result('x', 'bash', 3, 'late')]);
		assert.equal(runSteps(sweepOrphanResultsSteps(messages, 'assistant-only', undefined)), messages);
		assert.deepEqual(runSteps(sweepOrphanResultsSteps(messages, 'barrier', undefined)).map((m) => m.role), ['assistant', 'custom']);
	});
});

describe('orphan warnings', () => {
	const before = deepFreeze([user(1), assistant(2, call('a', 'bash'), call('b', 'bash')), result('a', 'bash', 3, 'A'), result('b', 'bash', 4, 'B'), assistant(5, text('ok'))]);

	it('warn of a result sent without its call: the provider rejects it, and the sweep of 2.6.0 removes it', () => {
		const after = [before[0], before[2], before[4]] as AgentMessage[];
		const warnings = runSteps(orphanWarningsSteps(before, after, releaseRules('2.0.0')));
		assert.deepEqual(warnings.map((w) => [w.kind, w.fixedIn, w.toolCallIds]), [['orphan-tool-result', '2.6.0', ['a']]]);
		assert.match(warnings[0]?.message ?? '', /without their tool call \(a\), after pi-condense 2\.0\.0 dropped their calls: .*HTTP 400.* pi-condense 2\.6\.0 removes them/);
	});

	it('name 2.9.1 for a result behind a foreign message, and nothing once the release has that sweep', () => {
		const pi = deepFreeze([assistant(1, call('x', 'bash')), note(2), result('x', 'bash', 3, 'late')]);
		const changed = pi.slice();
		assert.deepEqual(runSteps(orphanWarningsSteps(pi, changed, releaseRules('2.6.0'))).map((w) => [w.fixedIn, w.message.includes('as in Pi\'s own context')]), [['2.9.1', true]]);
		assert.deepEqual(runSteps(orphanWarningsSteps(pi, changed, releaseRules('2.9.1'))).map((w) => w.fixedIn), [undefined]);
	});

	it('warn of a call whose result the release dropped (Pi answers it with a synthetic error), not of Pi\'s own', () => {
		const after = [before[0], before[1], before[2], before[4]] as AgentMessage[];
		assert.deepEqual(runSteps(orphanWarningsSteps(before, after, releaseRules('2.0.0'))).map((w) => [w.kind, w.toolCallIds]), [['orphan-tool-call', ['b']]]);
		const interrupted = deepFreeze([user(1), assistant(2, call('a', 'bash')), user(3)]);
		assert.deepEqual(runSteps(orphanWarningsSteps(interrupted, interrupted.slice(), releaseRules('2.0.0'))), []);
	});
});
