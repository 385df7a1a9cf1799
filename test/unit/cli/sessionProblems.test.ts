/**
 * The command line names every reading problem of a session as `file:line: severity: message` on
 * stderr, says what to do about it, and still prints its answer. Before, problems were dropped
 * silently (only `preview` listed pi-condense's entry problems, without the file).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeSessionProblems } from '../../../src/cli/sessionProblems';
import { repoRoot } from '../../support/paths';
import { SessionBuilder } from '../../support/sessionBuilder';
import { useTempDir } from '../../support/tempDirs';
import { machinePiEnv } from '../../support/machinePi';

/** Where the status finds no Pi (see machinePi.ts): the test's temp folder. */
let machineDir = '';

const CLI = join(repoRoot, 'dist', 'cli.js');

function run(...args: string[]): { code: number | null; stdout: string; stderr: string } {
	const result = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: machinePiEnv({ ...process.env, PI_CODING_AGENT_DIR: join(repoRoot, 'no-agent-dir') }, machineDir) });
	return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('session problems on the command line', () => {
	const temp = useTempDir('cli-problems');
	beforeEach(() => {
		machineDir = temp();
	});

	it('prints each problem as file:line with advice, then the answer', () => {
		const builder = new SessionBuilder();
		builder.user('hello');
		builder.rawLine('{"type":"message", cut off');
		builder.entry({ type: 'custom', customType: 'context-prune-index', data: { toolCalls: 'nope' } });
		const path = join(temp(), 'broken.jsonl');
		writeFileSync(path, builder.text());
		const { code, stdout, stderr } = run('status', path);
		assert.equal(code, 0);
		assert.equal(stdout, 'prune: OFF\npi-condense not installed in Pi (pi install npm:pi-condense)\n');
		assert.match(stderr, new RegExp(`^pi-condense: ${path}:3: error: not valid JSON .*Pi skips this line$`, 'm'));
		assert.match(stderr, new RegExp(`^pi-condense: ${path}:4: warning: context-prune-index: .*skipped$`, 'm'));
		assert.match(stderr, /Keep a copy, then repair or remove those lines before resuming the session in Pi/);
		assert.match(stderr, /pi-condense entries that cannot be used are skipped/);
	});

	it('lists the problems of a file without a session header, which Pi would overwrite', () => {
		const path = join(temp(), 'headless.jsonl');
		writeFileSync(path, '{"type":"sesion","id":"x"}\n{"type":"message","id":"a","parentId":null}\n');
		const { code, stdout, stderr } = run('tree', path);
		assert.equal(code, 2);
		assert.equal(stdout, '');
		assert.match(stderr, /not a Pi session file/);
		assert.match(stderr, new RegExp(`${path}:1: error: the first entry is not a session header .*keep a copy before resuming it in Pi`));
	});

	it('prints nothing for a clean file and caps a long list', () => {
		const clean = join(temp(), 'clean.jsonl');
		writeFileSync(clean, new SessionBuilder().text());
		assert.equal(run('status', clean).stderr, '');
		const many = Array.from({ length: 30 }, (_, i) => ({ severity: 'error' as const, line: 30 - i, message: 'bad' }));
		const lines = describeSessionProblems('/s.jsonl', many);
		assert.equal(lines[0], '/s.jsonl:1: error: bad');
		assert.equal(lines[20], '/s.jsonl: … and 10 more problem(s)');
	});
});
