#!/usr/bin/env node
// Builds every bundle of the project with esbuild.
//   node scripts/build.mjs               extension, CLI, lazily loaded pi-ai chunk and its worker, webview
//   node scripts/build.mjs --tests       the above plus every test suite, the stress run and the bench (out/test)
//   node scripts/build.mjs --production  minified, no source maps (what the .vsix ships)
//   node scripts/build.mjs --watch       rebuild on change
//   node scripts/build.mjs --dry         resolve and bundle everything, write nothing (the start check runs it
//                                        from another folder while other suites read dist/)
import * as esbuild from 'esbuild';
import { copyFileSync, existsSync, readdirSync, readFileSync, statSync, rmSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = new Set(process.argv.slice(2));
const production = args.has('--production');
const withTests = args.has('--tests');
const watch = args.has('--watch');
const dry = args.has('--dry');

const at = (p) => join(root, p);
const exists = (p) => existsSync(at(p));

function walk(dir, pattern) {
	if (!existsSync(dir)) { return []; }
	const out = [];
	for (const name of readdirSync(dir)) {
		const full = join(dir, name);
		if (statSync(full).isDirectory()) { out.push(...walk(full, pattern)); }
		else if (pattern.test(name)) { out.push(full); }
	}
	return out;
}

// The pi-ai bundled in dist/pi-ai.js, named by Show Status before it is loaded (src/buildFlags.d.ts).
const bundledPiAiVersion = JSON.parse(readFileSync(at('node_modules/@earendil-works/pi-ai/package.json'), 'utf8')).version;

const nodeCommon = {
	bundle: true,
	platform: 'node',
	format: 'cjs',
	target: 'node20',
	sourcemap: production ? false : 'linked',
	sourcesContent: false,
	minify: production,
	logLevel: 'warning',
	// @opentelemetry/api is an optional peer of the Mistral SDK inside pi-ai; it is never installed.
	external: ['vscode', '@opentelemetry/api'],
	// jsonc-parser's `main` is a UMD wrapper whose inner requires esbuild cannot follow: bundle its ES build.
	alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
	define: { PI_CONDENSE_BUNDLED_PI_AI_VERSION: JSON.stringify(bundledPiAiVersion), PI_CONDENSE_VERSION: JSON.stringify(JSON.parse(readFileSync(at('package.json'), 'utf8')).version) },
	metafile: true,
};

/** @type {import('esbuild').BuildOptions[]} */
const builds = [];
/** Every build resolves from the project, whatever folder it is started from (an alias such as jsonc-parser's is a module path). */
const fromProject = (options) => ({ absWorkingDir: root, ...options, ...(dry ? { write: false } : {}) });

if (exists('src/extension.ts')) {
	builds.push({ ...nodeCommon, entryPoints: [at('src/extension.ts')], outfile: at('dist/extension.js') });
}
if (exists('src/cli.ts')) {
	builds.push({
		...nodeCommon,
		entryPoints: [at('src/cli.ts')],
		outfile: at('dist/cli.js'),
		banner: { js: '#!/usr/bin/env node' },
	});
	// The whole command line, which the entry above loads for every command but a plain `list`.
	builds.push({ ...nodeCommon, entryPoints: [at('src/cli/commandLine.ts')], outfile: at('dist/cli-commands.js') });
}
// pi-ai is ESM-only and large: it is bundled on its own and loaded on first use (never at activation), when the
// installed Pi's own pi-ai is not used (src/node/llm/piAiLoader.ts).
if (exists('src/node/llm/piAiModule.ts')) {
	builds.push({ ...nodeCommon, entryPoints: [at('src/node/llm/piAiModule.ts')], outfile: at('dist/pi-ai.js') });
	// The extension reaches pi-ai only through this worker thread, off the extension host's thread.
	builds.push({ ...nodeCommon, entryPoints: [at('src/node/llm/worker/piAiWorkerMain.ts')], outfile: at('dist/pi-ai-worker.js') });
}
// SQLite in WebAssembly for the session index where node:sqlite is missing (VS Code 1.100, Node 20): its own
// chunk, loaded on first use, with the .wasm it reads from its own folder (src/node/history/sqlite/wasmSqlite.ts).
if (exists('src/node/history/sqlite/wasmSqliteModule.ts')) {
	builds.push({ ...nodeCommon, entryPoints: [at('src/node/history/sqlite/wasmSqliteModule.ts')], outfile: at('dist/sqlite-wasm.js') });
}
// The session index's extraction thread: a build reads and extracts session files there (src/node/history/extractionPool.ts).
if (exists('src/node/history/worker/extractionWorkerMain.ts')) {
	builds.push({ ...nodeCommon, entryPoints: [at('src/node/history/worker/extractionWorkerMain.ts')], outfile: at('dist/history-worker.js') });
	// A window's session index lives on a thread of its own: SQLite's calls are synchronous.
	builds.push({ ...nodeCommon, entryPoints: [at('src/node/history/service/historyServiceMain.ts')], outfile: at('dist/history-service.js') });
}
// The bridge: a Pi extension (ESM, loaded by Pi's own loader) that "Connect Pi to VS Code" copies into Pi's agent
// dir, with the package.json that makes it a Pi package. Pi's own modules stay imports: Pi maps them to its copies.
const extensionVersion = JSON.parse(readFileSync(at('package.json'), 'utf8')).version;
if (exists('bridge/index.ts')) {
	builds.push({
		bundle: true,
		platform: 'node',
		format: 'esm',
		target: 'node20',
		entryPoints: [at('bridge/index.ts')],
		outfile: at('dist/bridge/index.js'),
		external: ['@earendil-works/pi-coding-agent', '@mariozechner/pi-coding-agent'],
		define: { PI_CONDENSE_BRIDGE_VERSION: JSON.stringify(extensionVersion) },
		minify: production,
		sourcemap: false,
		logLevel: 'warning',
		metafile: true,
	});
}
if (exists('webview/main.ts')) {
	builds.push({
		entryPoints: [at('webview/main.ts')],
		outdir: at('dist/webview'),
		bundle: true,
		platform: 'browser',
		format: 'iife',
		target: 'es2022',
		minify: production,
		sourcemap: production ? false : 'linked',
		sourcesContent: false,
		logLevel: 'warning',
		loader: { '.ttf': 'file', '.woff': 'file', '.woff2': 'file' },
		// Render reports are for tests: the production bundle leaves their code out (webview/buildFlags.d.ts).
		define: { PI_CONDENSE_RENDER_REPORTS: production ? 'false' : 'true' },
		metafile: true,
	});
}

if (withTests && !dry) {
	rmSync(at('out/test'), { recursive: true, force: true });
	// Reference folders assembled from test/fixtures on first use (test/support/referenceFolders.mjs).
	rmSync(at('out/fixtures'), { recursive: true, force: true });
}
if (withTests) {
	const testFiles = [
		...['unit', 'browser', 'reliability', 'live'].flatMap((suite) => walk(at(`test/${suite}`), /\.test\.ts$/)),
		...walk(at('test/integration'), /\.ts$/),
		...walk(at('test/support'), /\.ts$/),
		...walk(at('test/stress'), /\.ts$/),
		...walk(at('test/bench'), /\.ts$/),
	];
	// One build for every test entry point: each output is still a whole bundle, but the sources they share
	// are parsed once instead of once per test file.
	builds.push({
		...nodeCommon,
		sourcemap: 'inline',
		entryPoints: testFiles,
		outbase: at('test'),
		outdir: at('out/test'),
		// Pi's own packages are ESM-only: tests load them with a dynamic import() at run time.
		external: [...nodeCommon.external, 'mocha', '@mariozechner/pi-coding-agent', '@mariozechner/pi-ai', '@earendil-works/pi-coding-agent', '@earendil-works/pi-ai', 'playwright-core', 'eslint', 'typescript'],
	});
}

/** The bridge's package.json: a Pi package whose one extension is index.js. */
function bridgeManifest(version) {
	return {
		name: 'pi-condense-vscode-bridge',
		version,
		description: 'Pi Condense for VS Code: lets VS Code see what this Pi sends and put /pruner commands into its editor.',
		private: true,
		pi: { extensions: ['./index.js'] },
	};
}

async function main() {
	mkdirSync(at('dist'), { recursive: true });
	if (watch) {
		for (const options of builds) {
			const ctx = await esbuild.context(fromProject(options));
			await ctx.watch();
		}
		console.log(`[build] watching ${builds.length} bundles`);
		return;
	}
	const results = await Promise.all(builds.map((options) => esbuild.build(fromProject(options))));
	const sizes = {};
	for (const [i, result] of results.entries()) {
		const options = builds[i];
		const out = options.outfile ?? options.outdir;
		if (out && !out.includes(`${join('out', 'test')}`)) {
			let bytes = 0;
			for (const [file, meta] of Object.entries(result.metafile?.outputs ?? {})) {
				if (!file.endsWith('.map')) { bytes += meta.bytes; }
			}
			sizes[relative(root, out)] = bytes;
		}
	}
	if (dry) {
		console.log(`[build] ${builds.length} builds resolved and bundled (dry: nothing written)`);
		return;
	}
	if (exists('src/node/history/sqlite/wasmSqliteModule.ts')) {
		copyFileSync(at('node_modules/node-sqlite3-wasm/dist/node-sqlite3-wasm.wasm'), at('dist/node-sqlite3-wasm.wasm'));
	}
	writeFileSync(at('dist/bundle-sizes.json'), JSON.stringify(sizes, null, 2) + '\n');
	if (exists('bridge/index.ts')) {
		writeFileSync(at('dist/bridge/package.json'), JSON.stringify(bridgeManifest(extensionVersion), null, '\t') + '\n');
	}
	console.log(`[build] ${builds.reduce((count, options) => count + options.entryPoints.length, 0)} bundles${production ? ' (production)' : ''}`);
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
