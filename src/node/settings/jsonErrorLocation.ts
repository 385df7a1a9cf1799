/**
 * Where a JSON text that `JSON.parse` rejected breaks, so an error can point at the spot in
 * settings.json. The offset comes from jsonc-parser (VS Code's own JSON scanner) in strict JSON mode
 * (no comments, no trailing commas), not from V8's message, whose wording changes between Node
 * versions. For a bad character inside a string it points at the start of that string.
 */
import { parse, type ParseError } from 'jsonc-parser';

export interface TextLocation {
	/** 1-based. */
	readonly line: number;
	/** 1-based, in UTF-16 code units. */
	readonly column: number;
}

export function jsonErrorLocation(text: string): TextLocation | undefined {
	const errors: ParseError[] = [];
	parse(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
	const first = errors[0];
	return first === undefined ? undefined : locationOfOffset(text, first.offset);
}

function locationOfOffset(text: string, offset: number): TextLocation {
	const before = text.slice(0, offset);
	let line = 1;
	for (let i = before.indexOf('\n'); i !== -1; i = before.indexOf('\n', i + 1)) {
		line++;
	}
	return { line, column: offset - before.lastIndexOf('\n') };
}

/**
 * V8's message without its quote of the text ("Unexpected token 'x', \"…\" is not valid JSON" →
 * "Unexpected token 'x'"): a message about a file must not repeat what is in it (a key, say).
 */
export function withoutQuotedText(message: string): string {
	return message.replace(/, (?:\.\.\.)?"[\s\S]*"(?:\.\.\.)? is not valid JSON$/, '');
}
