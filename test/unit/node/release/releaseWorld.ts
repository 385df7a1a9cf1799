/**
 * A home with Pi 1.6.0 on the PATH, an agent dir and a project folder, for the tests of how the
 * pi-condense Pi loads is found (spec §8): `resolve` runs the detection there as the extension does,
 * counting how often npm's global folder is asked for.
 */
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FollowedRelease, ReleaseResolution } from '../../../../src/engine/release';
import { detectRelease } from '../../../../src/node/release/detectRelease';
import { applyChoice, readChoice } from '../../../../src/node/release/resolveRelease';
import { writeJson } from '../../../support/piInstall';
import { useTempDir } from '../../../support/tempDirs';

export interface ResolveOptions {
	readonly cwd?: string | undefined;
	readonly choice?: unknown;
	readonly origin?: 'setting' | 'flag';
	readonly restricted?: boolean;
}

export interface ReleaseWorld {
	readonly temp: () => string;
	readonly home: () => string;
	readonly agentDir: () => string;
	readonly cwd: () => string;
	readonly projectPi: () => string;
	readonly globalRoot: () => string;
	/** A PATH whose `pi` is an installed Pi 1.6.0. */
	readonly piPath: () => string;
	/** How often the detection asked for npm's global folder since the test began. */
	readonly globalAsked: () => number;
	readonly resolve: (options?: ResolveOptions) => Promise<ReleaseResolution>;
	/** `resolve`, asserting that a release is followed. */
	readonly followed: (options?: ResolveOptions) => Promise<FollowedRelease>;
	readonly trust: (decisions: Record<string, boolean>) => void;
	readonly kinds: (resolution: ReleaseResolution) => string[];
}

/** Call inside a `describe`: a fresh world before each test. */
export function useReleaseWorld(): ReleaseWorld {
	const temp = useTempDir('pi-release');
	const home = (): string => join(temp(), 'home');
	const agentDir = (): string => join(home(), '.pi', 'agent');
	const cwd = (): string => join(home(), 'work', 'app');
	const globalRoot = (): string => join(temp(), 'usr', 'lib', 'node_modules');
	let globalAsked = 0;
	/** A PATH whose `pi` is an installed Pi 1.6.0, so that finding Pi never looks in npm's global folder here. */
	const piPath = (): string => join(temp(), 'bin');

	beforeEach(() => {
		globalAsked = 0;
		mkdirSync(agentDir(), { recursive: true });
		mkdirSync(cwd(), { recursive: true });
		const pi = join(temp(), 'pi-install', 'node_modules', '@earendil-works', 'pi-coding-agent');
		mkdirSync(join(pi, 'dist'), { recursive: true });
		writeJson(join(pi, 'package.json'), { name: '@earendil-works/pi-coding-agent', version: '1.6.0' });
		writeFileSync(join(pi, 'dist', 'cli.js'), '#!/usr/bin/env node\n', { mode: 0o755 });
		mkdirSync(piPath(), { recursive: true });
		symlinkSync(join(pi, 'dist', 'cli.js'), join(piPath(), 'pi'));
	});

	const resolve = async (options: ResolveOptions = {}): Promise<ReleaseResolution> => {
		const { detection } = await detectRelease({
			agentDir: agentDir(),
			cwd: 'cwd' in options ? options.cwd : cwd(),
			home: home(),
			globalNpmRoot: () => {
				globalAsked++;
				return Promise.resolve({ kind: 'found', root: globalRoot(), from: 'test' });
			},
			projectSettingsAllowed: options.restricted !== true,
			env: { PATH: piPath() },
		});
		return applyChoice(detection, readChoice(options.choice, options.origin ?? 'setting'));
	};

	return {
		temp, home, agentDir, cwd, globalRoot, piPath,
		projectPi: () => join(cwd(), '.pi'),
		globalAsked: () => globalAsked,
		resolve,
		followed: async (options = {}) => {
			const resolution = await resolve(options);
			assert.equal(resolution.kind, 'followed', JSON.stringify(resolution, null, 1));
			return resolution;
		},
		trust: (decisions) => writeJson(join(agentDir(), 'trust.json'), decisions),
		kinds: (resolution) => resolution.warnings.map((warning) => warning.kind),
	};
}
