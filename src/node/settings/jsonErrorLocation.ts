/**
 * Line and column of a `JSON.parse` failure, recovered from V8's message so an error can point at
 * the spot in settings.json. V8's wording differs between Node versions ("at position 12", "(line 3
 * column 1)", "Unexpected end of JSON input"), so each form is tried; unknown wording gives nothing.
 */

export interface TextLocation {
	/** 1-based. */
	readonly line: number;
	/** 1-based, in UTF-16 code units. */
	readonly column: number;
}

export function jsonErrorLocation(message: string, text: string): TextLocation | undefined {
	const lineColumn = /\(line (\d+) column (\d+)\)/.exec(message);
	if (lineColumn?.[1] !== undefined && lineColumn[2] !== undefined) {
		return { line: Number(lineColumn[1]), column: Number(lineColumn[2]) };
	}
	const position = /at position (\d+)/.exec(message);
	if (position?.[1] !== undefined) {
		return locationOfOffset(text, Number(position[1]));
	}
	if (message.includes('Unexpected end of JSON input')) {
		return locationOfOffset(text, text.length);
	}
	return undefined;
}

function locationOfOffset(text: string, offset: number): TextLocation {
	const before = text.slice(0, offset);
	const lastNewline = before.lastIndexOf('\n');
	let line = 1;
	for (let i = before.indexOf('\n'); i !== -1; i = before.indexOf('\n', i + 1)) {
		line++;
	}
	return { line, column: offset - lastNewline };
}
