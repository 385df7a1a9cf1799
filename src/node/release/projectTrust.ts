/**
 * Whether Pi honours a project's `.pi` folder (spec §8, Pi 0.83 `trust-manager`): the decision is
 * stored in `<agentDir>/trust.json`, a map from absolute folder to true/false, and the nearest
 * ancestor entry of the project decides.
 *
 * When no entry decides (no trust.json, as with Pi before 0.83, which had no trust and always read
 * `.pi`; or a project Pi has not asked about yet) the `.pi` settings are used, with a warning: Pi
 * asks on its first start there and honours them once the user agrees, and a user who keeps
 * pi-condense in a project's settings means to use it.
 */
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { errorMessage } from '../../base/errorMessage';
import { errorCode } from '../fs/errors';

export type ProjectTrust =
	| { readonly kind: 'trusted'; readonly decidedBy: string }
	| { readonly kind: 'untrusted'; readonly decidedBy: string }
	| { readonly kind: 'undetermined'; readonly reason: string };

export function trustFilePath(agentDir: string): string {
	return join(agentDir, 'trust.json');
}

export async function projectTrust(agentDir: string, cwd: string): Promise<ProjectTrust> {
	const path = trustFilePath(agentDir);
	let decisions: Record<string, unknown>;
	try {
		const value = JSON.parse(await readFile(path, 'utf8')) as unknown;
		if (typeof value !== 'object' || value === null || Array.isArray(value)) {
			return { kind: 'undetermined', reason: 'trust.json is not a JSON object' };
		}
		decisions = value as Record<string, unknown>;
	} catch (error) {
		const reason = errorCode(error) === 'ENOENT' ? 'there is no trust.json' : `trust.json cannot be read: ${errorMessage(error)}`;
		return { kind: 'undetermined', reason };
	}
	const entries = new Map<string, boolean>();
	for (const [dir, decision] of Object.entries(decisions)) {
		if (typeof decision === 'boolean') {
			entries.set(resolve(dir), decision);
		}
	}
	for (let dir = resolve(cwd); ; dir = dirname(dir)) {
		const decision = entries.get(dir);
		if (decision !== undefined) {
			return decision ? { kind: 'trusted', decidedBy: dir } : { kind: 'untrusted', decidedBy: dir };
		}
		if (dirname(dir) === dir) {
			return { kind: 'undetermined', reason: 'no entry for the project or a folder above it' };
		}
	}
}
