/**
 * Test support: loads a session with our own session model (parseSession, getBranch,
 * buildSessionContext) or with Pi's own code for cross-checks, and reads the reference sessions in
 * test/fixtures.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ContextPruneConfig } from '../../../../src/engine/config/types';
import { buildSessionContextSteps, getBranchSteps, parseSessionSteps } from '../../../../src/engine/session';
import type { SessionModel } from '../../../../src/engine/session/model';
import type { ContextMessage, SessionEntry } from '../../../../src/engine/session/types';
import { resolveConfig } from '../../../../src/engine/config/resolve';
import type { ReleaseRules } from '../../../../src/engine/release/releases';
import { piCondenseSessionsDir } from '../../../support/paths';
import { runSteps } from '../../../../src/engine/steps';

export const REFERENCE_DIR = piCondenseSessionsDir;

export interface PiLoaded {
	readonly entries: readonly SessionEntry[];
	readonly branch: readonly SessionEntry[];
	readonly messages: readonly ContextMessage[];
}

export interface SessionLoaded extends PiLoaded {
	readonly model: SessionModel;
}

/** Reads a session file with our own parser, as the extension and the CLI do. */
export function loadSession(path: string): SessionLoaded {
	const model = runSteps(parseSessionSteps(readFileSync(path, 'utf8')));
	return { model, entries: model.entries, branch: runSteps(getBranchSteps(model)), messages: runSteps(buildSessionContextSteps(model)).messages };
}

/** Reads a session file with Pi 0.73.1's own code. */
export async function loadWithPi(path: string): Promise<PiLoaded> {
	const pi = await import('@mariozechner/pi-coding-agent');
	const fileEntries = pi.parseSessionEntries(readFileSync(path, 'utf8'));
	pi.migrateSessionEntries(fileEntries);
	const entries = fileEntries.filter((e) => e.type !== 'session') as unknown as SessionEntry[];
	const leaf = entries[entries.length - 1];
	const byId = new Map(entries.map((e) => [e.id, e]));
	const branch: SessionEntry[] = [];
	for (let current = leaf; current; current = current.parentId ? byId.get(current.parentId) : undefined) {
		branch.unshift(current);
	}
	const context = pi.buildSessionContext(entries as never, leaf?.id ?? null);
	return { entries, branch, messages: context.messages as unknown as ContextMessage[] };
}

export function readJson<T>(path: string): T {
	return JSON.parse(readFileSync(path, 'utf8')) as T;
}

/** A contextPrune JSON from a reference folder, resolved by the project's settings reader as `rules` reads it. */
export function referenceConfig(folder: string, rules: ReleaseRules): ContextPruneConfig {
	const { config, problems } = resolveConfig(readJson<unknown>(join(REFERENCE_DIR, folder, 'contextPrune.json')), rules);
	if (problems.length > 0) {
		throw new Error(`unexpected configuration problems: ${JSON.stringify(problems)}`);
	}
	return config;
}

/** Freezes a value and everything in it, so a test fails if the code under test mutates it. */
export function deepFreeze<T>(value: T): T {
	if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
		Object.freeze(value);
		for (const key of Object.keys(value)) {
			deepFreeze((value as Record<string, unknown>)[key]);
		}
	}
	return value;
}
