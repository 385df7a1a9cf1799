// Loads a bridge folder (a .vsix's dist/bridge, as Connect copies it) into a real Pi 1.6.0 in RPC mode, on a
// throwaway agent dir, and waits for its discovery record: the packaged bridge really runs in Pi. Pi's stdin is
// then closed (its orderly quit), which must remove the record again.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempDir, projectRoot, removeDir, sleep } from './lib.mjs';
import { ensurePiNode } from './piNode.mjs';

const piCli = join(projectRoot, 'node_modules', '@earendil-works', 'pi-coding-agent', 'dist', 'bundle', 'cli.js');

export async function checkBridgeLoadsInPi(bridgeDir) {
	const node = ensurePiNode(projectRoot).nodeBin;
	const temp = makeTempDir('pi-condense-bridge-check-');
	try {
		const agentDir = join(temp, 'agent');
		const runtimeDir = join(temp, 'run');
		mkdirSync(runtimeDir, { mode: 0o700 });
		cpSync(bridgeDir, join(agentDir, 'pi-condense-vscode-bridge'), { recursive: true });
		writeFileSync(join(agentDir, 'settings.json'), JSON.stringify({ packages: ['./pi-condense-vscode-bridge'] }));
		const env = { ...process.env, PI_CODING_AGENT_DIR: agentDir, XDG_RUNTIME_DIR: runtimeDir, PI_OFFLINE: '1', PI_SKIP_VERSION_CHECK: '1', PI_TELEMETRY: '0' };
		const pi = spawn(node, [piCli, '--mode', 'rpc', '--no-session'], { cwd: temp, env, stdio: ['pipe', 'ignore', 'pipe'] });
		let stderr = '';
		pi.stderr.on('data', (chunk) => (stderr += chunk));
		const exited = new Promise((resolve) => pi.once('exit', resolve));
		const folder = join(runtimeDir, 'pi-condense-vscode');
		const record = join(folder, `${pi.pid}.json`);
		for (let waited = 0; !existsSync(record); waited += 100) {
			if (waited > 30_000 || pi.exitCode !== null) {
				pi.kill('SIGKILL');
				throw new Error(`the packaged bridge wrote no record in a real Pi within 30 s${stderr ? `; Pi said: ${stderr.slice(-1000)}` : ''}`);
			}
			await sleep(100);
		}
		pi.stdin.end();
		await exited;
		const left = readdirSync(folder);
		if (left.length > 0) {
			throw new Error(`Pi quit but left ${left.join(', ')} in the bridge's folder`);
		}
		return `${record} written by Pi ${pi.pid} and removed when it quit`;
	} finally {
		removeDir(temp);
	}
}
