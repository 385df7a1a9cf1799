/**
 * Immutable edits of a raw `contextPrune` object, for `updatePruneSettings` callers. Pure.
 *
 * Edits work on the raw object from settings.json (not the resolved config) so that keys the user
 * never set stay unset and keep following the defaults, and unknown keys survive.
 */
import { isPlainObject, type RawObject } from './configReader';

/**
 * Returns a copy of `raw` with the dotted `keyPath` set to `value`; `undefined` removes the key
 * (back to its default). Missing or non-object intermediate blocks are replaced by objects.
 *
 * @example
 * setConfigKey({ enabled: true }, 'chainCompression.rollingWindow', 5)
 * // { enabled: true, chainCompression: { rollingWindow: 5 } }
 */
export function setConfigKey(raw: RawObject, keyPath: string, value: unknown): Record<string, unknown> {
	const [head, ...rest] = keyPath.split('.');
	if (head === undefined || head === '') {
		throw new Error(`Invalid contextPrune key path: "${keyPath}"`);
	}
	const copy: Record<string, unknown> = { ...raw };
	if (rest.length > 0) {
		const nested = copy[head];
		copy[head] = setConfigKey(isPlainObject(nested) ? nested : {}, rest.join('.'), value);
	} else if (value === undefined) {
		delete copy[head];
	} else {
		copy[head] = value;
	}
	return copy;
}

/** `raw` with each change applied in order, as `setConfigKey` applies one. */
export function setConfigKeys(raw: RawObject, changes: ReadonlyArray<{ readonly key: string; readonly value: unknown }>): Record<string, unknown> {
	return changes.reduce<Record<string, unknown>>((next, change) => setConfigKey(next, change.key, change.value), { ...raw });
}
