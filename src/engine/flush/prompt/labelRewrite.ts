/**
 * Turns the `[[N:toolname]]` labels a summary repeats into the batch's `tN` refs (pi-condense
 * 2.1.0): a label becomes `` `tK` `` when N is a call of the batch and the name matches it
 * (case-insensitively); any other label is removed, with the space after it. Text inside fenced
 * code blocks is left exactly as it is. Pure.
 *
 * @example
 * rewriteLabels('- [[2:bash]] ran tests', ['read', 'bash'], ['t6', 't7']) // '- `t7` ran tests'
 */
const LABEL = /\[\[(\d+):([^\]\n]*)\]\] ?/g;
const FENCE = /^\s*(```|~~~)/;

export function rewriteLabels(text: string, toolNames: readonly string[], refs: readonly string[]): string {
	if (!text.includes('[[')) {
		return text;
	}
	let inFence = false;
	return text.split('\n').map((line) => {
		if (FENCE.test(line)) {
			inFence = !inFence;
			return line;
		}
		return inFence ? line : line.replace(LABEL, (label: string, position: string, name: string) => {
			const index = Number(position) - 1;
			const expected = toolNames[index];
			const ref = refs[index];
			if (expected === undefined || ref === undefined || expected.toLowerCase() !== name.trim().toLowerCase()) {
				return '';
			}
			return `\`${ref}\`${label.endsWith(' ') ? ' ' : ''}`;
		});
	}).join('\n');
}
