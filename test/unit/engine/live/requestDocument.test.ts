/**
 * The request document (Open request, Compare with Previous Request): readable JSON that is valid
 * JSONC (no parse error, so VS Code flags nothing), loses nothing (joined, the folded pieces are the
 * exact strings), writes a value the same way whatever its key order, and is line-stable: adding or
 * pruning a message changes only that message's lines. Where two requests first differ. On random
 * values and on the real messages pi-condense sent for the reference sessions.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { stripComments } from 'jsonc-parser';
import { jsonArrayItemsSteps, parseJsonSteps } from '../../../../src/engine/live/jsonParts';
import { FOLD_CHARS, foldPieces, readableJsonSteps } from '../../../../src/engine/live/readableJson';
import { requestDocument, type RequestHead, writtenPartSteps, writtenRequestSteps } from '../../../../src/engine/live/requestDocument';
import { differenceTitle, requestDifference } from '../../../../src/engine/live/requestDifference';
import { runSteps } from '../../../../src/engine/steps';
import { Random } from '../../../support/random';
import { foldedValue as folded, parseRequestDocument as parseJsonc } from '../../../support/readableRequest';
import { REFERENCE_DIR } from '../condense/piReference';

const realMessages = (folder: string): unknown[] => JSON.parse(readFileSync(join(REFERENCE_DIR, folder, 'expected-context.json'), 'utf8')) as unknown[];

function randomString(random: Random): string {
	const parts = ['a', ' ', '\n', '"', '\\', '😀', 'é', '\u0000', '\t', '}', ']', 'x'.repeat(random.int(0, 150))];
	return Array.from({ length: random.int(0, 30) }, () => random.pick(parts)).join('');
}

const HEAD: RequestHead = { seq: 3, at: Date.UTC(2026, 11, 6, 8), pid: 4242, piVersion: '1.6.0', model: 'fake/model-1', sessionFile: '/s.jsonl' };

function written(messages: readonly unknown[], system: unknown = [{ role: 'system', content: 'You are Pi.\nBe brief.' }]) {
	return runSteps(writtenRequestSteps(JSON.stringify(system), JSON.stringify(messages)));
}

describe('request documents', () => {
	it('folds long strings losslessly: pieces end at line breaks, hold at most FOLD_CHARS characters, never split a surrogate pair', () => {
		const random = new Random(7);
		for (let i = 0; i < 500; i++) {
			const text = randomString(random);
			const pieces = foldPieces(text);
			assert.equal(pieces.join(''), text);
			for (const piece of pieces) {
				assert.ok(piece.length <= FOLD_CHARS && piece.length > 0);
				assert.ok(!piece.slice(0, -1).includes('\n'));
				assert.ok(!/[\uD800-\uDBFF]$/.test(piece) || piece === pieces.at(-1) || piece.length === 1, JSON.stringify(piece));
			}
		}
	});

	it('writes valid JSONC holding every value exactly (folded strings as their pieces), on the reference sessions\' real messages', () => {
		for (const folder of ['basic', 'recovery-2.9.1', 'batching-pi-1.6.0']) {
			const messages = realMessages(folder);
			const text = runSteps(readableJsonSteps(messages, 0));
			assert.deepEqual(JSON.parse(stripComments(text)), folded(messages));
			parseJsonc(text);
			assert.ok(text.split('\n').every((line) => line.length <= FOLD_CHARS + 200), 'no line is a blob');
		}
	});

	it('writes a value one way whatever the order of its keys, what an object is first (role, type, name, id)', () => {
		const a = runSteps(readableJsonSteps({ timestamp: 1, content: [{ text: 'hi', type: 'text' }], role: 'user' }, 0));
		const b = runSteps(readableJsonSteps({ role: 'user', content: [{ type: 'text', text: 'hi' }], timestamp: 1 }, 0));
		assert.equal(a, b);
		assert.equal(a, '{\n  "role": "user",\n  "content": [\n    {\n      "type": "text",\n      "text": "hi"\n    }\n  ],\n  "timestamp": 1\n}');
	});

	it('finds the items of a JSON array by scanning, brackets and quotes inside strings included; undefined for anything else', () => {
		const messages = realMessages('recovery-2.9.1');
		assert.deepEqual(runSteps(jsonArrayItemsSteps(JSON.stringify(messages))), messages.map((message) => JSON.stringify(message)));
		assert.deepEqual(runSteps(jsonArrayItemsSteps(' [ {"a":"],\\"}"} , [1,[2]] , "x" ] ')), ['{"a":"],\\"}"}', '[1,[2]]', '"x"']);
		assert.deepEqual(runSteps(jsonArrayItemsSteps('[]')), []);
		for (const bad of ['{"a":1}', '[1,2', '[1,,2]', '[1] 2', '', '["unterminated]']) {
			assert.equal(runSteps(jsonArrayItemsSteps(bad)), undefined, bad);
		}
	});

	it('parses large JSON a part at a time to the value JSON.parse gives, "__proto__" members included; throws where JSON.parse does', () => {
		const messages = realMessages('large-bulk');
		const payload = { model: 'm', messages: [...messages, ...messages, ...messages, ...messages], tools: [{ name: 'bash' }] };
		const text = JSON.stringify(payload).replace('"tools"', '"__proto__":{"polluted":true},"tools"');
		assert.ok(text.length > 1024 * 1024, `${text.length} characters`);
		const expected: unknown = JSON.parse(text);
		let yields = 0;
		const steps = parseJsonSteps(text);
		let next = steps.next();
		while (!next.done) {
			yields++;
			next = steps.next();
		}
		assert.deepEqual(next.value, expected);
		assert.ok(yields > 2, `${yields} yields`);
		assert.equal(Object.getPrototypeOf(next.value), Object.prototype);
		assert.equal(({} as { polluted?: boolean }).polluted, undefined);
		assert.throws(() => runSteps(parseJsonSteps(`${text.slice(0, -1)},}`)), SyntaxError);
		assert.throws(() => runSteps(parseJsonSteps(`[${'1,'.repeat(200_000)}]`)), SyntaxError);
	});

	it('is one JSONC object whose messages are the request\'s, each block found at its line', () => {
		const messages = realMessages('basic');
		const request = written(messages);
		const document = requestDocument(HEAD, request, { written: runSteps(writtenPartSteps(JSON.stringify({ model: 'm', max_tokens: 10 }), 'payload')) });
		const value = parseJsonc(document.text) as { system: unknown; messages: unknown[]; payload: unknown };
		assert.deepEqual(value.messages, folded(messages));
		assert.deepEqual(value.payload, { model: 'm', max_tokens: 10 });
		const lines = document.text.split('\n');
		assert.equal(document.messageLines.length, messages.length);
		document.messageLines.forEach((line, index) => {
			assert.match(lines[line] ?? '', new RegExp(`^    ${index === 0 ? '' : ', '}// ── ${(messages[index] as { role: string }).role}`));
			assert.match(lines[line + 1] ?? '', /^ {4}\{$/);
		});
		assert.match(lines[document.systemLine] ?? '', /^ {2}"system": \[$/);
		// Without a payload (the comparison's documents), still one valid object.
		parseJsonc(requestDocument(HEAD, request, { missing: 'not compared' }).text);
		parseJsonc(requestDocument(HEAD, { system: undefined, messages: [] }, { missing: 'none' }).text);
	});

	it('is line-stable: messages added after the last change no line above them, a pruned message changes only its own lines', () => {
		const messages = realMessages('basic');
		const body = (text: string): string[] => text.split('\n').slice(3);
		const before = body(requestDocument(HEAD, written(messages.slice(0, 6)), { missing: 'x' }).text);
		const after = body(requestDocument({ ...HEAD, seq: 4 }, written(messages), { missing: 'x' }).text);
		const closing = 4; // "  ]", the payload's comment, "}" and the end of the last line
		assert.deepEqual(after.slice(0, before.length - closing), before.slice(0, -closing));
		// A tool result replaced by a stub: only that block's lines differ, the same count of lines before and after it.
		const at = messages.findIndex((message) => (message as { role: string }).role === 'toolResult');
		const stubbed = messages.map((message, index) => (index === at ? { ...(message as object), content: [{ type: 'text', text: '[pruned: t1]' }] } : message));
		const one = body(requestDocument(HEAD, written(messages), { missing: 'x' }).text);
		const other = body(requestDocument(HEAD, written(stubbed), { missing: 'x' }).text);
		const first = one.findIndex((line, index) => line !== other[index]);
		const fromEnd = (lines: string[], n: number): string | undefined => lines[lines.length - 1 - n];
		let last = 0;
		while (fromEnd(one, last) === fromEnd(other, last)) {
			last++;
		}
		const document = requestDocument(HEAD, written(messages), { missing: 'x' });
		assert.ok(first + 3 > (document.messageLines[at] ?? 0) && first + 3 < (document.messageLines[at + 1] ?? 0), `first changed line ${first + 3}`);
		assert.ok(one.length - last + 3 <= (document.messageLines[at + 1] ?? 0), 'nothing after the pruned message changed');
	});

	it('says where two requests first differ: nowhere, only added messages, the system messages, or a message', () => {
		const messages = realMessages('basic');
		const whole = written(messages);
		assert.deepEqual(requestDifference(whole, written(messages)), { kind: 'same', messages: messages.length });
		assert.deepEqual(requestDifference(written(messages.slice(0, 5)), whole), { kind: 'appended', kept: 5, added: messages.length - 5 });
		assert.deepEqual(requestDifference(whole, written(messages, [{ role: 'system', content: 'Other.' }])), { kind: 'system' });
		const at = messages.findIndex((message) => (message as { role: string }).role === 'toolResult');
		const stubbed = messages.map((message, index) => (index === at ? { ...(message as object), content: 'stub' } : message));
		const difference = requestDifference(whole, written(stubbed));
		assert.deepEqual(difference, { kind: 'message', index: at, label: whole.messages[at]?.label });
		assert.match(differenceTitle(4242, 3, 4, difference), new RegExp(`^Pi 4242: request 3 ↔ 4 · first difference at message ${at + 1} \\(toolResult · \\w+\\)$`));
		assert.equal(differenceTitle(1, 1, 2, requestDifference(written(messages.slice(0, 5)), written(messages.slice(0, 7)))), 'Pi 1: request 1 ↔ 2 · the same first 5 messages, 2 added after them');
		assert.deepEqual(requestDifference(whole, written(messages.slice(0, 4))), { kind: 'message', index: 4, label: `${whole.messages[4]?.label ?? ''}, gone` });
	});

	it('keeps a part that is not JSON, folded as text, and labels are plain words (a role cannot end the comment line)', () => {
		const request = runSteps(writtenRequestSteps('not json', '[{"role":"user\\nx // */","content":"hi"}]'));
		assert.equal(request.messages[0]?.label, 'userx');
		parseJsonc(requestDocument(HEAD, request, { missing: 'x' }).text);
		// A session file name, a version or an error with a line break stays on its comment line.
		const hostile = requestDocument({ ...HEAD, piVersion: '1.6.0\n}{', sessionFile: '/s\n"x": 1,\u2028.jsonl' }, request, { missing: 'failed:\n{' });
		parseJsonc(hostile.text);
		assert.equal(hostile.text.split('\n')[1], '// Session: /s "x": 1, .jsonl');
		const broken = runSteps(writtenRequestSteps(undefined, '[{"role":'));
		assert.equal(broken.messages.length, 1);
		assert.equal(broken.messages[0]?.label, 'not JSON');
	});
});
