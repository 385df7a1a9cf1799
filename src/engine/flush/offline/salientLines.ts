/**
 * Picks what an extractive summary keeps from a tool result: the key arguments of the call, the
 * exit code, and the lines that matter most (errors first, then warnings, then lines naming
 * paths), each shortened. Pure and deterministic.
 */

const KEY_ARGS = ['command', 'cmd', 'path', 'file_path', 'filePath', 'pattern', 'query', 'url', 'glob', 'old_path', 'new_path'] as const;
const MAX_ARG_CHARS = 100;
const MAX_LINE_CHARS = 160;

const ERROR_LINE = /\b(error|errors|failed|failure|fatal|exception|traceback|panic|denied|not found|cannot|could not|unable to)\b|✗|ERR!/i;
const WARNING_LINE = /\b(warn|warning|deprecated)\b/i;
const PATH_LINE = /(?:^|[\s"'(])(?:\.{0,2}\/)?[\w@.-]+\/[\w@./-]+\.[A-Za-z0-9]{1,8}\b/;
const EXIT_CODE = /\bexit(?:ed)?(?: with)?(?: code| status)?[:=\s]+(-?\d+)\b|\bcode[:=\s]+(-?\d+)\b.*\bexit/i;

/** `command="npm test"`-style description of the call's key arguments. */
export function keyArguments(args: Readonly<Record<string, unknown>>): string {
	const parts: string[] = [];
	for (const key of KEY_ARGS) {
		const value = args[key];
		if (typeof value === 'string' && value !== '') {
			parts.push(`${key}=${JSON.stringify(shorten(value.replace(/\s+/g, ' ').trim(), MAX_ARG_CHARS))}`);
		}
	}
	if (parts.length === 0) {
		const first = Object.entries(args).find(([, value]) => typeof value === 'string' || typeof value === 'number');
		if (first) {
			parts.push(`${first[0]}=${JSON.stringify(shorten(String(first[1]).replace(/\s+/g, ' ').trim(), MAX_ARG_CHARS))}`);
		}
	}
	return parts.join(', ');
}

export function exitCode(text: string): string | undefined {
	const match = EXIT_CODE.exec(text);
	return match ? match[1] ?? match[2] : undefined;
}

/** Up to `max` distinct salient lines: errors, then warnings, then lines with file paths. */
export function salientLines(text: string, max: number): string[] {
	const lines = text.split(/\r?\n/).map((line) => line.trim()).filter((line) => line !== '');
	const picked: string[] = [];
	for (const test of [ERROR_LINE, WARNING_LINE, PATH_LINE]) {
		for (const line of lines) {
			if (picked.length >= max) {
				return picked;
			}
			const short = shorten(line, MAX_LINE_CHARS);
			if (test.test(line) && !picked.includes(short)) {
				picked.push(short);
			}
		}
	}
	return picked;
}

export function shorten(text: string, max: number): string {
	return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
