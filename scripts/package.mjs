#!/usr/bin/env node
// `npm run package`: a production build, then a .vsix made by @vscode/vsce from the allow-list in
// .vscodeignore (bundles, the bridge for Pi, media, README and docs, CHANGELOG, LICENSE; no sources, tests or node_modules: everything
// the extension needs is bundled). Prints the package's size and file list. Fails when vsce warns (a missing
// repository field, an SVG icon…: what the Marketplace would refuse or flag) or when the PNG icon is not what
// media/icon.svg renders to.
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const out = process.argv[2] ? resolve(process.argv[2]) : join(root, `${manifest.name}-${manifest.version}.vsix`);
const vsce = join(root, 'node_modules', '.bin', 'vsce');
/** Runs a command; its stdout is returned, its stderr passed on. A WARNING from vsce (on either stream) fails the packaging. */
const run = (command, args) => {
	const result = spawnSync(command, args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
	process.stderr.write(result.stderr);
	if (result.status !== 0) {
		process.stdout.write(result.stdout);
		console.error(`${command} ${args.join(' ')} failed (${result.status ?? result.signal})`);
		process.exit(1);
	}
	const warnings = `${result.stdout}\n${result.stderr}`.split('\n').filter((line) => /\bWARNING\b/.test(line));
	if (warnings.length > 0) {
		console.error(`vsce warned:\n${warnings.join('\n')}`);
		process.exit(1);
	}
	return result.stdout;
};

run(process.execPath, [join(root, 'scripts', 'icon.mjs'), '--check']);
run(process.execPath, [join(root, 'scripts', 'build.mjs'), '--production']);
// The page's render reports (a walk of the whole DOM after every render) are for tests only: the production
// build defines them away. Their message type and node count must not be in what users get.
const page = readFileSync(join(root, 'dist', 'webview', 'main.js'), 'utf8');
const reportTraces = [/["'`]rendered["'`]/, /\bdomNodes\b/].filter((pattern) => pattern.test(page));
if (reportTraces.length > 0) {
	console.error(`dist/webview/main.js contains the test-only render-report code (${reportTraces.join(', ')}): `
		+ 'it must sit behind PI_CONDENSE_RENDER_REPORTS (webview/buildFlags.d.ts), which the production build sets to false.');
	process.exit(1);
}
// --no-dependencies: everything is bundled by esbuild. --no-rewrite-relative-links: README images are
// shipped inside the package, so VS Code's extension page shows them from the installed folder.
const common = ['--no-dependencies', '--no-rewrite-relative-links'];
run(vsce, ['package', ...common, '--out', out]);
const files = run(vsce, ['ls', '--no-dependencies']).split('\n').filter(Boolean).sort();
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
console.log(`\n${relative(root, out)}: ${kb(statSync(out).size)}, ${files.length} files`);
for (const file of files) {
	console.log(`  ${file.padEnd(48)} ${kb(statSync(join(root, file)).size).padStart(10)}`);
}
// "Connect Pi to VS Code" copies the bridge into Pi from the installed extension: without it, Connect fails.
const missing = ['dist/bridge/index.js', 'dist/bridge/package.json'].filter((file) => !files.includes(file));
if (missing.length > 0) {
	console.error(`\nthe package lacks the bridge Connect installs into Pi: ${missing.join(', ')} (see .vscodeignore)`);
	process.exit(1);
}
// The allow-list is easy to widen by accident (a `!dist/webview/**` once shipped the source maps).
const unwanted = files.filter((file) => /\.map$/.test(file) || /^(src|test|webview|out|node_modules|scripts)\//.test(file));
if (!files.includes(manifest.icon) || !manifest.icon.endsWith('.png')) {
	console.error(`\nthe package must hold the PNG icon package.json names (${manifest.icon})`);
	process.exit(1);
}
if (unwanted.length > 0) {
	console.error(`\n.vscodeignore lets through files a user does not need: ${unwanted.join(', ')}`);
	process.exit(1);
}
