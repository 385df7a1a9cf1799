// Installs code-server from npm into its own folder (its own package.json, so it never enters the
// extension's dependencies) with no network but the npm registry:
//   phase 1  npm install --ignore-scripts        download only
//   seed     @vscode/ripgrep's download cache with Debian's rg (its postinstall would fetch rg from GitHub)
//   phase 2  npm rebuild --unsafe-perm           code-server's postinstall npm-installs lib/vscode, builds natives
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { arch } from 'node:os';
import { delimiter, join } from 'node:path';

const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));

/**
 * Our environment without what an outer `npm test` exports to the script it runs (the user's own npm_config_*
 * settings, such as a registry, stay). The inner npm would take them as its own: `npm_config_user_agent` names
 * the outer npm's Node, and code-server's postinstall reads its Node version from there ("code-server currently
 * requires node v24 … you are on node v20", with Node 24 first on the PATH).
 */
const OUTER_NPM_RUN = /^(npm_config_user_agent|npm_config_local_prefix|npm_lifecycle_.*|npm_package_.*|npm_node_execpath|npm_execpath|npm_command|INIT_CWD|NODE)$/;
export const baseEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => !OUTER_NPM_RUN.test(name)));

function run(command, args, options, what) {
	const result = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, ...options });
	if (result.status !== 0) {
		const output = `${result.stdout ?? ''}${result.stderr ?? ''}`.trim().split('\n').slice(-60).join('\n');
		throw new Error(`${what} failed (exit ${result.status ?? result.signal}):\n${output}`);
	}
	return { stdout: result.stdout ?? '', stderr: result.stderr ?? '' };
}

const npm = (args, cwd, env, what, loglevel = 'error') => run('npm', ['--no-audit', '--no-fund', `--loglevel=${loglevel}`, ...args], { cwd, env }, what);

/**
 * npm 11 warns about dependency install scripts missing from `allowScripts` (with --strict-allow-scripts it
 * fails) and documents blocking them by default; code-server cannot work without them. Decide, by name,
 * for every package the lock file marks as having install scripts: approve the runtime ones; deny the
 * dev-only ones, which code-server's postinstall never installs (--omit=dev) but strict mode still checks.
 */
function approveInstallScripts(packageDir, lockFileName) {
	const packageFile = join(packageDir, 'package.json');
	const decisions = new Map();
	for (const [path, entry] of Object.entries(readJson(join(packageDir, lockFileName)).packages ?? {})) {
		if (path.includes('node_modules/') && entry.hasInstallScript) {
			const name = path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
			decisions.set(name, decisions.get(name) === true || !entry.dev);
		}
	}
	const manifest = readJson(packageFile);
	manifest.allowScripts = Object.fromEntries([...decisions].sort(([a], [b]) => a.localeCompare(b)));
	writeFileSync(packageFile, JSON.stringify(manifest, null, '\t') + '\n');
}

/** code-server pins one Node major (engines.node); fetch that Node from npm when ours differs. */
function nodeFor(dir, wantedMajor, say) {
	if (process.versions.node.split('.')[0] === wantedMajor) {
		return { nodeBin: process.execPath, env: {} };
	}
	const packageName = `node-linux-${arch()}`;
	say(`code-server wants Node ${wantedMajor}, this is Node ${process.versions.node}: installing ${packageName}@${wantedMajor}`);
	npm(['install', '--prefix', join(dir, 'node'), `${packageName}@${wantedMajor}`], dir, baseEnv, `npm install ${packageName}`);
	const home = join(dir, 'node', 'node_modules', packageName);
	// The package ships the headers too, so node-gyp builds against it without downloading anything.
	return { nodeBin: join(home, 'bin', 'node'), env: { PATH: join(home, 'bin') + delimiter + baseEnv.PATH, npm_config_nodedir: home } };
}

/**
 * Puts Debian's rg where @vscode/ripgrep's postinstall looks for an earlier download (under $TMPDIR).
 * Returns whether this VS Code needed it.
 */
function seedRipgrepCache(dir, tmpDir, say) {
	const shrinkwrap = readJson(join(dir, 'node_modules', 'code-server', 'lib', 'vscode', 'npm-shrinkwrap.json'));
	const version = shrinkwrap.packages?.['node_modules/@vscode/ripgrep']?.version;
	if (!version) {
		return false; // newer VS Code ships @vscode/ripgrep-universal with its binaries inside
	}
	const work = join(dir, 'ripgrep-seed');
	mkdirSync(join(work, 'bin'), { recursive: true });
	npm(['pack', '--silent', `@vscode/ripgrep@${version}`], work, baseEnv, 'npm pack @vscode/ripgrep');
	run('tar', ['xzf', `vscode-ripgrep-${version}.tgz`], { cwd: work }, 'unpacking @vscode/ripgrep');
	const postinstall = readFileSync(join(work, 'package', 'lib', 'postinstall.js'), 'utf8');
	const tag = /const VERSION = '([^']+)'/.exec(postinstall)?.[1];
	if (!tag) {
		throw new Error(`cannot read the ripgrep release tag from @vscode/ripgrep@${version}`);
	}
	const target = { x64: 'x86_64-unknown-linux-musl', arm64: 'aarch64-unknown-linux-musl' }[arch()];
	if (!target) {
		throw new Error(`no ripgrep seeding for CPU ${arch()}`);
	}
	const rg = run('sh', ['-c', 'command -v rg'], {}, 'finding rg').stdout.trim();
	cpSync(rg, join(work, 'bin', 'rg'));
	const cache = join(tmpDir, `vscode-ripgrep-cache-${version}`);
	mkdirSync(cache, { recursive: true });
	const asset = join(cache, `ripgrep-${tag}-${target}.tar.gz`);
	run('tar', ['czf', asset, '-C', join(work, 'bin'), 'rg'], {}, 'packing rg');
	rmSync(work, { recursive: true, force: true });
	say(`seeded ${asset} with ${rg}`);
	return true;
}

/** Installs code-server `version` into `dir` (empty); returns the Node binary it must run on. */
export function installCodeServer(dir, version, say) {
	writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'pi-condense-code-server', private: true }, null, '\t') + '\n');
	say(`npm install --ignore-scripts code-server@${version}`);
	npm(['install', '--ignore-scripts', '--save-exact', `code-server@${version}`], dir, baseEnv, 'npm install code-server');
	const codeServer = join(dir, 'node_modules', 'code-server');
	const { nodeBin, env: nodeEnv } = nodeFor(dir, String(readJson(join(codeServer, 'package.json')).engines?.node ?? ''), say);
	approveInstallScripts(dir, 'package-lock.json');
	// code-server's postinstall runs `npm install` in these two folders: approve their scripts there too.
	approveInstallScripts(join(codeServer, 'lib', 'vscode'), 'npm-shrinkwrap.json');
	approveInstallScripts(join(codeServer, 'lib', 'vscode', 'extensions'), 'npm-shrinkwrap.json');
	// A TMPDIR of our own: the ripgrep cache must be where the postinstall looks, and /tmp stays clean.
	const tmpDir = join(dir, 'tmp');
	mkdirSync(tmpDir, { recursive: true });
	const seededRipgrep = seedRipgrepCache(dir, tmpDir, say);
	say('npm rebuild --unsafe-perm (code-server postinstall: VS Code dependencies, native modules)');
	// npm_config_yes: node-pty's script runs `npx node-gyp`, which a `yes=false` npmrc would cancel.
	// --unsafe-perm: npm 11 calls the flag unknown but still exports npm_config_unsafe_perm=true, which
	// code-server's postinstall.sh demands when running as root.
	const env = { ...baseEnv, ...nodeEnv, TMPDIR: tmpDir, npm_config_yes: 'true' };
	// Warnings too: the log is for reading when something in there breaks.
	const rebuild = npm(['rebuild', '--unsafe-perm', '--foreground-scripts'], dir, env, 'code-server postinstall (npm rebuild)', 'warn');
	writeFileSync(join(dir, 'rebuild.log'), rebuild.stdout + rebuild.stderr);
	const needs = ['lib/vscode/node_modules/node-pty/package.json', ...(seededRipgrep ? ['lib/vscode/node_modules/@vscode/ripgrep/bin/rg'] : [])];
	for (const needed of needs) {
		if (!existsSync(join(codeServer, needed))) {
			throw new Error(`code-server postinstall left no ${needed}; see ${join(dir, 'rebuild.log')}`);
		}
	}
	// Even --version writes a config file and log files: keep them in our tmp, out of the user's home.
	const quietEnv = { ...baseEnv, ...nodeEnv, XDG_CONFIG_HOME: tmpDir, XDG_DATA_HOME: tmpDir };
	const reported = run(nodeBin, [join(codeServer, 'out', 'node', 'entry.js'), '--version'], { env: quietEnv }, 'code-server --version').stdout;
	say(`code-server --version: ${reported.trim().split('\n').at(-1)}`);
	return nodeBin;
}
