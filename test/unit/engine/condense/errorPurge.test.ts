import assert from 'node:assert/strict';
import { purgeErroredArgsSteps } from '../../../../src/engine/condense/phases/errorPurge';
import type { AgentMessage, AssistantMessage, ToolCall } from '../../../../src/engine/session/types';
import { assistant, call, result, text, user } from './builders';
import { deepFreeze } from './piReference';
import { runSteps } from '../../../../src/engine/steps';

const config = { enabled: true, cooldownTurns: 2, minArgChars: 100 };
const bigArgs = { path: 'a.ts', content: 'x'.repeat(200) };

/** An errored call in turn 1, then `later` more assistant turns. */
function session(later: number, args: Record<string, unknown> = bigArgs): AgentMessage[] {
	const messages: AgentMessage[] = [user(1), assistant(10, call('bad', 'write', args), call('ok', 'bash', bigArgs)), result('bad', 'write', 11, 'Error: denied', true), result('ok', 'bash', 12, 'fine')];
	for (let i = 0; i < later; i++) {
		messages.push(assistant(20 + i, text(`step ${i}`)));
	}
	return deepFreeze(messages);
}

function argsOf(messages: readonly AgentMessage[], id: string): unknown {
	const owner = messages.find((m): m is AssistantMessage => m.role === 'assistant' && m.content.some((b) => b.type === 'toolCall' && b.id === id));
	return (owner?.content.find((b) => b.type === 'toolCall' && b.id === id) as ToolCall | undefined)?.arguments;
}

describe('purgeErroredArgs (phase 2)', () => {
	it('returns the same array when no result is an error', () => {
		const messages = deepFreeze([user(1), assistant(2, call('a', 'bash', bigArgs)), result('a', 'bash', 3, 'ok'), assistant(4, text('x')), assistant(5, text('y'))]);
		assert.equal(runSteps(purgeErroredArgsSteps(messages, config)), messages);
	});

	it('waits for the cooldown: age one less than cooldownTurns keeps the arguments, equal purges', () => {
		const young = session(1);
		assert.equal(runSteps(purgeErroredArgsSteps(young, config)), young);
		const old = session(2);
		const out = runSteps(purgeErroredArgsSteps(old, config));
		const size = JSON.stringify(bigArgs).length;
		assert.deepEqual(argsOf(out, 'bad'), { _purged: `<purged-errored-args size="${size}"/>` });
		assert.deepEqual(argsOf(out, 'ok'), bigArgs, 'a successful call in the same message is untouched');
		assert.deepEqual(argsOf(old, 'bad'), bigArgs, 'input unchanged');
		assert.equal(out[2], old[2], 'the error result itself stays');
	});

	it('keeps arguments whose JSON is shorter than minArgChars', () => {
		const messages = session(5, { path: 'a.ts' });
		assert.equal(runSteps(purgeErroredArgsSteps(messages, config)), messages);
	});

	it('purges at exactly minArgChars', () => {
		const args = { c: 'x'.repeat(100 - '{"c":""}'.length) };
		assert.equal(JSON.stringify(args).length, 100);
		assert.ok('_purged' in (argsOf(runSteps(purgeErroredArgsSteps(session(3, args), config)), 'bad') as object));
	});

	it('ignores a stubbed error (isError: false after phase 1)', () => {
		const messages = deepFreeze([user(1), assistant(10, call('bad', 'write', bigArgs)), result('bad', 'write', 11, '[Summarized …]', false), assistant(20, text('a')), assistant(21, text('b'))]);
		assert.equal(runSteps(purgeErroredArgsSteps(messages, config)), messages);
	});

	it('works by bare id, as every release to 2.9.1 does: a reused id that succeeded elsewhere is purged too', () => {
		const messages = deepFreeze([
			user(1), assistant(10, call('x', 'write', bigArgs)), result('x', 'write', 11, 'ok'),
			assistant(20, call('x', 'write', bigArgs)), result('x', 'write', 21, 'Error', true),
			assistant(30, text('a')), assistant(31, text('b')),
		]);
		const out = runSteps(purgeErroredArgsSteps(messages, config));
		assert.notEqual(out[1], messages[1]);
		assert.notEqual(out[3], messages[3]);
	});

	it('counts the age from the last errored result of an id', () => {
		const messages = deepFreeze([
			user(1), assistant(10, call('x', 'write', bigArgs)), result('x', 'write', 11, 'Error', true),
			assistant(20, call('x', 'write', bigArgs)), result('x', 'write', 21, 'Error', true),
			assistant(30, text('a')),
		]);
		assert.equal(runSteps(purgeErroredArgsSteps(messages, config)), messages, 'age 1 from the second error: too young, for both calls');
	});
});
