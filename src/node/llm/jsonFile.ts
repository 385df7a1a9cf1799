/**
 * Reads the small JSON files of Pi's agent directory (`auth.json`, `models.json`). Problems are
 * reported as short messages that never quote the file's text: these files hold secrets.
 */
import { readFile } from 'node:fs/promises';
import { jsonErrorLocation } from '../settings/jsonErrorLocation';
import { isPlainObject } from '../../base/plainObject';

export type JsonObject = Record<string, unknown>;

export type JsonFileRead =
	| { readonly kind: 'missing' }
	| { readonly kind: 'ok'; readonly value: JsonObject }
	| { readonly kind: 'problem'; readonly problem: string };

export async function readJsonObjectFile(path: string, options: { readonly allowComments?: boolean } = {}): Promise<JsonFileRead> {
	let text: string;
	try {
		text = await readFile(path, 'utf8');
	} catch (error) {
		if (isPlainObject(error) && error.code === 'ENOENT') {
			return { kind: 'missing' };
		}
		return { kind: 'problem', problem: `${path} could not be read` };
	}
	return parseJsonObjectText(path, options.allowComments ? stripJsonComments(text) : text);
}

/** A file's text as a JSON object, or the problem (with its line, never its text). */
export function parseJsonObjectText(path: string, json: string): Exclude<JsonFileRead, { kind: 'missing' }> {
	let parsed: unknown;
	try {
		parsed = JSON.parse(json);
	} catch {
		// The line only: V8's message quotes the text around the error, and these files hold keys.
		// (Stripping comments keeps every line where it was.)
		const line = jsonErrorLocation(json)?.line;
		return { kind: 'problem', problem: `${path} is not valid JSON${line === undefined ? '' : ` (line ${line})`}` };
	}
	if (!isPlainObject(parsed)) {
		return { kind: 'problem', problem: `${path} does not hold a JSON object` };
	}
	return { kind: 'ok', value: parsed };
}

/** Pi accepts `//` line comments and trailing commas in models.json; string literals are left alone. */
function stripJsonComments(text: string): string {
	const stringOrComment = /"(?:\\.|[^"\\])*"|\/\/[^\n]*/g;
	const stringOrTrailingComma = /"(?:\\.|[^"\\])*"|,(\s*[}\]])/g;
	return text
		.replace(stringOrComment, (match) => (match.startsWith('"') ? match : ''))
		.replace(stringOrTrailingComma, (match, closing: string | undefined) => closing ?? match);
}

