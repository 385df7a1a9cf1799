/**
 * The Pi process check: the argv matcher, the macOS output parsers, and on Linux real processes
 * (fake Pi command lines, a process titled `pi` like Pi's CLI, and Pi 0.73.1 itself in RPC mode)
 * started in the session's working directory; the writer must refuse while they run and write
 * once they are gone.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, openSync, closeSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { detectPiHolders, looksLikePi, writeEntriesToSession, type PiHolderReport } from '../../../../src/node/write';
import { parseLsofNames, parsePsListing } from '../../../../src/node/write/macPiHolders';
import { repoRoot } from '../../../support/paths';
import { SessionBuilder, text } from '../../../support/sessionBuilder';
import { read, TempDir } from '../../../support/tempSession';
import { testWork } from '../../../support/testWork';

describe('write: Pi process matcher', () => {
	it('recognises Pi by title, executable name or package path', () => {
		const pi: string[][] = [
			['pi'],
			['/usr/local/bin/pi', '--continue'],
			['node', '/usr/lib/node_modules/@mariozechner/pi-coding-agent/dist/cli.js'],
			['node', '/home/u/.npm/_npx/1/node_modules/@earendil-works/pi-coding-agent/dist/cli.js', '-c'],
			['bun', '/home/u/.bun/bin/pi'],
			['C:\\Program Files\\nodejs\\node.exe', 'C:\\Users\\me\\AppData\\Roaming\\npm\\pi.cmd'],
		];
		for (const argv of pi) {
			assert.equal(looksLikePi(argv), true, argv.join(' '));
		}
		assert.equal(looksLikePi(['node', 'x'], 'pi\n'), true);
	});

	it('does not mistake look-alikes for Pi', () => {
		const others: string[][] = [
			['node', '/work/main/node_modules/.bin/mocha'],
			['python3', '-m', 'pip', 'install'],
			['/usr/bin/pip'],
			['vim', 'notes-pi.txt'],
			['node', 'pipeline.js'],
			['code', '--type=extensionHost'],
		];
		for (const argv of others) {
			assert.equal(looksLikePi(argv, 'node'), false, argv.join(' '));
		}
	});

	it('parses ps and lsof output (macOS)', () => {
		assert.deepEqual(parsePsListing('  101 /sbin/launchd\n 4242 pi  \n 77 node /x/pi-coding-agent/dist/cli.js -c\n'), [
			{ pid: 101, args: '/sbin/launchd' },
			{ pid: 4242, args: 'pi' },
			{ pid: 77, args: 'node /x/pi-coding-agent/dist/cli.js -c' },
		]);
		assert.deepEqual([...parseLsofNames('p4242\nfcwd\nn/Users/me/proj\np77\nfcwd\nn/tmp\n')], [[4242, ['/Users/me/proj']], [77, ['/tmp']]]);
	});
});

const linuxOnly = process.platform === 'linux' ? describe : describe.skip;

linuxOnly('write: Pi process check on this Linux machine (real processes)', function () {
	this.timeout(60000);
	let dir: TempDir;
	let project: string;
	let session: string;
	let sessionText: string;
	const children: ChildProcess[] = [];

	beforeEach(() => {
		dir = new TempDir();
		project = join(dir.path, 'project');
		mkdirSync(project);
		const builder = new SessionBuilder({ cwd: project });
		builder.user('hello');
		builder.assistant([text('hi')]);
		sessionText = builder.text();
		session = dir.file('session.jsonl', sessionText);
	});
	afterEach(async () => {
		await Promise.all(children.splice(0).map(stop));
		dir.remove();
	});

	/** Starts `node <script> ...args` and waits until /proc shows its final command line. */
	async function start(script: string, cwd: string, ready: (cmdline: string) => boolean, args: string[] = [], env: NodeJS.ProcessEnv = process.env): Promise<ChildProcess> {
		const child = spawn(process.execPath, [script, ...args], { cwd, env, stdio: ['pipe', 'ignore', 'ignore'] });
		children.push(child);
		await until(() => {
			try {
				return ready(readFileSync(`/proc/${child.pid}/cmdline`, 'utf8').replaceAll('\0', ' '));
			} catch {
				return false;
			}
		}, `process ${child.pid} did not start`);
		return child;
	}

	function idleScript(path: string, title?: string): string {
		mkdirSync(join(path, '..'), { recursive: true });
		writeFileSync(path, `${title === undefined ? '' : `process.title = ${JSON.stringify(title)};\n`}setInterval(() => undefined, 1000);\n`);
		return path;
	}

	async function expectRefusedThenWritten(child: ChildProcess): Promise<void> {
		const report = await detectPiHolders({ sessionPath: session, cwd: project });
		assert.ok(holds(report, child), JSON.stringify(report));
		const refused = await writeEntriesToSession(testWork, session, [{ type: 'custom', customType: 'probe' }], { maxWaitMs: 0 });
		assert.equal(refused.kind, 'refused');
		assert.equal(refused.kind === 'refused' && refused.refusal.code, 'pi-running');
		assert.match(refused.kind === 'refused' ? refused.refusal.message : '', new RegExp(`pid ${child.pid}`));
		assert.equal(read(session), sessionText);
		await stop(child);
		const written = await writeEntriesToSession(testWork, session, [{ type: 'custom', customType: 'probe' }], { maxWaitMs: 0 });
		assert.equal(written.kind, 'written', written.kind === 'refused' ? written.refusal.message : written.kind);
	}

	it('refuses while `node …/node_modules/@mariozechner/pi-coding-agent/dist/cli.js` runs in the session\'s cwd', async () => {
		const script = idleScript(join(dir.path, 'x/node_modules/@mariozechner/pi-coding-agent/dist/cli.js'));
		await expectRefusedThenWritten(await start(script, project, (cmd) => cmd.includes('pi-coding-agent')));
	});

	it('refuses while a program named `pi` runs there', async () => {
		const script = idleScript(join(dir.path, 'bin/pi'));
		await expectRefusedThenWritten(await start(script, project, (cmd) => cmd.includes('bin/pi')));
	});

	it('refuses while a process titled `pi` (as Pi\'s CLI sets itself) runs there', async () => {
		const script = idleScript(join(dir.path, 'agent.js'), 'pi');
		await expectRefusedThenWritten(await start(script, project, (cmd) => cmd.trim() === 'pi'));
	});

	it('refuses while the real Pi 0.73.1 CLI runs there (RPC mode, no session, private agent dir)', async () => {
		const cli = join(repoRoot, 'node_modules/@mariozechner/pi-coding-agent/dist/cli.js');
		const agentDir = join(dir.path, 'agent');
		mkdirSync(agentDir);
		const child = await start(cli, project, (cmd) => cmd.trim() === 'pi', ['--mode', 'rpc', '--no-session'], { ...process.env, PI_CODING_AGENT_DIR: agentDir });
		await expectRefusedThenWritten(child);
	});

	it('ignores Pi in other directories and non-Pi processes in this one, but not Pi holding the file open', async () => {
		const elsewhere = join(dir.path, 'elsewhere');
		mkdirSync(elsewhere);
		const piElsewhere = await start(idleScript(join(dir.path, 'a/pi')), elsewhere, (cmd) => cmd.includes('a/pi'));
		const notPi = await start(idleScript(join(dir.path, 'editor.js')), project, (cmd) => cmd.includes('editor.js'));
		const report = await detectPiHolders({ sessionPath: session, cwd: project });
		assert.ok(!holds(report, piElsewhere) && !holds(report, notPi), JSON.stringify(report));
		const holderScript = join(dir.path, 'b/pi');
		mkdirSync(join(dir.path, 'b'));
		writeFileSync(holderScript, `require('node:fs').openSync(${JSON.stringify(session)}, 'a'); setInterval(() => undefined, 1000);\n`);
		const opener = await start(holderScript, elsewhere, (cmd) => cmd.includes('b/pi'));
		await until(async () => holds(await detectPiHolders({ sessionPath: session, cwd: project }), opener), 'the open file was not seen');
		const withOpener = await detectPiHolders({ sessionPath: session, cwd: project });
		assert.deepEqual(withOpener.holders.filter((holder) => holder.pid === opener.pid).map((holder) => holder.why), ['file-open']);
	});

	it('never counts its own process', async () => {
		const fd = openSync(session, 'r');
		try {
			const report = await detectPiHolders({ sessionPath: session, cwd: process.cwd() });
			assert.ok(!report.holders.some((holder) => holder.pid === process.pid));
		} finally {
			closeSync(fd);
		}
	});
});

function holds(report: PiHolderReport, child: ChildProcess): boolean {
	return report.holders.some((holder) => holder.pid === child.pid);
}

async function until(condition: () => boolean | Promise<boolean>, message: string): Promise<void> {
	for (let tries = 0; tries < 400; tries++) {
		if (await condition()) {
			return;
		}
		await new Promise((done) => setTimeout(done, 25));
	}
	throw new Error(message);
}

function stop(child: ChildProcess): Promise<void> {
	if (child.exitCode !== null || child.signalCode !== null) {
		return Promise.resolve();
	}
	return new Promise((done) => {
		child.once('exit', () => done());
		child.kill();
	});
}
