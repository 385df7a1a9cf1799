/**
 * The `contextPrune` configuration for the command line: from `--config FILE` (a contextPrune
 * object, or a settings.json holding one), else from `<agentDir>/settings.json`.
 *
 * NOTE: interim reader. The project's settings reader (`resolveConfig` in src/engine/config,
 * `readPruneSettings` in src/node/settings) validates every key; once it lands on main this file
 * should delegate to it. Until then it only deep-merges the object over the defaults, without
 * validating values.
 */
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_CONFIG } from '../engine/config/defaults';
import type { ContextPruneConfig } from '../engine/config/types';

export class ConfigFileError extends Error {}

export function defaultAgentDir(): string {
	const fromEnv = process.env.PI_CODING_AGENT_DIR;
	return fromEnv !== undefined && fromEnv !== '' ? fromEnv : join(homedir(), '.pi', 'agent');
}

export async function loadPruneConfig(options: { readonly agentDir?: string; readonly configFile?: string }): Promise<ContextPruneConfig> {
	if (options.configFile !== undefined) {
		const value = await readJson(options.configFile, true);
		const nested = isObject(value) && isObject(value.contextPrune) ? value.contextPrune : value;
		return mergeOverDefaults(nested, options.configFile);
	}
	const settingsFile = join(options.agentDir ?? defaultAgentDir(), 'settings.json');
	const settings = await readJson(settingsFile, false);
	return isObject(settings) && settings.contextPrune !== undefined ? mergeOverDefaults(settings.contextPrune, settingsFile) : DEFAULT_CONFIG;
}

async function readJson(path: string, required: boolean): Promise<unknown> {
	let text: string;
	try {
		text = await readFile(path, 'utf8');
	} catch (error) {
		if (!required && (error as NodeJS.ErrnoException).code === 'ENOENT') {
			return undefined;
		}
		throw new ConfigFileError(`cannot read ${path}: ${(error as Error).message}`);
	}
	try {
		return JSON.parse(text) as unknown;
	} catch (error) {
		throw new ConfigFileError(`${path} is not valid JSON: ${(error as Error).message}`);
	}
}

function mergeOverDefaults(value: unknown, source: string): ContextPruneConfig {
	if (!isObject(value)) {
		throw new ConfigFileError(`the contextPrune configuration in ${source} is not a JSON object`);
	}
	const nested = (key: 'chainCompression' | 'purgeErrors' | 'thinkingStrip') => ({ ...DEFAULT_CONFIG[key], ...(isObject(value[key]) ? value[key] : {}) });
	return {
		...DEFAULT_CONFIG,
		...value,
		chainCompression: nested('chainCompression'),
		purgeErrors: nested('purgeErrors'),
		thinkingStrip: nested('thinkingStrip'),
	} as ContextPruneConfig;
}

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}
