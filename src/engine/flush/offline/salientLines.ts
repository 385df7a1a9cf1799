/**
 * Picks what an extractive summary keeps from a tool result: the key arguments of the call, the
 * exit code, and a few telling lines. What tells depends on the output: the first lines of an
 * error; the headings and definitions of a file that was read; the error, warning and path lines
 * of a command's output, then its last line (where tools print their verdict; the first one too
 * when nothing else stood out). Each line is
 * shortened. Pure and deterministic.
 */
import { collapsedWhitespace } from '../../../base/boundedText';

const KEY_ARGS = ['command', 'cmd', 'path', 'file_path', 'filePath', 'pattern', 'query', 'url', 'glob', 'old_path', 'new_path'] as const;
const MAX_ARG_CHARS = 100;
const MAX_LINE_CHARS = 160;

const FILE_READERS = /^(read|read_file|view|cat|open|fetch|web_fetch)$/i;
const DEFINITION_LINE = /^(#{1,3} |export |(async )?function |class |interface |type |def |fn |pub |module |package |struct |enum |impl )/;
const ERROR_LINE = /\b(error|errors|failed|failure|fatal|exception|traceback|panic|denied|not found|cannot|could not|unable to)\b|✗|ERR!/i;
const WARNING_LINE = /\b(warn|warning|deprecated)\b/i;
const PATH_LINE = /(?:^|[\s"'(])(?:\.{0,2}\/)?[\w@.-]+\/[\w@./-]+\.[A-Za-z0-9]{1,8}\b/;
const EXIT_CODE = /\bexit(?:ed)?(?: with)?(?: code| status)?[:=\s]+(-?\d+)\b/i;

/** `command="npm test"`-style description of the call's key arguments. */
export function keyArguments(args: Readonly<Record<string, unknown>>): string {
	const parts: string[] = [];
	for (const key of KEY_ARGS) {
		const value = args[key];
		if (typeof value === 'string' && value !== '') {
			parts.push(`${key}=${quoteShort(value)}`);
		}
	}
	if (parts.length === 0) {
		const first = Object.entries(args).find(([, value]) => typeof value === 'string' || typeof value === 'number');
		if (first) {
			parts.push(`${first[0]}=${quoteShort(String(first[1]))}`);
		}
	}
	return parts.join(', ');
}

export function exitCode(text: string): string | undefined {
	return EXIT_CODE.exec(text)?.[1];
}

/** Up to `max` distinct telling lines of a result. */
export function salientLines(toolName: string, text: string, isError: boolean, max: number): string[] {
	const lines = text.split(/\r?\n/).map((line) => line.trim()).filter((line) => line !== '');
	if (isError) {
		return pick(lines, [() => true], max);
	}
	if (FILE_READERS.test(toolName)) {
		return pick(lines, [(line) => DEFINITION_LINE.test(line)], max);
	}
	const picked = pick(lines, [(line) => ERROR_LINE.test(line), (line) => WARNING_LINE.test(line), (line) => PATH_LINE.test(line)], max - 1);
	const ends = picked.length === 0 ? [lines[0], lines.at(-1)] : [lines.at(-1)];
	for (const line of ends) {
		const short = line === undefined ? undefined : shorten(line, MAX_LINE_CHARS);
		if (short !== undefined && !picked.includes(short) && picked.length < max) {
			picked.push(short);
		}
	}
	return picked;
}

function pick(lines: readonly string[], tests: readonly ((line: string) => boolean)[], max: number): string[] {
	const picked: string[] = [];
	for (const test of tests) {
		for (const line of lines) {
			if (picked.length >= max) {
				return picked;
			}
			const short = shorten(line, MAX_LINE_CHARS);
			if (test(line) && !picked.includes(short)) {
				picked.push(short);
			}
		}
	}
	return picked;
}

function quoteShort(value: string): string {
	return JSON.stringify(collapsedWhitespace(value, MAX_ARG_CHARS));
}

export function shorten(text: string, max: number): string {
	return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
