/**
 * Caches of per-message work. Pure in effect: message and block objects never change, so caching
 * by identity gives the same answers, computed once per message instead of once per measure (bars,
 * reclaim, row sizes, cache impact) and once per what-if.
 */
import type { SizeOf } from '../condense/measure/contextSize';
import { stringifiedLength } from '../condense/measure/jsonLength';
import type { AgentMessage, AssistantContent, ToolCall } from '../session/types';

export function cachedSizeOf(): SizeOf {
	const sizes = new WeakMap<AgentMessage | AssistantContent, number>();
	return (value) => {
		let size = sizes.get(value);
		if (size === undefined) {
			size = stringifiedLength(value);
			sizes.set(value, size);
		}
		return size;
	};
}

/** Pretty-printed tool-call arguments, computed once per call (what the page shows of a call). */
export type ArgsText = (call: ToolCall) => string;

export const prettyArgs: ArgsText = (call) => JSON.stringify(call.arguments, null, 2) ?? '{}';

export function cachedArgsText(): ArgsText {
	const texts = new WeakMap<ToolCall, string>();
	return (call) => {
		let text = texts.get(call);
		if (text === undefined) {
			text = prettyArgs(call);
			texts.set(call, text);
		}
		return text;
	};
}
