/**
 * Turns the `[[N:toolname]]` labels a summary repeats into the batch's `tN` refs (pi-condense
 * 2.1.0): a label becomes `` `tK` `` when N is a call of the batch and the name matches it
 * (case-insensitively); any other label is removed, with the space after it. Text inside fenced
 * code blocks is left exactly as it is. Pure.
 *
 * The text is the summarizer model's reply, which a prompt injection can shape: every step here is
 * linear in its length (see `replaceLabels`).
 *
 * @example
 * rewriteLabels('- [[2:bash]] ran tests', ['read', 'bash'], ['t6', 't7']) // '- `t7` ran tests'
 */
export function rewriteLabels(text: string, toolNames: readonly string[], refs: readonly string[]): string {
	if (!text.includes('[[')) {
		return text;
	}
	const rewrite = (label: LabelToken): string => {
		const index = Number(label.position) - 1;
		const expected = toolNames[index];
		const ref = refs[index];
		if (expected === undefined || ref === undefined || expected.toLowerCase() !== label.name.trim().toLowerCase()) {
			return '';
		}
		return `\`${ref}\`${label.space ? ' ' : ''}`;
	};
	// Line by line, appending as it goes (no arrays of lines: a long reply stays cheap).
	let out = '';
	let inFence = false;
	for (let start = 0; start <= text.length;) {
		const newline = text.indexOf('\n', start);
		const end = newline === -1 ? text.length : newline;
		const line = text.slice(start, end);
		if (isFence(line)) {
			inFence = !inFence;
			out += line;
		} else {
			out += inFence ? line : replaceLabels(line, rewrite);
		}
		out += newline === -1 ? '' : '\n';
		start = end + 1;
	}
	return out;
}

/** A line opening or closing a fenced code block (what `/^\s*(```|~~~)/` matches, without its backtracking). */
function isFence(line: string): boolean {
	const start = line.trimStart();
	return start.startsWith('```') || start.startsWith('~~~');
}

export interface LabelToken {
	/** The digits between `[[` and `:`. */
	readonly position: string;
	/** Everything between `:` and `]]` (no `]`; may be empty). */
	readonly name: string;
	/** Whether one space followed the label (it is part of the token). */
	readonly space: boolean;
}

/**
 * Replaces every `[[digits:name]]` token of one line, and one space after it, left to right as the
 * regular expression `/\[\[(\d+):([^\]\n]*)\]\] ?/g` would, without its backtracking: that regex
 * rescans the rest of the line from every `[[`, quadratic on a reply of repeated `[[1:`. Here the
 * position of the next `]` is remembered, so each character is looked at a bounded number of times.
 */
export function replaceLabels(line: string, replace: (label: LabelToken) => string): string {
	let out = '';
	let copied = 0;
	let closing = -1;
	let newline = line.indexOf('\n');
	for (let start = line.indexOf('[['); start !== -1; start = line.indexOf('[[', start + 1)) {
		let cursor = start + 2;
		while (isDigit(line.charCodeAt(cursor))) {
			cursor++;
		}
		if (cursor === start + 2 || line.charAt(cursor) !== ':') {
			continue;
		}
		if (closing <= cursor) {
			closing = line.indexOf(']', cursor + 1);
		}
		if (closing === -1) {
			return out + line.slice(copied); // no `]` left: no later `[[` can close either
		}
		if (newline !== -1 && newline <= cursor) {
			newline = line.indexOf('\n', cursor + 1);
		}
		if (line.charAt(closing + 1) !== ']' || (newline !== -1 && newline < closing)) {
			continue;
		}
		const space = line.charAt(closing + 2) === ' ';
		out += line.slice(copied, start) + replace({ position: line.slice(start + 2, cursor), name: line.slice(cursor + 1, closing), space });
		copied = closing + 2 + (space ? 1 : 0);
		start = copied - 1;
	}
	return out + line.slice(copied);
}

function isDigit(code: number): boolean {
	return code >= 0x30 && code <= 0x39;
}
