import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { previewContextSteps } from '../../../src/engine/condense';
import { resolveConfig } from '../../../src/engine/config/resolve';
import { buildSessionContextSteps, getBranchSteps, parseSessionSteps } from '../../../src/engine/session';
import { piCondenseSessionsDir, repoRoot } from '../../support/paths';
import { machinePiEnv } from '../../support/machinePi';
import { installNpm } from '../../support/piInstall';
import { readWithPi16 } from '../../support/pi16';
import { R200, referencePiVersions, referenceReleases } from '../../support/releases';
import { runSteps } from '../../../src/engine/steps';

const CLI = join(repoRoot, 'dist', 'cli.js');
const BASIC = join(piCondenseSessionsDir, 'basic');
const NOT_INSTALLED = 'pi-condense not installed in Pi (pi install npm:pi-condense)';
const AS_200 = 'pi-condense 2.0.0 (npm, <agent dir>/npm/node_modules/pi-condense)';

/** The status text the engine gives the basic session as pi-condense 2.0.0 (the release that wrote it) with its configuration. */
function basicStatus(): string {
	const model = runSteps(parseSessionSteps(readFileSync(join(BASIC, 'session.jsonl'), 'utf8')));
	const { config } = resolveConfig(JSON.parse(readFileSync(join(BASIC, 'contextPrune.json'), 'utf8')), R200);
	return runSteps(previewContextSteps(runSteps(getBranchSteps(model)), runSteps(buildSessionContextSteps(model)).messages, config, R200)).statusText;
}

/** An agent dir with pi-condense 2.0.0 installed as `pi install npm:pi-condense` leaves it, and `settings`. */
function agentDirWith200(settings: Record<string, unknown> | string): string {
	const dir = mkdtempSync(join(tmpdir(), 'pi-condense-agent-'));
	installNpm(dir, '2.0.0');
	const json = typeof settings === 'string' ? settings : JSON.stringify({ packages: ['npm:pi-condense'], ...settings });
	writeFileSync(join(dir, 'settings.json'), json);
	return dir;
}

describe('pi-condense command line (node dist/cli.js)', () => {
	let agentDir: string;

	before(() => {
		agentDir = mkdtempSync(join(tmpdir(), 'pi-condense-cli-'));
	});

	after(() => {
		rmSync(agentDir, { recursive: true, force: true });
	});

	/** Runs the built CLI with an empty agent dir unless the arguments name one. */
	function run(...args: string[]): { code: number | null; stdout: string; stderr: string } {
		const result = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: machinePiEnv({ ...process.env, PI_CODING_AGENT_DIR: agentDir }, agentDir) });
		return { code: result.status, stdout: result.stdout, stderr: result.stderr };
	}

	const basic = (...args: string[]) => run(args[0] ?? '', join(BASIC, 'session.jsonl'), ...args.slice(1), '--config', join(BASIC, 'contextPrune.json'), '--release', '2.0.0');

	it('prints the tree of the basic session', () => {
		const { code, stdout } = run('tree', join(BASIC, 'session.jsonl'));
		assert.equal(code, 0);
		const lines = stdout.trimEnd().split('\n');
		assert.match(lines[0] ?? '', /^\[pruner\] Turn 0 summary \(2 tools · 190 chars · original 690\) · \S/);
		assert.equal(lines[1], '  bash(command="ls -la . src logs") · 649 chars');
		assert.equal(lines.filter((l) => l.startsWith('[pruner]')).length, 4);
	});

	it('prints the exact context of every reference session, as its release, with preview --json --release', async function () {
		this.timeout(120_000);
		const folders = [...referenceReleases()];
		assert.ok(folders.length >= 5);
		const piVersions = referencePiVersions();
		for (const [name, rules] of folders) {
			const folder = join(piCondenseSessionsDir, name);
			const { code, stdout } = run('preview', join(folder, 'session.jsonl'), '--json', '--config', join(folder, 'contextPrune.json'), '--release', rules.version);
			assert.equal(code, 0);
			const returned = JSON.parse(readFileSync(join(folder, 'expected-context.json'), 'utf8')) as unknown[];
			// What the model is sent: on Pi 1.x, what pi-condense returned with Pi's system messages put back by Pi 1.6.0 itself.
			const sent = piVersions.get(name)?.startsWith('1.') === true
				? (await readWithPi16([{ path: join(folder, 'session.jsonl'), sent: returned }]))[0]?.restored
				: returned;
			assert.deepEqual(JSON.parse(stdout), sent, folder);
		}
	});

	it('prints Pi\'s own context with preview --json --before', () => {
		const { stdout } = basic('preview', '--json', '--before');
		const messages = JSON.parse(stdout) as { role: string }[];
		assert.equal(messages.length, 29);
		assert.equal(messages.filter((m) => m.role === 'toolResult').length, 10);
	});

	it('prints a human-readable preview', () => {
		const { code, stdout } = basic('preview');
		assert.equal(code, 0);
		// The status line, then both measures named (no system prompt here: the two are one).
		assert.ok(stdout.startsWith(`${basicStatus()}\nConversation (pi-condense's figure): 5.1k → 1.1k tokens, 78% less\nWhole request (with the system prompt): 5.1k → 1.1k tokens, 78% less\n29 messages -> 15 messages\n`), stdout.slice(0, 240));
		assert.match(stdout, /\n {2}#1 {4}chain {6}"<compressed-chain id=\\"b1\\" tools=\\"t1,t2,t3,t4\\">/);
	});

	it('prints the raw output behind t3 with query', () => {
		const { code, stdout } = run('query', join(BASIC, 'session.jsonl'), 't3');
		assert.equal(code, 0);
		const expected = '## toolRef: t3\nTool: read\nArgs: {\n  "path": "src/app.js"\n}\nStatus: OK\nTurn: 1\n\n'
			+ "import { shout, pad } from './util.js';\n\n// Entry point of the demo project.\nfunction greet(name) {\n  return 'Hello, ' + name + '!';\n}\n\n"
			+ "export function main(argv) {\n  const who = argv[2] ?? 'world';\n  console.log(pad(shout(greet(who)), 40));\n}\n\nmain(process.argv);\n\n";
		assert.equal(stdout, expected);
	});

	it('recovers a spilled output from the session\'s blob folder', () => {
		const { stdout } = run('query', join(BASIC, 'session.jsonl'), 'call_p1_t2_0');
		const blob = readFileSync(join(BASIC, '01a22b2a-f0d9-7c01-8264-6403bf89dbdf-blobs', 'call_p1_t2_0.txt'), 'utf8');
		assert.equal(stdout, `## toolRef: call_p1_t2_0\nTool: bash\nArgs: {\n  "command": "cat logs/server.log"\n}\nStatus: OK\nTurn: 2\n\n${blob}\n`);
	});

	it('names the Pi found beside the release in status, and says when a Pi newer than the one it knows wrote the session', () => {
		const dir = agentDirWith200({ contextPrune: JSON.parse(readFileSync(join(BASIC, 'contextPrune.json'), 'utf8')) });
		try {
			const status = (session: string, version: string): string[] => {
				const result = spawnSync(process.execPath, [CLI, 'status', session, '--agent-dir', dir], { encoding: 'utf8', env: machinePiEnv({ ...process.env, PI_CODING_AGENT_DIR: dir }, dir, version) });
				assert.equal(result.status, 0, result.stderr);
				return result.stdout.trimEnd().split('\n');
			};
			assert.deepEqual(status(join(BASIC, 'session.jsonl'), '1.6.0').slice(1), [`Pi 1.6.0 · ${AS_200.replace('<agent dir>', dir)}`]);
			const newer = join(dir, 'newer.jsonl');
			const text = readFileSync(join(BASIC, 'session.jsonl'), 'utf8');
			const last = JSON.parse(text.trimEnd().split('\n').at(-1) ?? '{}') as { id: string };
			writeFileSync(newer, `${text}${JSON.stringify({ type: 'checkpoint_v2', id: 'feed0001', parentId: last.id, timestamp: '2027-01-01T00:00:00.000Z' })}\n`);
			const lines = status(newer, '1.7.0');
			assert.equal(lines[1], `Pi 1.7.0 · ${AS_200.replace('<agent dir>', dir)}`);
			assert.match(lines[2] ?? '', /^note: this session was written by a Pi newer than 1\.6\.0, the newest Pi this extension knows \(entry type "checkpoint_v2"; line 49\)$/);
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});

	it('prints the status and stats texts, reading contextPrune from --agent-dir', () => {
		const dir = agentDirWith200({ theme: 'dark', contextPrune: JSON.parse(readFileSync(join(BASIC, 'contextPrune.json'), 'utf8')) });
		try {
			const status = run('status', join(BASIC, 'session.jsonl'), '--agent-dir', dir).stdout;
			assert.equal(status, `${basicStatus()}\n${AS_200.replace('<agent dir>', dir)}\n`);
			assert.equal(basicStatus(), 'prune: ON · 5.1k->1.1k (-78%)');
			// The same settings without pi-condense in Pi: nothing is pruned.
			writeFileSync(join(dir, 'settings.json'), JSON.stringify({ contextPrune: JSON.parse(readFileSync(join(BASIC, 'contextPrune.json'), 'utf8')) }));
			assert.equal(run('status', join(BASIC, 'session.jsonl'), '--agent-dir', dir).stdout, `prune: OFF\n${NOT_INSTALLED}\n`);
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
		assert.equal(run('status', join(BASIC, 'session.jsonl')).stdout, `prune: OFF\n${NOT_INSTALLED}\n`);
		assert.equal(run('stats', join(BASIC, 'session.jsonl')).stdout,
			'pruner stats:\n  calls:       6\n  input:       1.9k tokens\n  output:      98 tokens\n  cost:        $0.000\n  chains:      2 compressed\n');
	});

	it('exits 2 with a clear message on bad usage or unreadable files', () => {
		const cases: [string[], RegExp][] = [
			[[], /missing command/],
			[['frobnicate', 'x.jsonl'], /unknown command "frobnicate"/],
			[['status'], /missing session: a session file, the start of a session id, or --latest/],
			[['list', '--latest'], /--latest does not apply to list/],
			[['query', join(BASIC, 'session.jsonl')], /query needs at least one ref/],
			[['tree', join(BASIC, 'session.jsonl'), '--json'], /--json only applies to preview, list and costs/],
			[['status', join(BASIC, 'session.jsonl'), '--frobnicate'], /unknown option --frobnicate/],
			[['status', join(BASIC, 'session.jsonl'), '--agent-dir'], /--agent-dir needs a value/],
			[['status', join(BASIC, 'session.jsonl'), '--json=yes'], /--json takes no value/],
			[['status', join(BASIC, 'missing.jsonl')], /cannot read .*missing\.jsonl/],
			[['status', join(BASIC, 'contextPrune.json')], /not a Pi session file/],
			[['status', join(BASIC, 'session.jsonl'), '--config', join(BASIC, 'nope.json')], /nope\.json cannot be read/],
			[['status', join(BASIC, 'session.jsonl'), '--config', join(BASIC, 'session.jsonl')], /not valid JSON/],
		];
		for (const [args, message] of cases) {
			const { code, stdout, stderr } = run(...args);
			assert.equal(code, 2, args.join(' '));
			assert.equal(stdout, '');
			assert.match(stderr, message);
		}
		assert.equal(run('--help').code, 0);
	});

	it('warns about invalid values and falls back to their defaults', () => {
		const dir = agentDirWith200({ contextPrune: { enabled: true, minBatchChars: -1 } });
		try {
			const { code, stdout, stderr } = run('status', join(BASIC, 'session.jsonl'), '--agent-dir', dir);
			assert.equal(code, 0);
			assert.match(stdout, /^prune: ON · /);
			assert.match(stderr, /warning: contextPrune\.minBatchChars: -1 .*using 1000/);
			writeFileSync(join(dir, 'settings.json'), '{ not json');
			const broken = run('status', join(BASIC, 'session.jsonl'), '--agent-dir', dir);
			assert.equal(broken.stdout, `prune: OFF\n${NOT_INSTALLED}\n`, 'a broken settings.json lists no packages');
			assert.match(broken.stderr, /is not valid JSON/);
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});
});
