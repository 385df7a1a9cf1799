/**
 * Regression (fuzz seed 160): a line nested 10,000 levels deep parsed fine but made every later
 * `JSON.stringify` throw, so `preview --json` crashed with a stack trace. Such lines are now read for
 * their top-level fields only, with an error diagnostic at their line.
 */
import assert from 'node:assert/strict';
import { previewContextSteps } from '../../../../src/engine/condense';
import { buildSessionContextSteps, getBranchSteps, getTree, parseSessionSteps } from '../../../../src/engine/session';
import { MAX_JSON_DEPTH, nestedDeeperThan } from '../../../../src/engine/session/jsonDepth';
import { SessionBuilder } from '../../../support/sessionBuilder';
import { defaults, LATEST } from '../../../support/releases';
import { runSteps } from '../../../../src/engine/steps';

/** JSON text of `levels` nested containers (objects and arrays alternating). */
function nestedText(levels: number): string {
	const pairs = Math.floor(levels / 2);
	const odd = levels % 2 === 1;
	return `${odd ? '[' : ''}${'{"a":['.repeat(pairs)}1${']}'.repeat(pairs)}${odd ? ']' : ''}`;
}

const NESTED = '"__NESTED__"';

function sessionWithDetails(levels: number): { text: string; line: number } {
	const builder = new SessionBuilder();
	builder.user('hello');
	builder.entry({ type: 'custom_message', customType: 'demo', content: 'deep', display: true, details: '__NESTED__' });
	builder.user('after');
	const text = builder.text().replace(NESTED, nestedText(levels));
	return { text, line: 3 };
}

describe('deeply nested JSON lines', () => {
	it('counts nesting levels exactly, without recursion', () => {
		assert.equal(nestedDeeperThan(JSON.parse(nestedText(MAX_JSON_DEPTH)), 1e9), false);
		assert.equal(nestedDeeperThan(JSON.parse(nestedText(MAX_JSON_DEPTH + 1)), 1e9), true);
		assert.equal(nestedDeeperThan(JSON.parse(nestedText(200_000)), 1e9), true);
		assert.equal(nestedDeeperThan(JSON.parse(nestedText(5000)), 10), false, 'a text too short for the limit is not walked');
	});

	it('reads a line nested too deeply as an opaque entry, with an error at its line, and everything serializes', () => {
		const { text, line } = sessionWithDetails(10_000);
		assert.throws(() => JSON.stringify(JSON.parse(text.split('\n')[line - 1] as string)), RangeError, 'the value itself cannot be serialized');
		const model = runSteps(parseSessionSteps(text));
		const error = model.diagnostics.find((d) => d.severity === 'error');
		assert.equal(error?.line, line);
		assert.match(error.message, /nested more than 1000 levels/);
		assert.equal(model.entries.length, 3, 'the entry keeps its place in the tree');
		assert.equal(model.entries[1]?.type, 'opaque');
		assert.equal(getTree(model).roots.length, 1);
		const messages = runSteps(buildSessionContextSteps(model)).messages;
		assert.deepEqual(messages.map((m) => m.role), ['user', 'user']);
		const preview = runSteps(previewContextSteps(runSteps(getBranchSteps(model)), messages, { ...defaults(LATEST), enabled: true }, LATEST));
		assert.equal(typeof JSON.stringify(preview.after), 'string');
	});

	it('keeps values nested up to the limit as they are', () => {
		const { text } = sessionWithDetails(MAX_JSON_DEPTH - 1);
		const model = runSteps(parseSessionSteps(text));
		assert.deepEqual(model.diagnostics, []);
		assert.deepEqual(runSteps(buildSessionContextSteps(model)).messages.map((m) => m.role), ['user', 'custom', 'user']);
	});

	it('still reads a header that carries a deeply nested field', () => {
		const text = new SessionBuilder({ extra: '__NESTED__' }).text().replace(NESTED, nestedText(5000));
		const model = runSteps(parseSessionSteps(text));
		assert.equal(model.header?.id, 'sess-0001');
		assert.equal(model.diagnostics[0]?.line, 1);
	});
});
