import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SessionRoot } from '../../../../src/node/sessions/sessionLocations';
import { discoverSessions } from '../../../../src/node/sessions/discoverSessions';
import { FIRST_LINE_MAX_BYTES, firstLineOf } from '../../../../src/node/sessions/firstLine';
import { SessionSummaryCache } from '../../../../src/node/sessions/summaryCache';
import { loadPi } from '../../../support/pi';
import { realSessionFiles } from '../../../support/paths';
import { SessionBuilder } from '../../../support/sessionBuilder';
import { useTempDir } from '../../../support/tempDirs';

function session(cwd: string, id: string, userText: string, extra: Record<string, unknown> = {}): string {
	const builder = new SessionBuilder({ id, cwd, ...extra });
	builder.user(userText);
	builder.assistant([{ type: 'text', text: 'ok' }]);
	return builder.text();
}

describe('discoverSessions', () => {
	const temp = useTempDir('discover');

	function perProjectRoot(): SessionRoot {
		return { path: join(temp(), 'agent', 'sessions'), layout: 'per-project', source: 'default' };
	}

	function write(path: string, content: string): string {
		mkdirSync(join(path, '..'), { recursive: true });
		writeFileSync(path, content);
		return path;
	}

	it('lists every session in the project folders with its header, trusting the header cwd over the lossy folder name', async () => {
		const root = perProjectRoot();
		const lossy = join(root.path, '--a-b-c--');
		write(join(lossy, 's1.jsonl'), session('/a/b-c', 'id-1', 'one'));
		write(join(lossy, 's2.jsonl'), session('/a-b/c', 'id-2', 'two', { parentSession: '/x/s1.jsonl' }));
		write(join(root.path, '--other--', 's3.jsonl'), session('/other', 'id-3', 'three'));
		write(join(root.path, 'loose.jsonl'), session('/loose', 'id-4', 'not in a project folder')); // Pi's listAll skips it too
		write(join(lossy, 'notes.txt'), 'not a session');
		mkdirSync(join(lossy, 'dir.jsonl'));

		const result = await discoverSessions([root]);
		const byId = new Map(result.sessions.map((s) => [s.header.id, s]));
		assert.deepEqual([...byId.keys()].sort(), ['id-1', 'id-2', 'id-3']);
		assert.equal(byId.get('id-1')?.header.cwd, '/a/b-c');
		assert.equal(byId.get('id-2')?.header.cwd, '/a-b/c');
		assert.equal(byId.get('id-2')?.header.parentSession, '/x/s1.jsonl');
		assert.equal(byId.get('id-1')?.header.version, 3);
		assert.ok((byId.get('id-3')?.size ?? 0) > 0 && (byId.get('id-3')?.mtimeMs ?? 0) > 0);
		assert.deepEqual(result.unlisted, []);
		assert.deepEqual(result.searched, [{ root, exists: true, fileCount: 3 }]);
	});

	it('reports files without a valid header instead of throwing', async () => {
		const root = perProjectRoot();
		const folder = join(root.path, '--p--');
		write(join(folder, 'empty.jsonl'), '');
		write(join(folder, 'garbage.jsonl'), 'not json\n{"type":"session","id":"x"}\n');
		write(join(folder, 'message-first.jsonl'), '{"type":"message","id":"a"}\n');
		write(join(folder, 'half.jsonl'), '{"type":"session","id":"x","cwd":"/p"');
		write(join(folder, 'huge-first-line.jsonl'), `{"type":"session","id":"x","cwd":"${'p'.repeat(FIRST_LINE_MAX_BYTES)}"}\n`);
		const result = await discoverSessions([root]);
		assert.deepEqual(result.sessions, []);
		const reasons = Object.fromEntries(result.unlisted.map((u) => [u.path.slice(folder.length + 1), u.reason]));
		assert.deepEqual(reasons, {
			'empty.jsonl': 'the file is empty',
			'garbage.jsonl': 'line 1 is not valid JSON',
			'message-first.jsonl': 'line 1 is not a session header (a JSON object with type "session" and a string id)',
			'half.jsonl': 'line 1 is not complete yet (no newline)',
			'huge-first-line.jsonl': 'line 1 is longer than 64 KB',
		});
	});

	it('scans a flat folder directly, and says when a folder does not exist', async () => {
		const flat: SessionRoot = { path: join(temp(), 'flat'), layout: 'flat', source: 'global-settings' };
		write(join(flat.path, 'a.jsonl'), session('/p', 'flat-1', 'x'));
		write(join(flat.path, '--sub--', 'b.jsonl'), session('/p', 'flat-2', 'y'));
		const missing = perProjectRoot();
		const result = await discoverSessions([flat, missing]);
		assert.deepEqual(result.sessions.map((s) => s.header.id), ['flat-1']);
		assert.deepEqual(result.searched.map((s) => [s.exists, s.fileCount]), [[true, 1], [false, 0]]);
	});

	it('reads a header longer than the first 4 KB read (up to 64 KB)', async () => {
		const root = perProjectRoot();
		const longCwd = `/${'deep/'.repeat(3000)}`;
		write(join(root.path, '--long--', 'long.jsonl'), session(longCwd, 'long', 'x'));
		const result = await discoverSessions([root]);
		assert.equal(result.sessions[0]?.header.cwd, longCwd);
	});

	it('skips blank lines and a byte-order mark before the header, as Pi\'s reader does', () => {
		const read = firstLineOf(Buffer.from('\n  \n\uFEFF{"type":"session"}\n{"next":1}\n'), false);
		assert.equal(read.kind, 'line');
		assert.ok(read.kind === 'line' && read.text === '{"type":"session"}');
	});

	it('matches Pi\'s own session list (listAll): ids, cwd, name, first message, message count, modified', async () => {
		const pi = await loadPi();
		const agentDir = join(temp(), 'agent');
		const root = perProjectRoot();
		for (const [index, file] of realSessionFiles().entries()) {
			const folder = join(root.path, `--project-${index % 2}--`);
			mkdirSync(folder, { recursive: true });
			copyFileSync(file, join(folder, `${index}.jsonl`));
		}
		const named = new SessionBuilder({ id: 'named', cwd: '/named' });
		named.message({ role: 'user', content: [{ type: 'image', data: 'AA', mimeType: 'image/png' }] });
		named.user('first words');
		named.entry({ type: 'session_info', name: ' Named ' });
		write(join(root.path, '--named--', 'named.jsonl'), named.text());
		write(join(root.path, '--named--', 'no-messages.jsonl'), new SessionBuilder({ id: 'quiet', cwd: '/named' }).text());

		const saved = process.env.PI_CODING_AGENT_DIR;
		process.env.PI_CODING_AGENT_DIR = agentDir;
		let piList: Awaited<ReturnType<typeof pi.SessionManager.listAll>>;
		try {
			piList = await pi.SessionManager.listAll();
		} finally {
			if (saved === undefined) {
				delete process.env.PI_CODING_AGENT_DIR;
			} else {
				process.env.PI_CODING_AGENT_DIR = saved;
			}
		}
		const { sessions } = await discoverSessions([root]);
		const cache = new SessionSummaryCache();
		const ours = await Promise.all(sessions.map(async (s) => {
			const { summary, modified } = await cache.summarize(s.path);
			return {
				path: s.path, id: s.header.id, cwd: s.header.cwd, name: summary.name, parentSessionPath: s.header.parentSession,
				firstMessage: summary.firstUserMessage ?? '(no messages)', messageCount: summary.messageCount, modified,
			};
		}));
		const theirs = piList.map((info) => ({
			path: info.path, id: info.id, cwd: info.cwd, name: info.name, parentSessionPath: info.parentSessionPath,
			firstMessage: info.firstMessage, messageCount: info.messageCount, modified: info.modified.getTime(),
		}));
		const byPath = (a: { path: string }, b: { path: string }): number => a.path.localeCompare(b.path);
		assert.equal(ours.length, realSessionFiles().length + 2);
		assert.deepEqual(ours.sort(byPath), theirs.sort(byPath));
	});
});
