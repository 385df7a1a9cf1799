import assert from 'node:assert/strict';
import { EMPTY_SUMMARY } from '../../../../src/engine/session/summary';
import type { SessionRow } from '../../../../src/node/store/sessionRows';
import { relativeTime } from '../../../../src/base/relativeTime';
import { buildSessionList, defaultSession, reclaimPercent } from '../../../../src/engine/views/sessionList';

const NOW = Date.parse('2026-06-01T12:00:00Z');

function row(path: string, cwd: string, mtimeMs: number, extra: Partial<SessionRow> = {}): SessionRow {
	return {
		file: { path, root: { path: '/agent/sessions', layout: 'per-project', source: 'default' }, size: 1234, mtimeMs, header: { type: 'session', id: path, timestamp: '', cwd } },
		summary: undefined,
		reclaim: undefined,
		...extra,
	};
}

function summarized(firstUserMessage: string | undefined, messageCount: number, modified: number, name?: string): SessionRow['summary'] {
	return { path: '', size: 1234, mtimeMs: modified, modified, scannedBytes: 0, summary: { ...EMPTY_SUMMARY, header: 'session', firstUserMessage, messageCount, name } };
}

describe('buildSessionList', () => {
	const rows = [
		row('/s/a1.jsonl', '/work/app', NOW - 3_600_000),
		row('/s/a2.jsonl', '/work/app', NOW - 60_000, { summary: summarized('Fix the login bug\nand more', 12, NOW - 60_000), reclaim: { kind: 'measured', beforeChars: 400_000, afterChars: 60_000 } }),
		row('/s/b1.jsonl', '/work/lib/', NOW - 10_000, { summary: summarized(undefined, 0, NOW - 10_000, 'Named session') }),
		row('/s/c1.jsonl', '/home/me/other', NOW - 86_400_000 * 3),
	];

	it('puts the workspace\'s projects first, then the others by their newest session', () => {
		const projects = buildSessionList(rows, { workspaceFolders: ['/work/app/'], now: NOW, pruningEnabled: true, homedir: '/home/me' });
		assert.deepEqual(projects.map((project) => [project.label, project.isWorkspace]), [['app', true], ['lib', false], ['other', false]]);
		assert.equal(projects[2]?.description, '~/other');
		assert.deepEqual(projects[0]?.sessions.map((session) => session.path), ['/s/a2.jsonl', '/s/a1.jsonl']);
	});

	it('labels a session by its name, else its first user message, else its file name until the summary arrives', () => {
		const projects = buildSessionList(rows, { workspaceFolders: [], now: NOW, pruningEnabled: true });
		const items = projects.flatMap((project) => project.sessions);
		const byPath = new Map(items.map((item) => [item.path, item]));
		assert.equal(byPath.get('/s/a2.jsonl')?.label, 'Fix the login bug');
		assert.equal(byPath.get('/s/a2.jsonl')?.description, '1 minute ago · 12 msgs · -85%');
		assert.equal(byPath.get('/s/b1.jsonl')?.label, 'Named session');
		assert.equal(byPath.get('/s/a1.jsonl')?.label, 'a1');
		assert.equal(byPath.get('/s/a1.jsonl')?.description, '1 hour ago');
		assert.equal(byPath.get('/s/a1.jsonl')?.summarized, false);
	});

	it('says a reclaim figure is what pruning would take off while contextPrune.enabled is off', () => {
		const item = (enabled: boolean) => buildSessionList(rows, { workspaceFolders: [], now: NOW, pruningEnabled: enabled })
			.flatMap((project) => project.sessions).find((session) => session.path === '/s/a2.jsonl');
		assert.equal(item(false)?.description, '1 minute ago · 12 msgs · -85% if on');
		assert.ok(item(false)?.details.includes('Pruning is off: the model gets the whole context. With pruning on, pi-condense would reclaim -85% of the context: 100.0k -> 15.0k tokens (chars / 4)'));
		assert.ok(item(true)?.details.includes('pi-condense reclaims -85% of the context: 100.0k -> 15.0k tokens (chars / 4)'));
	});

	it('filters by name, first message, folder or file name, case-insensitively', () => {
		const paths = (filter: string): string[] => buildSessionList(rows, { workspaceFolders: [], now: NOW, pruningEnabled: true, filter }).flatMap((project) => project.sessions.map((session) => session.path));
		assert.deepEqual(paths('LOGIN'), ['/s/a2.jsonl']);
		assert.deepEqual(paths('named'), ['/s/b1.jsonl']);
		assert.deepEqual(paths('other'), ['/s/c1.jsonl']);
		assert.deepEqual(paths('nothing like it'), []);
	});

	it('chooses the workspace\'s newest session by default, or the newest of all without a workspace', () => {
		assert.equal(defaultSession(buildSessionList(rows, { workspaceFolders: ['/work/app'], now: NOW, pruningEnabled: true }), true), '/s/a2.jsonl');
		assert.equal(defaultSession(buildSessionList(rows, { workspaceFolders: [], now: NOW, pruningEnabled: true }), false), '/s/b1.jsonl');
		assert.equal(defaultSession(buildSessionList(rows, { workspaceFolders: ['/elsewhere'], now: NOW, pruningEnabled: true }), true), undefined);
	});

	it('formats reclaim and relative times', () => {
		assert.equal(reclaimPercent({ kind: 'measured', beforeChars: 368_000, afterChars: 56_000 }), '-85%');
		assert.equal(reclaimPercent({ kind: 'none' }), undefined);
		assert.equal(relativeTime(NOW - 5_000, NOW), 'now');
		assert.equal(relativeTime(NOW + 60_000, NOW), 'now', 'a moment in the future (clock skew)');
		assert.equal(relativeTime(NOW - 50_000, NOW), '1 minute ago');
		assert.equal(relativeTime(NOW - 3 * 3_600_000, NOW), '3 hours ago');
		assert.equal(relativeTime(NOW - 86_400_000, NOW), 'yesterday');
		assert.equal(relativeTime(NOW - 86_400_000 * 4, NOW), '4 days ago');
		assert.equal(relativeTime(NOW - 86_400_000 * 40, NOW), 'last month');
		assert.equal(relativeTime(NOW - 86_400_000 * 800, NOW), '2 years ago');
	});
});
