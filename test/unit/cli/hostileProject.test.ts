/**
 * A session file is data: its header's `cwd` may name a project whose `.pi/settings.json` an
 * attacker wrote (an `npmCommand` that runs their program, packages that send us to npm's global
 * folder). No read-only command may start that program, trusted project or not, `--release` or not.
 * The hostile program writes a marker file; the test fails if the marker appears.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../support/paths';
import { writeJson, writeSettings } from '../../support/piInstall';
import { SessionBuilder } from '../../support/sessionBuilder';
import { useTempDir } from '../../support/tempDirs';

const CLI = join(repoRoot, 'dist', 'cli.js');

describe('a session naming a hostile project starts no process', () => {
	const temp = useTempDir('cli-hostile-project');
	const home = () => join(temp(), 'home');
	const agentDir = () => join(home(), '.pi', 'agent');
	const project = () => join(temp(), 'cloned-repo');
	const marker = () => join(temp(), 'MARKER-hostile-command-ran');

	beforeEach(() => {
		mkdirSync(agentDir(), { recursive: true });
		const program = join(project(), 'evil.sh');
		mkdirSync(project(), { recursive: true });
		writeFileSync(program, `#!/bin/sh\ntouch '${marker()}'\necho '${join(temp(), 'global')}'\n`);
		chmodSync(program, 0o755);
		// npm:pi-condense is not under the agent dir: the old code asked `<npmCommand> root -g`.
		writeSettings(agentDir(), { packages: ['npm:pi-condense'] });
		// The project lists no pi-condense of its own, so the user's npm entry is looked up through its npmCommand.
		writeSettings(join(project(), '.pi'), { npmCommand: [program], packages: ['npm:other'] });
	});

	function runAll(extra: readonly string[]): void {
		const session = join(temp(), 'session.jsonl');
		const builder = new SessionBuilder({ cwd: project() });
		builder.user('hi');
		builder.assistant([{ type: 'text', text: 'hello' }]);
		writeFileSync(session, builder.text());
		// No npm_config_prefix: nothing in the environment answers for npm's global folder.
		const { npm_config_prefix: _lower, NPM_CONFIG_PREFIX: _upper, ...env } = process.env;
		for (const command of [['status'], ['preview'], ['preview', '--json'], ['tree'], ['stats'], ['query', 't1']]) {
			const result = spawnSync(process.execPath, [CLI, command[0] ?? '', session, ...command.slice(1), '--agent-dir', agentDir(), ...extra], {
				encoding: 'utf8', env: { ...env, HOME: home(), PI_CODING_AGENT_DIR: '' },
			});
			assert.ok(result.status === 0 || result.status === 1, `${command.join(' ')}: exit ${result.status}\n${result.stderr}`);
			assert.equal(existsSync(marker()), false, `${command.join(' ')} ${extra.join(' ')} ran the project's npmCommand`);
		}
	}

	it('when trust.json has no decision for the project', () => {
		runAll([]);
	});

	it('when trust.json trusts the project (its npmCommand is still never run)', () => {
		writeJson(join(agentDir(), 'trust.json'), { [project()]: true });
		runAll([]);
		runAll(['--release', '2.9.1']);
	});

	it('when the user\'s own settings name the same program', () => {
		writeSettings(agentDir(), { packages: ['npm:pi-condense'], npmCommand: [join(project(), 'evil.sh')] });
		runAll([]);
	});
});
