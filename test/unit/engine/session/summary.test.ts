import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseHeaderLine } from '../../../../src/engine/session/headerLine';
import { EMPTY_SUMMARY, FIRST_MESSAGE_MAX_CHARS, sessionModifiedTime, summarizeLines, type SessionSummary } from '../../../../src/engine/session/summary';
import { realSessionFiles, realSessionsDir } from '../../../support/paths';
import { Random } from '../../../support/random';
import { SessionBuilder, text, toolCall } from '../../../support/sessionBuilder';

const summarize = (content: string): SessionSummary => summarizeLines(EMPTY_SUMMARY, content);

function lastMessageTimestamp(content: string): number {
	const lines = content.trimEnd().split('\n');
	return (JSON.parse(lines[lines.length - 1] ?? '') as { message: { timestamp: number } }).message.timestamp;
}

describe('session summary (Pi\'s session-list rules)', () => {
	it('takes the name from the last session_info in file order, trimmed; an empty name clears it', () => {
		const session = new SessionBuilder();
		session.entry({ type: 'session_info', name: '  First  ' });
		assert.equal(summarize(session.text()).name, 'First');
		session.entry({ type: 'session_info', name: '   ' });
		assert.equal(summarize(session.text()).name, undefined);
		session.entry({ type: 'session_info', name: 'Again' });
		session.entry({ type: 'session_info' });
		assert.equal(summarize(session.text()).name, undefined, 'a session_info without a name clears it, as in Pi');
	});

	it('takes the first user message that has text: a string, or text blocks joined with a space', () => {
		const session = new SessionBuilder();
		session.message({ role: 'user', content: [{ type: 'image', data: 'AAAA', mimeType: 'image/png' }] });
		session.assistant([text('hello')]);
		session.message({ role: 'user', content: [text('look'), { type: 'image', data: 'AAAA', mimeType: 'image/png' }, text('here')] });
		session.user('later');
		assert.equal(summarize(session.text()).firstUserMessage, 'look here');
		const plain = new SessionBuilder();
		plain.message({ role: 'user', content: 'as a string' });
		assert.equal(summarize(plain.text()).firstUserMessage, 'as a string');
	});

	it('counts entries and every message entry (tool results included), and finds the last user/assistant activity', () => {
		const session = new SessionBuilder();
		session.entry({ type: 'model_change', provider: 'anthropic', modelId: 'claude-sonnet-4-5' });
		session.user('go');
		session.assistant([toolCall('c1', 'read', { path: 'a' })]);
		session.toolResult('c1', 'read', 'content');
		session.assistant([text('done')]);
		const lastAssistant = lastMessageTimestamp(session.text());
		session.message({ role: 'custom', customType: 'x', content: 'c', display: false, timestamp: lastAssistant + 50_000 });
		const summary = summarize(session.text());
		assert.equal(summary.header, 'session');
		assert.equal(summary.entryCount, 6);
		assert.equal(summary.messageCount, 5);
		assert.equal(summary.lastActivity, lastAssistant, 'only user and assistant messages count as activity');
		assert.equal(sessionModifiedTime(summary, 1), lastAssistant);
	});

	it('falls back to the header timestamp, then to the file mtime, for "modified"', () => {
		const empty = new SessionBuilder({ timestamp: '2026-02-03T04:05:06.007Z' });
		assert.equal(sessionModifiedTime(summarize(empty.text()), 42), Date.parse('2026-02-03T04:05:06.007Z'));
		const noTime = new SessionBuilder({ timestamp: 'not a date' });
		assert.equal(sessionModifiedTime(summarize(noTime.text()), 42), 42);
	});

	it('uses the entry timestamp when a user/assistant message has no numeric timestamp', () => {
		const session = new SessionBuilder();
		session.entry({ type: 'message', timestamp: '2026-05-01T00:00:00.000Z', message: { role: 'user', content: 'x' } });
		assert.equal(summarize(session.text()).lastActivity, Date.parse('2026-05-01T00:00:00.000Z'));
	});

	it('skips what Pi would choke on instead of giving up: bad JSON, null, odd content, non-string names', () => {
		const session = new SessionBuilder();
		session.rawLine('{"type":"message", broken');
		session.rawLine('null');
		session.rawLine('[1,2]');
		session.entry({ type: 'message', message: { role: 'user', content: { not: 'an array' } } });
		session.entry({ type: 'message', message: 'not an object' });
		session.entry({ type: 'session_info', name: 42 });
		session.user('real first');
		const summary = summarize(session.text());
		assert.equal(summary.invalidLineCount, 3);
		assert.equal(summary.firstUserMessage, 'real first');
		assert.equal(summary.messageCount, 3);
		assert.equal(summary.name, undefined);
	});

	it('marks a file whose first parsed line is not a header, and ignores an unterminated last line', () => {
		assert.equal(summarize('{"type":"message"}\n').header, 'other');
		const session = new SessionBuilder();
		session.user('complete');
		const partial = `${session.text()}{"type":"session_info","name":"half`;
		const summary = summarize(partial);
		assert.equal(summary.name, undefined);
		assert.equal(summary.lineCount, 2);
	});

	it('cuts a huge first message without splitting a surrogate pair', () => {
		const session = new SessionBuilder();
		session.user(`${'a'.repeat(FIRST_MESSAGE_MAX_CHARS - 1)}😀 and more`);
		const first = summarize(session.text()).firstUserMessage ?? '';
		assert.equal(first.length, FIRST_MESSAGE_MAX_CHARS - 1);
		assert.ok(!first.endsWith('\ud83d'));
	});

	it('gives the same summary incrementally as in one pass, however the complete lines are split (real sessions)', () => {
		for (const file of realSessionFiles()) {
			const content = readFileSync(file, 'utf8');
			const whole = summarize(content);
			const random = new Random(file.length);
			const lineEnds = [...content.matchAll(/\n/g)].map((m) => (m.index ?? 0) + 1);
			let summary = EMPTY_SUMMARY;
			let start = 0;
			while (start < content.length) {
				const end = random.pick(lineEnds.filter((e) => e > start).slice(0, 40));
				const before = summary;
				summary = summarizeLines(summary, content.slice(start, end));
				assert.notEqual(summary, before);
				start = end;
			}
			assert.deepEqual(summary, whole, file);
		}
	});

	it('returns the same object when given no complete line, and never mutates the previous summary', () => {
		const session = new SessionBuilder();
		session.user('x');
		const first = summarize(session.text());
		const frozen = JSON.stringify(first);
		assert.equal(summarizeLines(first, '{"partial"'), first);
		summarizeLines(first, `${JSON.stringify({ type: 'session_info', id: 'n', parentId: null, timestamp: '', name: 'N' })}\n`);
		assert.equal(JSON.stringify(first), frozen);
	});

	it('reads the legacy v1 real session as Pi would list it', () => {
		const summary = summarize(readFileSync(join(realSessionsDir, 'large-session.jsonl'), 'utf8'));
		assert.equal(summary.header, 'session');
		assert.equal(summary.messageCount, 914);
		assert.equal(summary.invalidLineCount, 0);
	});
});

describe('parseHeaderLine', () => {
	it('accepts Pi\'s header rule and keeps only the header fields', () => {
		const v1 = parseHeaderLine('{"type":"session","id":"d703","timestamp":"2025-11-20T23:33:50.805Z","cwd":"/w","provider":"anthropic","modelId":"m","thinkingLevel":"off"}');
		assert.deepEqual(v1, { ok: true, header: { type: 'session', id: 'd703', cwd: '/w', timestamp: '2025-11-20T23:33:50.805Z' } });
		assert.ok(v1.ok && v1.header.version === undefined, 'no version: a v1 file, by Pi\'s rule');
		const v3 = parseHeaderLine('{"type":"session","version":3,"id":"x","timestamp":"t","cwd":"/p","parentSession":"/a.jsonl"}');
		assert.ok(v3.ok && v3.header.version === 3 && v3.header.parentSession === '/a.jsonl');
	});

	it('reports why a first line is not a header', () => {
		assert.deepEqual(parseHeaderLine('{"type":"session"'), { ok: false, reason: 'line 1 is not valid JSON' });
		assert.equal(parseHeaderLine('{"type":"message","id":"a"}').ok, false);
		assert.equal(parseHeaderLine('{"type":"session","id":7}').ok, false);
		assert.equal(parseHeaderLine('"session"').ok, false);
	});

	it('gives an empty cwd and timestamp when the header lacks them, as Pi\'s session list does', () => {
		assert.deepEqual(parseHeaderLine('{"type":"session","id":"a"}'), { ok: true, header: { type: 'session', id: 'a', cwd: '', timestamp: '' } });
	});
});
