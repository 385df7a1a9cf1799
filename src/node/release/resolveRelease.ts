/**
 * One resolution of the release to follow: what Pi loads for a project, combined with the user's
 * choice (`piCondense.release`, `--release`). The CLI calls it once; `ReleaseSource` keeps it
 * current for the extension.
 */
import { homedir } from 'node:os';
import {
	followRelease, overrideOf, parseReleaseChoice, type OverrideOrigin, type ReleaseDetection, type ReleaseResolution,
	type ReleaseWarning, type ReleaseOverride,
} from '../../engine/release';
import type { Environment } from '../paths/agentDir';
import { detectRelease } from './detectRelease';
import { globalNpmRootFinder, type GlobalNpmRoot } from './globalNpmRoot';

/** The user's choice, read: an override, or `auto`; a value that is not a release is reported. */
export interface ChoiceReading {
	readonly override: ReleaseOverride | undefined;
	readonly warning: ReleaseWarning | undefined;
}

export function readChoice(value: unknown, origin: OverrideOrigin): ChoiceReading {
	const parsed = parseReleaseChoice(value ?? 'auto');
	if (!parsed.ok) {
		return { override: undefined, warning: { kind: 'unknown-override', value: String(value) } };
	}
	return { override: overrideOf(parsed.choice, origin), warning: undefined };
}

/** Applies a choice to what was found. */
export function applyChoice(detection: ReleaseDetection, choice: ChoiceReading): ReleaseResolution {
	const warnings = choice.warning ? [...detection.warnings, choice.warning] : detection.warnings;
	return followRelease({ ...detection, warnings }, choice.override);
}

/** Where `~` points for Pi: `$HOME`, else the OS home folder (Pi's `getHomeDir`). */
export function piHome(env: Environment): string {
	return env.HOME || homedir();
}

/** The global npm root finder of this process (npm's environment and config files; nothing is run). */
export function processGlobalNpmRoot(): GlobalNpmRoot {
	return globalNpmRootFinder({ env: process.env, platform: process.platform, home: homedir() });
}

export interface ResolveInputs {
	readonly agentDir: string;
	readonly cwd: string | undefined;
	readonly choice: ChoiceReading;
	readonly home?: string;
	readonly globalNpmRoot?: GlobalNpmRoot;
	/** See `DetectInputs.projectSettingsAllowed`; the command line has no workspace trust, so it passes true. */
	readonly projectSettingsAllowed: boolean;
}

export async function resolveRelease(inputs: ResolveInputs): Promise<ReleaseResolution> {
	const { detection } = await detectRelease({
		agentDir: inputs.agentDir,
		cwd: inputs.cwd,
		home: inputs.home ?? piHome(process.env),
		globalNpmRoot: inputs.globalNpmRoot ?? processGlobalNpmRoot(),
		projectSettingsAllowed: inputs.projectSettingsAllowed,
	});
	return applyChoice(detection, inputs.choice);
}
