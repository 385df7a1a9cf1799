/**
 * Immutable edits of a raw `contextPrune` object, for `updatePruneSettings` callers. Pure.
 *
 * Edits work on the raw object from settings.json (not the resolved config) so that top-level keys
 * the user never set stay unset and keep following the defaults, and unknown keys survive. A nested
 * block is different: pi-condense merges the file over its defaults shallowly, so a block written
 * without some of its keys has them missing in Pi (not defaulted). A block we edit is therefore
 * written whole, its missing keys filled with the release's defaults, as pi-condense's own save
 * writes it.
 */
import { type RawObject } from './configReader';
import type { ContextPruneConfig } from './types';
import { isPlainObject } from '../../base/plainObject';

/** The release's defaults (`releaseDefaults`), whose blocks fill the blocks written. */
export type ConfigDefaults = ContextPruneConfig | RawObject;

/**
 * Returns a copy of `raw` with the dotted `keyPath` set to `value`; `undefined` puts the key back to
 * its default (removed at the top level, the default value inside a block). Missing or non-object
 * intermediate blocks are replaced by objects; the block edited gets every key of `defaults`' block.
 *
 * @example
 * setConfigKey({ enabled: true }, 'chainCompression.rollingWindow', 5, releaseDefaults(release))
 * // { enabled: true, chainCompression: { enabled: true, rollingWindow: 5, stripFinalAssistantThinking: true, fuseRangeSummary: true } }
 */
export function setConfigKey(raw: RawObject, keyPath: string, value: unknown, defaults: ConfigDefaults): Record<string, unknown> {
	return setKey(raw, keyPath, value, defaults as RawObject, false);
}

/** `raw` with each change applied in order, as `setConfigKey` applies one. */
export function setConfigKeys(raw: RawObject, changes: ReadonlyArray<{ readonly key: string; readonly value: unknown }>, defaults: ConfigDefaults): Record<string, unknown> {
	return changes.reduce<Record<string, unknown>>((next, change) => setConfigKey(next, change.key, change.value, defaults), { ...raw });
}

/** `raw` with each nested block it has filled with the missing keys of `defaults`' block. */
export function withWholeBlocks(raw: RawObject, defaults: ConfigDefaults): Record<string, unknown> {
	const copy: Record<string, unknown> = { ...raw };
	for (const [key, value] of Object.entries(raw)) {
		const blockDefaults = (defaults as RawObject)[key];
		if (isPlainObject(value) && isPlainObject(blockDefaults)) {
			copy[key] = { ...blockDefaults, ...value };
		}
	}
	return copy;
}

function setKey(raw: RawObject, keyPath: string, value: unknown, defaults: RawObject, inBlock: boolean): Record<string, unknown> {
	const [head, ...rest] = keyPath.split('.');
	if (head === undefined || head === '') {
		throw new Error(`Invalid contextPrune key path: "${keyPath}"`);
	}
	const copy: Record<string, unknown> = { ...raw };
	if (rest.length > 0) {
		const nested = copy[head];
		const blockDefaults = isPlainObject(defaults[head]) ? defaults[head] : {};
		copy[head] = setKey({ ...blockDefaults, ...(isPlainObject(nested) ? nested : {}) }, rest.join('.'), value, blockDefaults, true);
	} else if (value !== undefined) {
		copy[head] = value;
	} else if (inBlock && Object.hasOwn(defaults, head)) {
		copy[head] = defaults[head];
	} else {
		delete copy[head];
	}
	return copy;
}
