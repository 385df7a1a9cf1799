/**
 * The command line follows the pi-condense release Pi loads for the session's project, says which
 * in `status`, and takes `--release` instead.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../support/paths';
import { installNpm, writeJson, writeSettings } from '../../support/piInstall';
import { SessionBuilder } from '../../support/sessionBuilder';
import { useTempDir } from '../../support/tempDirs';
import { machinePiEnv } from '../../support/machinePi';

const CLI = join(repoRoot, 'dist', 'cli.js');
/** 2.7.0+ follow the footer with `/pruner status`'s context block, pruning on or off (an empty session: all 0). */
const CONTEXT_291 = '  --- context ---\n  thinking:     0 tokens (open segment)\n  chain share:  0%\n  frontier gap: 0 tokens\n';

describe('the command line and the installed pi-condense release', () => {
	const temp = useTempDir('cli-release');
	const home = () => join(temp(), 'home');
	const agentDir = () => join(home(), '.pi', 'agent');
	const project = () => join(home(), 'work', 'app');

	/** A session of `project()`, and the CLI run with HOME and the agent dir of a user's machine. */
	function run(...args: string[]): { code: number | null; stdout: string; stderr: string } {
		const session = join(temp(), 'session.jsonl');
		writeFileSync(session, new SessionBuilder({ cwd: project() }).text());
		// npm_config_prefix keeps npm's global folder (Pi's legacy location) inside the test.
		const env = machinePiEnv({ ...process.env, HOME: home(), PI_CODING_AGENT_DIR: '' }, temp());
		const result = spawnSync(process.execPath, [CLI, args[0] ?? '', session, '--agent-dir', agentDir(), ...args.slice(1)], { encoding: 'utf8', env });
		return { code: result.status, stdout: result.stdout, stderr: result.stderr };
	}

	beforeEach(() => {
		mkdirSync(project(), { recursive: true });
		installNpm(agentDir(), '2.9.1');
		writeSettings(agentDir(), { packages: ['npm:pi-condense'] });
	});

	it('prints the release line in status: the copy Pi loads and where it was found', () => {
		const { code, stdout, stderr } = run('status');
		assert.equal(code, 0);
		assert.equal(stdout, `prune: OFF\n${CONTEXT_291}pi-condense 2.9.1 (npm, ~/.pi/agent/npm/node_modules/pi-condense)\n`);
		assert.equal(stderr, '');
	});

	it('follows the session\'s project when Pi trusts it', () => {
		installNpm(join(project(), '.pi'), '2.4.0');
		writeSettings(join(project(), '.pi'), { packages: ['npm:pi-condense@2.4.0'] });
		writeJson(join(agentDir(), 'trust.json'), { [project()]: true });
		assert.equal(run('status').stdout, 'prune: OFF\npi-condense 2.4.0 (project npm, ~/work/app/.pi/npm/node_modules/pi-condense)\n');
	});

	it('takes --release X.Y.Z (and --release auto) instead of the installed copy', () => {
		assert.equal(run('status', '--release', '2.4.0').stdout, 'prune: OFF\npi-condense 2.4.0 (--release; installed: pi-condense 2.9.1)\n');
		assert.equal(run('status', '--release', 'auto').stdout, `prune: OFF\n${CONTEXT_291}pi-condense 2.9.1 (npm, ~/.pi/agent/npm/node_modules/pi-condense)\n`);
		assert.equal(run('tree', '--release', '2.0.0').code, 0);
	});

	it('rejects an unknown release, listing the known ones', () => {
		const wrong = run('status', '--release', '2.10.0');
		assert.equal(wrong.code, 2);
		assert.match(wrong.stderr, /--release: unknown pi-condense release "2\.10\.0": use auto or one of 2\.0\.0, 2\.0\.1, .*, 2\.9\.1\n/);
		const missing = run('status', '--release');
		assert.equal(missing.code, 2);
		assert.match(missing.stderr, /--release needs a value: auto or one of 2\.0\.0, /);
	});

	it('says when nothing is installed, and warns about a copy newer than it knows', () => {
		installNpm(agentDir(), '2.11.3');
		const newer = run('status');
		assert.equal(newer.stdout, `prune: OFF\n${CONTEXT_291}pi-condense 2.11.3 as 2.9.1 (npm, ~/.pi/agent/npm/node_modules/pi-condense)\n`);
		assert.match(newer.stderr, /^pi-condense: warning: pi-condense 2\.11\.3 is newer than the newest release this extension knows; it is followed as 2\.9\.1/);
		writeSettings(agentDir(), {});
		assert.equal(run('status').stdout, 'prune: OFF\npi-condense not installed in Pi (pi install npm:pi-condense)\n');
	});
});
