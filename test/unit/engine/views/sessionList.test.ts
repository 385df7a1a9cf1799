import assert from 'node:assert/strict';
import { EMPTY_SUMMARY } from '../../../../src/engine/session/summary';
import type { SessionRow } from '../../../../src/node/store/sessionRows';
import { compactAge, relativeTime } from '../../../../src/base/relativeTime';
import type { PruneState } from '../../../../src/engine/views/pruneState';
import { buildSessionList, captureOrder, defaultSession, reclaimPercent } from '../../../../src/engine/views/sessionList';

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
		const projects = buildSessionList(rows, { workspaceFolders: ['/work/app/'], now: NOW, homedir: '/home/me' });
		assert.deepEqual(projects.map((project) => [project.label, project.isWorkspace]), [['app', true], ['lib', false], ['other', false]]);
		assert.equal(projects[2]?.description, '~/other');
		assert.deepEqual(projects[0]?.sessions.map((session) => session.path), ['/s/a2.jsonl', '/s/a1.jsonl']);
	});

	it('labels a session by its name, else its first user message, else its file name until the summary arrives', () => {
		const projects = buildSessionList(rows, { workspaceFolders: [], now: NOW });
		const items = projects.flatMap((project) => project.sessions);
		const byPath = new Map(items.map((item) => [item.path, item]));
		assert.equal(byPath.get('/s/a2.jsonl')?.label, 'Fix the login bug');
		assert.equal(byPath.get('/s/a2.jsonl')?.description, '1m · 12 msgs', 'no reclaim figure until the row\'s state is known');
		assert.equal(byPath.get('/s/a2.jsonl')?.spokenDescription, '1 minute ago · 12 msgs', 'in words for a screen reader');
		assert.equal(byPath.get('/s/b1.jsonl')?.label, 'Named session');
		assert.equal(byPath.get('/s/a1.jsonl')?.label, 'a1');
		assert.equal(byPath.get('/s/a1.jsonl')?.description, '1h');
		assert.equal(byPath.get('/s/a1.jsonl')?.summarized, false);
	});

	it('says what a reclaim figure depends on in the row\'s own state: on, off, or pi-condense not installed', () => {
		const item = (state: PruneState | undefined) => buildSessionList(rows, { workspaceFolders: [], now: NOW, stateOf: () => state })
			.flatMap((project) => project.sessions).find((session) => session.path === '/s/a2.jsonl');
		assert.equal(item('on')?.description, '1m · 12 msgs · -85%');
		assert.equal(item('on')?.liveDescription, 'live · 12 msgs · -85%', 'while a Pi holds it, live says more than its age');
		// Both measures, named, in their order; never "reclaims -85%" (a negative reclaim).
		assert.ok(item('on')?.details.includes('Sent with pi-condense\'s entries: Conversation (pi-condense\'s figure): 100.0k → 15.0k tokens, 85% less; Whole request (with the system prompt): 100.0k → 15.0k tokens, 85% less'), item('on')?.details.join('\n'));
		assert.ok(!item('on')?.details.some((line) => /reclaims? -/.test(line)));
		assert.equal(item('off')?.description, '1m · 12 msgs · -85% if on');
		assert.ok(item('off')?.details.includes('Pruning is off: the model gets the whole context. With pruning on: Conversation (pi-condense\'s figure): 100.0k → 15.0k tokens, 85% less; Whole request (with the system prompt): 100.0k → 15.0k tokens, 85% less'));
		assert.equal(item('not-installed')?.description, '1m · 12 msgs · -85% if installed');
		assert.ok(item('not-installed')?.details.some((line) => line.startsWith('Pi has no pi-condense: the model gets the whole context.')));
		assert.equal(item(undefined)?.description, '1m · 12 msgs', 'no figure before the row\'s state is known');
	});

	it('never shows -0%', () => {
		const tiny = [row('/s/t.jsonl', '/w', NOW, { reclaim: { kind: 'measured', beforeChars: 400_000, afterChars: 399_000 } })];
		const [project] = buildSessionList(tiny, { workspaceFolders: [], now: NOW, stateOf: () => 'on' });
		assert.equal(project?.sessions[0]?.description, 'now');
		assert.equal(reclaimPercent({ kind: 'measured', beforeChars: 400_000, afterChars: 399_000 }), undefined);
	});

	it('names projects by the shortest end of their folder no other project shares', () => {
		const named = [
			row('/s/1.jsonl', '/home/me/work/api/project', NOW), row('/s/2.jsonl', '/home/me/work/web/project', NOW),
			row('/s/3.jsonl', '/srv/project', NOW), row('/s/4.jsonl', '/home/me/tools', NOW), row('/s/5.jsonl', '', NOW),
			row('/s/6.jsonl', '/a/x/same', NOW), row('/s/7.jsonl', '/b/x/same', NOW),
		];
		const labels = new Map(buildSessionList(named, { workspaceFolders: [], now: NOW }).map((project) => [project.cwd, project.label]));
		assert.equal(labels.get('/home/me/work/api/project'), 'api/project');
		assert.equal(labels.get('/home/me/work/web/project'), 'web/project');
		assert.equal(labels.get('/srv/project'), 'srv/project');
		assert.equal(labels.get('/home/me/tools'), 'tools');
		assert.equal(labels.get(''), '(no project folder)');
		assert.equal(labels.get('/a/x/same'), 'a/x/same');
		assert.equal(labels.get('/b/x/same'), 'b/x/same');
	});

	it('tells same-titled sessions of a project apart by their start time (and id when that is the same too)', () => {
		const header = (path: string, id: string, timestamp: string): SessionRow => {
			const base = row(path, '/w', NOW, { summary: summarized('Fix the build', 3, NOW) });
			return { ...base, file: { ...base.file, header: { type: 'session', id, timestamp, cwd: '/w' } } };
		};
		const same = [
			header('/s/x.jsonl', 'aaaaaaaa-1', '2026-05-30T09:15:00Z'), header('/s/y.jsonl', 'bbbbbbbb-2', '2026-05-31T18:40:00Z'),
			header('/s/z.jsonl', 'cccccccc-3', '2026-05-31T18:40:00Z'), row('/s/other.jsonl', '/w', NOW, { summary: summarized('Other', 1, NOW) }),
		];
		const sessions = buildSessionList(same, { workspaceFolders: [], now: NOW }).flatMap((project) => project.sessions);
		assert.deepEqual(sessions.map((session) => session.label).sort(), ['Fix the build · 2026-05-30 09:15', 'Fix the build · 2026-05-31 18:40 · bbbbbbbb', 'Fix the build · 2026-05-31 18:40 · cccccccc', 'Other']);
		assert.deepEqual(sessions.map((session) => [session.title, session.distinction]).sort(), [['Fix the build', ' · 2026-05-30 09:15'], ['Fix the build', ' · 2026-05-31 18:40 · bbbbbbbb'], ['Fix the build', ' · 2026-05-31 18:40 · cccccccc'], ['Other', '']]);
	});

	it('keeps the captured order when activity changes (a summary read after an expand), and puts what is new first', () => {
		const before = buildSessionList(rows, { workspaceFolders: [], now: NOW });
		const order = captureOrder(before);
		// The summary of c1 arrives: Pi's own time makes it the newest of all, which used to move its project to the top.
		const later = rows.map((r) => (r.file.path === '/s/c1.jsonl' ? { ...r, summary: summarized('Old one', 2, NOW) } : r));
		const labelsOf = (projects: readonly { label: string }[]): string[] => projects.map((project) => project.label);
		assert.deepEqual(labelsOf(buildSessionList(later, { workspaceFolders: [], now: NOW, order })), labelsOf(before));
		assert.deepEqual(labelsOf(buildSessionList(later, { workspaceFolders: [], now: NOW })), ['other', ...labelsOf(before).filter((label) => label !== 'other')], 'without the captured order it would move');
		const added = [...later, row('/s/n1.jsonl', '/work/new', NOW - 5_000_000)];
		assert.equal(buildSessionList(added, { workspaceFolders: [], now: NOW, order })[0]?.label, 'new', 'a project the capture did not see comes first');
	});

	it('filters by name, first message, folder or file name, case-insensitively', () => {
		const paths = (filter: string): string[] => buildSessionList(rows, { workspaceFolders: [], now: NOW, filter }).flatMap((project) => project.sessions.map((session) => session.path));
		assert.deepEqual(paths('LOGIN'), ['/s/a2.jsonl']);
		assert.deepEqual(paths('named'), ['/s/b1.jsonl']);
		assert.deepEqual(paths('other'), ['/s/c1.jsonl']);
		assert.deepEqual(paths('nothing like it'), []);
	});

	it('chooses the workspace\'s newest session by default, or the newest of all without a workspace', () => {
		assert.equal(defaultSession(buildSessionList(rows, { workspaceFolders: ['/work/app'], now: NOW }), true), '/s/a2.jsonl');
		assert.equal(defaultSession(buildSessionList(rows, { workspaceFolders: [], now: NOW }), false), '/s/b1.jsonl');
		assert.equal(defaultSession(buildSessionList(rows, { workspaceFolders: ['/elsewhere'], now: NOW }), true), undefined);
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

	it('says an age in a few letters, in the unit the words use', () => {
		const ages: [number, string, string][] = [
			[5_000, 'now', 'now'], [-60_000, 'now', 'now'], [50_000, '1m', '1 minute ago'], [3 * 3_600_000, '3h', '3 hours ago'],
			[86_400_000, '1d', 'yesterday'], [86_400_000 * 4, '4d', '4 days ago'], [86_400_000 * 40, '1mo', 'last month'], [86_400_000 * 800, '2y', '2 years ago'],
		];
		for (const [age, letters, words] of ages) {
			assert.equal(compactAge(NOW - age, NOW), letters);
			assert.equal(relativeTime(NOW - age, NOW), words);
		}
	});
});
