/**
 * What the page shows of a tool call's arguments, pretty-printed once per call for every preview of
 * a base. Pure in effect: call objects never change, so caching by identity gives the same answers.
 */
import type { ToolCall } from '../session/types';

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
