/**
 * Which pi-ai answers: the bundled chunk is loaded on first use only and works as a CommonJS bundle (the
 * providers we may call load inside it; Bedrock is refused up front); the installed Pi's own pi-ai is found
 * from the `pi` on the PATH (real Pi 1.6.0 and 0.73.1 packages, laid out as `npm install -g` leaves them) and
 * used when allowed, and anything else falls back to the bundled one with the reason.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { createPiAiLoader, loadBundled } from '../../../../src/node/llm/piAiLoader';
import { describeOrigin } from '../../../../src/node/llm/library/modelLibrary';
import { startFakeLlmServer } from '../../../support/fakeLlmServer';
import { installPiGlobally, type InstalledPiPrefix } from '../../../support/installedPi';
import { distDir } from '../../../support/piAiForTests';

const NO_AGENT_DIR = '/nonexistent-pi-agent-dir';

describe('piAiLoader: the bundled pi-ai', () => {
	it('is not loaded when the summarizer modules are imported or a summarizer is created', () => {
		const probe = join(process.cwd(), 'out', 'test', 'support', 'lazyLoadProbe.js');
		const report = JSON.parse(execFileSync(process.execPath, [probe, distDir], { encoding: 'utf8' })) as Record<string, unknown>;
		assert.equal(report.afterImport, false);
		assert.equal(report.afterCreate, false);
		assert.equal(report.label, 'anthropic/claude-sonnet-4-5');
		assert.equal(report.afterFirstUse, true);
		assert.deepEqual(report.origin, { kind: 'bundled', piAiName: '@earendil-works/pi-ai', piAiVersion: '1.6.0', fallbackReason: 'probe' });
		assert.deepEqual(report.exports, ['PI_AI_VERSION', 'builtinProviders', 'calculateCost', 'clampThinkingLevel', 'createModels', 'getApiProvider', 'getBuiltinModelDataGeneratedAt', 'unsupportedApis']);
	});

	it('explains a missing chunk', async () => {
		await assert.rejects(createPiAiLoader({ distDir: join(distDir, 'nowhere'), installed: { allowed: false, reason: 'test' } })(), /Could not load the pi-ai chunk at .*nowhere.*pi-ai\.js/);
	});

	it('knows today\'s catalog: 43 providers, 1,698 chat models, anthropic/claude-sonnet-5 among them', async () => {
		const catalog = await (await loadBundled(distDir)).openCatalog(NO_AGENT_DIR, 'probe');
		const chunk = createRequire(join(distDir, 'pi-ai.js'))(join(distDir, 'pi-ai.js')) as { builtinProviders(): unknown[] };
		assert.equal(chunk.builtinProviders().length, 43);
		// Radius lists its models only once signed in: 42 providers have built-in chat models.
		assert.equal(new Set(catalog.models.map((model) => model.provider)).size, 42);
		assert.equal(catalog.models.length, 1698);
		assert.equal(catalog.find('anthropic', 'claude-sonnet-5')?.api, 'anthropic-messages');
		assert.ok(catalog.find('azure', 'gpt-6.2-sol'), 'the provider Pi 1.0.3 renamed from azure-openai-responses');
	});

	it('runs every api we might call inside the bundle without a missing module (Mistral\'s optional @opentelemetry/api included)', async () => {
		const server = await startFakeLlmServer();
		try {
			const chunk = createRequire(join(distDir, 'pi-ai.js'))(join(distDir, 'pi-ai.js')) as {
				builtinProviders(): { getModels(): { api: string; baseUrl: string }[] }[];
				getApiProvider(api: string): { streamSimple(model: unknown, context: unknown, options: unknown): { result(): Promise<{ stopReason: string; errorMessage?: string }> } };
				unsupportedApis: ReadonlySet<string>;
			};
			const seen = new Map<string, string>();
			for (const provider of chunk.builtinProviders()) {
				// The newest model of each provider (older Anthropic ones print a deprecation notice).
				const model = provider.getModels().at(-1);
				if (!model || seen.has(model.api) || chunk.unsupportedApis.has(model.api)) {
					continue;
				}
				const message = await chunk.getApiProvider(model.api).streamSimple({ ...model, baseUrl: `${server.url}/v1` }, {
					messages: [{ role: 'user', content: 'ping', timestamp: Date.now() }],
				}, { apiKey: 'test-key', maxRetries: 0 }).result();
				seen.set(model.api, `${message.stopReason}: ${message.errorMessage ?? ''}`);
			}
			assert.ok(seen.has('mistral-conversations') && seen.has('openai-completions') && seen.has('anthropic-messages'), [...seen.keys()].join());
			for (const [api, outcome] of seen) {
				assert.doesNotMatch(outcome, /Cannot find module|opentelemetry|import\.meta/, `${api} → ${outcome}`);
			}
			// These speak a protocol the fake server answers, so these calls really streamed inside the bundle.
			assert.equal(seen.get('openai-completions'), 'stop: ');
			assert.equal(seen.get('mistral-conversations'), 'stop: ');
		} finally {
			await server.close();
		}
	});

	it('says up front that it cannot call Bedrock (pi-ai reaches its SDK through an import a bundle cannot follow)', async () => {
		const catalog = await (await loadBundled(distDir)).openCatalog(NO_AGENT_DIR, 'probe');
		const bedrock = catalog.models.find((model) => model.api === 'bedrock-converse-stream');
		assert.ok(bedrock);
		assert.match(catalog.unsupported(bedrock) ?? '', /the pi-ai bundled with Pi Condense cannot call/);
		assert.equal(catalog.unsupported(catalog.find('anthropic', 'claude-sonnet-5')!), undefined);
	});
});

describe('piAiLoader: the installed Pi\'s pi-ai', () => {
	const cleanups: (() => Promise<void>)[] = [];
	afterEach(async () => {
		await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
	});
	const install = async (version: '1.6.0' | '0.73.1'): Promise<InstalledPiPrefix> => {
		const installed = await installPiGlobally(version);
		cleanups.push(installed.cleanup);
		return installed;
	};

	it('loads Pi 1.6.0\'s own pi-ai, found from the pi on the PATH, and says so', async () => {
		const pi = await install('1.6.0');
		const library = await pi.loader()();
		const piRoot = await realpath(join('node_modules', '@earendil-works', 'pi-coding-agent'));
		assert.deepEqual(library.origin, {
			kind: 'installed', piAiName: '@earendil-works/pi-ai', piAiVersion: '1.6.0', piAiPath: await realpath(join('node_modules', '@earendil-works', 'pi-ai')),
			pi: { name: '@earendil-works/pi-coding-agent', version: '1.6.0', path: piRoot },
		});
		assert.match(describeOrigin(library.origin), /^@earendil-works\/pi-ai 1\.6\.0 of the installed Pi 1\.6\.0 \(/);
		const catalog = await library.openCatalog(NO_AGENT_DIR, 'probe');
		assert.equal(catalog.models.length, 1698);
		assert.ok(catalog.find('anthropic', 'claude-sonnet-5'));
	});

	it('loads Pi 0.73.1\'s pi-ai 0.7x, whose older catalog has no claude-sonnet-5 (the installed catalog is the one used)', async () => {
		const pi = await install('0.73.1');
		const library = await pi.loader()();
		assert.equal(library.origin.kind, 'installed');
		assert.equal(library.origin.piAiName, '@mariozechner/pi-ai');
		assert.equal(library.origin.piAiVersion, '0.73.1');
		const catalog = await library.openCatalog(NO_AGENT_DIR, 'probe');
		assert.equal(catalog.find('anthropic', 'claude-sonnet-5'), undefined);
		assert.ok(catalog.find('anthropic', 'claude-sonnet-4-5'));
		assert.ok(catalog.find('azure-openai-responses', catalog.models.find((model) => model.provider === 'azure-openai-responses')!.id), 'the provider under its old name');
	});

	it('finds the Pi behind a `pi` that is a shim script, not a link (npm\'s global layout around it)', async () => {
		const pi = await install('1.6.0');
		const shimPrefix = await mkdtemp(join(tmpdir(), 'pi-condense-shim-'));
		cleanups.push(() => rm(shimPrefix, { recursive: true, force: true }));
		await mkdir(join(shimPrefix, 'bin'));
		await mkdir(join(shimPrefix, 'lib', 'node_modules', '@earendil-works'), { recursive: true });
		await symlink(pi.packageDir, join(shimPrefix, 'lib', 'node_modules', '@earendil-works', 'pi-coding-agent'));
		await writeFile(join(shimPrefix, 'bin', 'pi'), '#!/bin/sh\nexec node "$(dirname "$0")/../lib/node_modules/@earendil-works/pi-coding-agent/dist/bundle/cli.js" "$@"\n', { mode: 0o755 });
		const library = await createPiAiLoader({ distDir, installed: { allowed: true, env: { PATH: join(shimPrefix, 'bin') } } })();
		assert.equal(library.origin.kind, 'installed');
		assert.equal(library.origin.pi?.version, '1.6.0');
	});

	it('uses the bundled pi-ai when not allowed to load the installed one (an untrusted workspace), saying why', async () => {
		await install('1.6.0');
		const library = await createPiAiLoader({ distDir, installed: { allowed: false, reason: 'the workspace is not trusted' } })();
		assert.equal(library.origin.kind, 'bundled');
		assert.equal(describeOrigin(library.origin), 'the bundled @earendil-works/pi-ai 1.6.0 (the workspace is not trusted)');
	});

	it('falls back to the bundled one without a pi on the PATH', async () => {
		const library = await createPiAiLoader({ distDir, installed: { allowed: true, env: { PATH: '/nonexistent-bin' } } })();
		assert.deepEqual([library.origin.kind, library.origin.fallbackReason], ['bundled', 'no `pi` command on the PATH']);
	});

	it('ignores a relative PATH entry (it names a folder relative to wherever VS Code started)', async () => {
		const pi = await install('1.6.0');
		// The same folder that is found by its absolute name, given relative to the current folder.
		const library = await createPiAiLoader({ distDir, installed: { allowed: true, env: { PATH: relative(process.cwd(), pi.binDir) } } })();
		assert.deepEqual([library.origin.kind, library.origin.fallbackReason], ['bundled', 'no `pi` command on the PATH']);
	});

	it('loads nothing from inside an open workspace folder', async () => {
		const pi = await install('1.6.0');
		const library = await pi.loader({ excludedRoots: [await realpath('node_modules')] })();
		assert.equal(library.origin.kind, 'bundled');
		assert.match(library.origin.fallbackReason ?? '', /is inside the workspace folder .*node_modules; Pi Condense does not load code a project holds/);
	});

	it('falls back, naming why, when the installed Pi\'s pi-ai is not one it can drive', async () => {
		const prefix = await mkdtemp(join(tmpdir(), 'pi-condense-odd-pi-'));
		cleanups.push(() => rm(prefix, { recursive: true, force: true }));
		const piDir = join(prefix, 'lib', 'node_modules', '@earendil-works', 'pi-coding-agent');
		const piAiDir = join(piDir, 'node_modules', '@earendil-works', 'pi-ai');
		await mkdir(piAiDir, { recursive: true });
		await mkdir(join(prefix, 'bin'));
		await writeFile(join(piDir, 'package.json'), JSON.stringify({ name: '@earendil-works/pi-coding-agent', version: '9.0.0', bin: { pi: 'cli.js' } }));
		await writeFile(join(piDir, 'cli.js'), '', { mode: 0o755 });
		await writeFile(join(piAiDir, 'package.json'), JSON.stringify({ name: '@earendil-works/pi-ai', version: '9.0.0', type: 'module', exports: { '.': { import: './index.js' } } }));
		await writeFile(join(piAiDir, 'index.js'), 'export const somethingElse = 1;\n');
		await symlink(join(piDir, 'cli.js'), join(prefix, 'bin', 'pi'));
		const library = await createPiAiLoader({ distDir, installed: { allowed: true, env: { PATH: join(prefix, 'bin') } } })();
		assert.equal(library.origin.kind, 'bundled');
		assert.match(library.origin.fallbackReason ?? '', /the pi-ai of the installed Pi 9\.0\.0 \(.*\) could not be used: @earendil-works\/pi-ai 9\.0\.0 has no getProviders, getModels, stream/);
	});
});
