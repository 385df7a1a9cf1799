/**
 * Short one-line texts for tool calls in the sidebar: `tool(k="v", …) · 1.2k chars [error]`, with
 * long arguments cut so a row stays readable. Pure.
 */
import { formatCompactCount } from '../condense';

const ARGS_MAX = 72;

/**
 * The arguments as `k=<JSON>, …`, cut to `max` characters. The cut text is a copy of its own: a
 * slice would keep the whole serialized arguments alive (a file written by the call, megabytes)
 * for as long as the sidebar row, which held 45 MB of a 100 MB session's tree.
 */
export function argumentsText(args: Readonly<Record<string, unknown>>, max = ARGS_MAX): string {
	const text = Object.entries(args).map(([key, value]) => `${key}=${JSON.stringify(value)}`).join(', ');
	return text.length > max ? ownCopy(`${text.slice(0, max - 1)}…`) : text;
}

/** A fresh string with the same characters, holding on to nothing else. */
function ownCopy(text: string): string {
	return JSON.parse(JSON.stringify(text)) as string;
}

export function toolCallLabel(toolName: string, args: Readonly<Record<string, unknown>>, size: number, unit: 'chars' | 'bytes', isError: boolean): string {
	return `${toolName}(${argumentsText(args)}) · ${formatCompactCount(size)} ${unit}${isError ? ' [error]' : ''}`;
}

/** The first `max` characters of an output, for a tooltip. */
export function outputHead(text: string, max = 1200): string {
	return text.length > max ? `${text.slice(0, max)}\n…` : text;
}
