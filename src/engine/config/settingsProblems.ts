/**
 * What can be wrong with a Pi settings.json and its `contextPrune` value, and the one sentence the
 * extension and the CLI say about it, naming the file. Pure: the node layer reads the file and
 * decides the state; the views only word it.
 */
export type SettingsFileState =
	| { readonly kind: 'missing' }
	| { readonly kind: 'empty' }
	| { readonly kind: 'unreadable'; readonly message: string }
	| { readonly kind: 'invalid-json'; readonly message: string; readonly line?: number; readonly column?: number }
	| { readonly kind: 'not-object'; readonly found: string }
	| { readonly kind: 'ok' };

export type PruneSettingsFileState =
	| SettingsFileState
	/** The file is fine but `contextPrune` is not an object. */
	| { readonly kind: 'prune-not-object'; readonly found: string };

/** `null`, `an array`, `a string`…: for messages such as "contains a string, not an object". */
export function jsonTypeName(value: unknown): string {
	if (value === null) {
		return 'null';
	}
	if (Array.isArray(value)) {
		return 'an array';
	}
	return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** One sentence about a file that cannot be used, naming it; undefined when it is usable. */
export function describeSettingsProblem(path: string, state: SettingsFileState): string | undefined {
	switch (state.kind) {
		case 'invalid-json': {
			const where = state.line === undefined ? '' : ` at line ${state.line}, column ${state.column ?? 1}`;
			return `${path} is not valid JSON${where} (${state.message}). Fix or delete the file; Pi ignores it too until then.`;
		}
		case 'not-object':
			return `${path} contains ${state.found}, not a JSON object. Replace its content with {} or fix it.`;
		case 'unreadable':
			return `${path} could not be read: ${state.message}. Check that it is a readable file.`;
		default:
			return undefined;
	}
}

/** One sentence about a settings file or `contextPrune` value that cannot be used, naming the file; undefined when usable. */
export function describePruneSettingsProblem(path: string, state: PruneSettingsFileState): string | undefined {
	if (state.kind === 'prune-not-object') {
		return `contextPrune in ${path} is ${state.found}, not an object; using the defaults. Make it an object (for example {"enabled": true}) or remove it.`;
	}
	return describeSettingsProblem(path, state);
}
