/**
 * The `contextPrune` configuration for the command line, resolved and validated by the project's
 * settings reader: from `--config FILE` (a contextPrune object, or a whole settings.json holding
 * one), else from `<agentDir>/settings.json` (`--agent-dir`, else `$PI_CODING_AGENT_DIR`, else
 * `~/.pi/agent`). What is wrong with a file or a value comes back as warnings; only an explicit
 * `--config` file that cannot be used is an error.
 */
import { readFile } from 'node:fs/promises';
import { type ContextPruneConfig, describeConfigProblem, describePruneSettingsProblem, resolveConfig } from '../engine/config';
import type { ReleaseRules } from '../engine/release';
import { jsonErrorLocation, withoutQuotedText } from '../node/settings/jsonErrorLocation';
import { readPruneSettings } from '../node/settings/readPruneSettings';
import { isPlainObject } from '../base/plainObject';
import { errorMessage } from '../base/errorMessage';
import { cliAgentDir } from './cliAgentDir';

export class ConfigFileError extends Error {}

export interface LoadedConfig {
	readonly config: ContextPruneConfig;
	/** The pi-condense release the configuration was read for (and the session is rendered as). */
	readonly rules: ReleaseRules;
	readonly warnings: readonly string[];
}

/** Reads the configuration as `rules` reads it (its defaults, the keys it knows). */
export async function loadPruneConfig(options: { readonly agentDir?: string; readonly configFile?: string }, rules: ReleaseRules): Promise<LoadedConfig> {
	if (options.configFile !== undefined) {
		return fromConfigFile(options.configFile, rules);
	}
	const agentDir = cliAgentDir(options.agentDir);
	const settings = await readPruneSettings(agentDir, rules);
	const fileProblem = describePruneSettingsProblem(settings.path, settings.fileState);
	const warnings = settings.problems.map(describeConfigProblem);
	return { config: settings.config, rules, warnings: fileProblem === undefined ? warnings : [fileProblem, ...warnings] };
}

async function fromConfigFile(path: string, rules: ReleaseRules): Promise<LoadedConfig> {
	let text: string;
	let value: unknown;
	try {
		text = await readFile(path, 'utf8');
	} catch (error) {
		throw new ConfigFileError(`${path} cannot be read: ${errorMessage(error)}`);
	}
	try {
		value = JSON.parse(text) as unknown;
	} catch (error) {
		// Never quote the file (a mistyped --config may name auth.json).
		const message = errorMessage(error);
		const at = jsonErrorLocation(text);
		const where = at === undefined ? '' : ` at line ${at.line}, column ${at.column}`;
		throw new ConfigFileError(`${path} is not valid JSON${where} (${withoutQuotedText(message)}). Fix it, or pass a file holding a contextPrune object.`);
	}
	const raw = isPlainObject(value) && isPlainObject(value.contextPrune) ? value.contextPrune : value;
	if (!isPlainObject(raw)) {
		throw new ConfigFileError(`${path} does not hold a contextPrune object. Pass a JSON file holding one, or a settings.json with a contextPrune key.`);
	}
	const { config, problems } = resolveConfig(raw, rules);
	return { config, rules, warnings: problems.map(describeConfigProblem) };
}
