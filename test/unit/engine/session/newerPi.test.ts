/**
 * What only a Pi newer than 1.6.0 writes: an unknown entry type is kept in the tree, left out of the
 * context as Pi 1.6.0 leaves it out, and said once per type without stopping writes; an unknown message
 * role is said once and stops writes (it is part of the conversation pi-condense sees); a newer format
 * version stops them too. Every way of reading a file says it the same way.
 */
import assert from 'node:assert/strict';
import { newerPiSessionText } from '../../../../src/engine/release';
import { appendToSession, buildSessionContextSteps, getTree, parseSessionSteps, SessionPieceReader } from '../../../../src/engine/session';
import { checkModelWritable } from '../../../../src/engine/write/writeRefusal';
import { SessionBuilder, text } from '../../../support/sessionBuilder';
import { runSteps } from '../../../../src/engine/steps';

function withFutureTypes(): SessionBuilder {
	const s = new SessionBuilder();
	s.user('before');
	s.entry({ type: 'future_checkpoint', payload: 1 });
	s.assistant([text('between')]);
	s.entry({ type: 'future_checkpoint', payload: 2 });
	s.entry({ type: 'future_marker' });
	s.user('after');
	return s;
}

describe('sessions written by a Pi newer than 1.6.0', () => {
	it('an unknown entry type: kept in the tree, out of the context, one warning per type, writes still allowed', () => {
		const model = runSteps(parseSessionSteps(withFutureTypes().text()));
		assert.deepEqual(model.diagnostics.map((d) => [d.line, d.severity, d.newerPi, d.writeSafe]), [
			[3, 'warning', 'type:future_checkpoint', true],
			[6, 'warning', 'type:future_marker', true],
		]);
		assert.match(model.diagnostics[0]?.message ?? '', /^entry type "future_checkpoint" is unknown to Pi 1\.6\.0, the newest Pi that Pi Condense knows: this session was written by a newer Pi/);
		assert.deepEqual(runSteps(buildSessionContextSteps(model)).messages.map((m) => m.role), ['user', 'assistant', 'user']);
		const types: string[] = [];
		const walk = (nodes: ReturnType<typeof getTree>['roots']): void => nodes.forEach((node) => {
			types.push(node.entry.type === 'opaque' ? node.entry.originalType : node.entry.type);
			walk(node.children);
		});
		walk(getTree(model).roots);
		assert.equal(types.filter((type) => type.startsWith('future_')).length, 3);
		assert.equal(checkModelWritable(model), undefined);
		assert.match(newerPiSessionText(model.diagnostics) ?? '', /^this session was written by a Pi newer than 1\.6\.0, the newest Pi this extension knows \(entry type "future_checkpoint", entry type "future_marker"; line 3\)$/);
	});

	it('says each type once however the file is read: whole, appended to, or in pieces', () => {
		const s = withFutureTypes();
		const first = s.text();
		s.entry({ type: 'future_checkpoint', payload: 3 });
		s.entry({ type: 'future_third' });
		const all = s.text();
		const grown = appendToSession(runSteps(parseSessionSteps(first)), all.slice(first.length));
		assert.ok(grown);
		const reader = runSteps(SessionPieceReader.afterSteps(runSteps(parseSessionSteps(first))));
		assert.ok(reader);
		reader.push(all.slice(first.length));
		for (const model of [runSteps(parseSessionSteps(all)), grown, reader.model()]) {
			assert.deepEqual(model.diagnostics.map((d) => [d.line, d.newerPi]), [[3, 'type:future_checkpoint'], [6, 'type:future_marker'], [9, 'type:future_third']]);
		}
	});

	it('an unknown message role: said once, left out of the preview, and writes refused (pi-condense would see it)', () => {
		const s = new SessionBuilder();
		s.user('q');
		s.message({ role: 'developer', content: 'from a newer Pi' });
		s.message({ role: 'developer', content: 'again' });
		s.assistant([text('a')]);
		const model = runSteps(parseSessionSteps(s.text()));
		assert.deepEqual(model.diagnostics.map((d) => [d.line, d.newerPi, d.writeSafe]), [[3, 'role:developer', undefined]]);
		assert.match(model.diagnostics[0]?.message ?? '', /^message role "developer" is unknown to Pi 1\.6\.0, .*it needs a Pi after 1\.6\.0.*nothing is written to this session/);
		const refusal = checkModelWritable(model);
		assert.equal(refusal?.code, 'diagnostics');
		assert.match(refusal?.message ?? '', /line 3: message role "developer" is unknown to Pi 1\.6\.0/);
		assert.deepEqual(runSteps(buildSessionContextSteps(model)).messages.map((m) => m.role), ['user', 'assistant']);
	});

	it('a newer format version: said, named as a newer Pi, and never written to', () => {
		const model = runSteps(parseSessionSteps(new SessionBuilder({ version: 4 }).text()));
		assert.equal(model.diagnostics[0]?.newerPi, 'version');
		assert.match(model.diagnostics[0]?.message ?? '', /written by a newer Pi \(session version 4, Pi 1\.6\.0 writes version 3\)/);
		assert.equal(checkModelWritable(model)?.code, 'not-v3');
		assert.match(newerPiSessionText(model.diagnostics) ?? '', /\(a newer format version; line 1\)/);
	});

	it('cuts a hostile type name in what it says', () => {
		const s = new SessionBuilder();
		s.entry({ type: `x${'y'.repeat(100_000)}` });
		const message = runSteps(parseSessionSteps(s.text())).diagnostics[0]?.message ?? '';
		assert.ok(message.length < 600, `${message.length} characters`);
	});
});
