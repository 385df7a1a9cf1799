/**
 * Summaries in the style of the scripted model that produced the reference sessions in
 * test/fixtures/pi-condense-sessions (its replies are visible in them): one bullet per tool call, `- <tool> <first "command" or
 * "path" value in the call's block, up to 60 chars>: OK|ERROR`, and a fixed sentence for a range
 * fusion. Works on our prompt (the blocks carry `[[N:tool]]` labels the oracle never saw, and
 * ignores them, as a model that does not follow the label instruction would).
 */

export const ORACLE_FUSION_TEXT = 'Fused sub-task summary: explored files and recorded outcomes (see refs).';

const KEY_VALUE = /"(?:command|path)": "([^"]*)"/;
const TOOL = /Tool: ([^(\s]+)\(/;
const STATUS = /Result \((OK|ERROR)\)/;

export function oracleReply(prompt: string): string {
	if (prompt.includes('<sub-task-summaries>')) {
		return ORACLE_FUSION_TEXT;
	}
	const start = prompt.indexOf('<tool-call-batch>\n');
	const end = prompt.lastIndexOf('\n</tool-call-batch>');
	const body = prompt.slice(start + '<tool-call-batch>\n'.length, end);
	const lines: string[] = [];
	for (const block of body.split('\n---\n')) {
		const tool = TOOL.exec(block);
		if (!tool) {
			continue;
		}
		const key = KEY_VALUE.exec(block)?.[1]?.slice(0, 60) ?? '';
		const status = STATUS.exec(block)?.[1] ?? 'OK';
		lines.push(`- ${tool[1]}${key ? ` ${key}` : ''}: ${status}`);
	}
	return lines.join('\n');
}

/**
 * The same scripted model answering a 2.1.0+ prompt: each bullet starts with its block's
 * `[[N:tool]]` label, as the model that wrote the 2.9.1 reference sessions did (their summaries
 * read `` - `t1` bash ls: OK `` once the labels are rewritten).
 */
export function labelledOracleReply(prompt: string): string {
	if (prompt.includes('<sub-task-summaries>')) {
		return ORACLE_FUSION_TEXT;
	}
	const labels = [...prompt.matchAll(/^\[\[\d+:[^\]\n]+\]\] Tool: /gm)].map((match) => match[0].slice(0, match[0].indexOf(']]') + 2));
	const bullets = oracleReply(prompt).split('\n');
	return labels.length === bullets.length ? bullets.map((bullet, i) => `- ${labels[i] ?? ''} ${bullet.slice(2)}`).join('\n') : bullets.join('\n');
}
