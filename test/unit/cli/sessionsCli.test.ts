/**
 * The command line for terminal users: `list` (the sessions Pi keeps, by project, the current
 * folder's first, newest first), `--latest` and session-id prefixes wherever a session is taken,
 * `--version`, and `status` saying what is pending as VS Code does. Real built CLI, real session
 * files in a temp agent dir, run from a project folder.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pendingStatusText } from '../../../src/engine/condense';
import { repoRoot } from '../../support/paths';
import { installNpm } from '../../support/piInstall';
import { richSession } from '../../support/richSession';
import { SessionBuilder } from '../../support/sessionBuilder';

const CLI = join(repoRoot, 'dist', 'cli.js');

describe('the command line for terminal users (list, --latest, id prefixes, --version)', () => {
	let root: string;
	let agentDir: string;
	let project: string;
	const ids = {
		here1: '0f1e2d3c-1111-7000-8000-000000000001',
		here2: '0f1e9999-2222-7000-8000-000000000002',
		there: 'a1b2c3d4-3333-7000-8000-000000000003',
	};

	/** A session of `cwd` with one prompt, its file last touched `agoMs` ago. */
	function session(cwd: string, id: string, prompt: string, agoMs: number, builder = new SessionBuilder({ id, cwd })): string {
		if (builder.leafId === null) {
			builder.user(prompt);
			builder.assistant([{ type: 'text', text: 'ok' }]);
		}
		const folder = join(agentDir, 'sessions', `--${cwd.replace(/\//g, '-')}--`);
		mkdirSync(folder, { recursive: true });
		const path = join(folder, `2026-01-01T00-00-00-000Z_${id}.jsonl`);
		writeFileSync(path, builder.text());
		const at = new Date(Date.now() - agoMs);
		utimesSync(path, at, at);
		return path;
	}

	before(() => {
		root = realpathSync(mkdtempSync(join(tmpdir(), 'pi-condense-cli-sessions-')));
		agentDir = join(root, 'agent');
		project = join(root, 'work', 'api', 'project');
		mkdirSync(project, { recursive: true });
		installNpm(agentDir, '2.9.1');
		writeFileSync(join(agentDir, 'settings.json'), JSON.stringify({ packages: ['npm:pi-condense'], contextPrune: { enabled: true } }));
		session(project, ids.here1, 'Old work here', 3_600_000);
		const pending = richSession(true);
		session(project, ids.here2, 'Explore the project.', 60_000, new SessionBuilder({ id: ids.here2, cwd: project }));
		writeFileSync(join(agentDir, 'sessions', `--${project.replace(/\//g, '-')}--`, `2026-01-01T00-00-00-000Z_${ids.here2}.jsonl`),
			pending.text().replace('"id":"sess-0001"', `"id":"${ids.here2}"`).replace('"cwd":"/work/demo"', `"cwd":${JSON.stringify(project)}`));
		session(join(root, 'work', 'web', 'project'), ids.there, 'Elsewhere, newest of all', 1_000);
	});

	after(() => rmSync(root, { recursive: true, force: true }));

	function run(...args: string[]): { code: number | null; stdout: string; stderr: string } {
		const result = spawnSync(process.execPath, [CLI, ...args], { cwd: project, encoding: 'utf8', env: { ...process.env, PI_CODING_AGENT_DIR: agentDir } });
		return { code: result.status, stdout: result.stdout, stderr: result.stderr };
	}

	it('lists the sessions by project, the current folder\'s first, newest first, each with its id, activity and title', () => {
		const { code, stdout } = run('list');
		assert.equal(code, 0);
		const lines = stdout.trimEnd().split('\n');
		assert.match(lines[0] ?? '', /^api\/project \(.*work\/api\/project · this workspace\) · 2 sessions$/);
		assert.match(lines[1] ?? '', /^ {2}0f1e9999 {2}.*Explore the project\.$/);
		assert.match(lines[2] ?? '', /^ {2}0f1e2d3c {2}.*Old work here$/);
		assert.match(lines[4] ?? '', /^web\/project \(.*\) · 1 session$/);
		assert.match(lines[5] ?? '', /^ {2}a1b2c3d4 {2}.*Elsewhere, newest of all$/);
		const json = JSON.parse(run('list', '--json').stdout) as { project: string; sessions: { id: string; title: string }[] }[];
		assert.deepEqual(json.map((group) => group.sessions.map((s) => s.id)), [[ids.here2, ids.here1], [ids.there]]);
	});

	it('takes --latest as the newest session of the current folder\'s project', () => {
		const { code, stdout, stderr } = run('status', '--latest');
		assert.equal(code, 0, stderr);
		assert.match(stderr, new RegExp(`${ids.here2}\\.jsonl`));
		assert.match(stdout, /^\d+ batches pending \(/m);
	});

	it('takes the start of a session id wherever a session is taken, and says when it is ambiguous or unknown', () => {
		assert.match(run('tree', 'a1b2').stdout, /No pruned tool calls found/);
		assert.match(run('status', 'A1B2C3').stdout, /^prune: ON/, 'case does not matter');
		const ambiguous = run('status', '0f1e');
		assert.equal(ambiguous.code, 2);
		assert.match(ambiguous.stderr, /"0f1e" starts 2 session ids; give more of it:\n {2}0f1e/);
		const unknown = run('status', 'ffff');
		assert.equal(unknown.code, 2);
		assert.match(unknown.stderr, /"ffff" is neither a session file nor the start of a session id \(pi-condense list shows them\)/);
		assert.equal(run('query', '--latest', 't1').code, 0, 'with --latest every argument is a ref');
	});

	it('says what is pending in status, as VS Code\'s tooltip and preview do (pi-condense\'s own status line first, as /pruner status prints it)', () => {
		const { stdout } = run('status', '0f1e9999');
		const lines = stdout.trimEnd().split('\n');
		assert.match(lines[0] ?? '', /^prune: ON/);
		const count = Number(/^(\d+) batches pending/m.exec(stdout)?.[1]);
		assert.ok(count > 5, stdout);
		assert.match(pendingStatusText(count), /^prune: \d+ pending$/, 'the count VS Code\'s status bar shows');
		assert.match(stdout, new RegExp(`^${count} batches pending \\(\\d+ tool calls, [\\d.]+k chars of output\\): Summarize now would summarize \\d+ batches, skip \\d+ as trivial \\(below minBatchChars\\), then compress \\d+ chains, reclaiming about [\\d.]+k? tokens \\([\\d.]+k? → [\\d.]+k? tokens sent, estimate\\); run pi-condense now .*${ids.here2}\\.jsonl$`, 'm'));
	});

	it('prints its version', () => {
		const { code, stdout } = run('--version');
		assert.equal(code, 0);
		const version = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;
		assert.match(stdout, new RegExp(`^pi-condense-vscode ${version.replace(/\./g, '\\.')} \\(follows pi-condense 2\\.0\\.0–2\\.9\\.1; bundled pi-ai \\d+\\.\\d+\\.\\d+; Node v`));
	});
});
