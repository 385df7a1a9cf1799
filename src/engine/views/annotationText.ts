/**
 * The words of an entry's annotation in the editor (`1.2k tokens · summarized as t3 · dropped by
 * chain b1`), and the lines of a range with theirs. Pure.
 *
 * The text is shown as plain decoration content, but what it names comes from a session file an
 * attacker may have written: refs and block ids are shown only when they look like pi-condense's
 * (`t12`, `b3`), the rest counted, and the whole is one short line.
 */
import { formatCompactCount } from '../../base/numberFormat';
import type { AnnotationIndex, EntryFacts } from './annotationFacts';
import { Pacer, type Steps } from '../steps';

/** One annotated line of the file (1-based) and what it says. */
export interface LineAnnotation {
	readonly line: number;
	readonly text: string;
}

const TOOL_REF = /^t([1-9][0-9]{0,8})$/;
const BLOCK_ID = /^b[1-9][0-9]{0,8}$/;
/** An annotation never runs longer than this (a chain may list thousands of refs). */
const MAX_TEXT = 160;
const SEPARATOR = ' · ';

/** What the facts say, or '' when they say nothing. */
export function annotationText(facts: EntryFacts): string {
	const parts: string[] = [];
	if (facts.tokens !== undefined) {
		parts.push(`${formatCompactCount(facts.tokens)} token${facts.tokens === 1 ? '' : 's'}`);
	}
	if (facts.stub) {
		const ref = refText(facts.stub.ref);
		parts.push(facts.stub.kind === 'spilled' ? `spilled${ref ? ` as ${ref}` : ''}` : facts.stub.kind === 'alias' ? `same output as ${ref || 'an earlier call'}` : `summarized as ${ref || 'a ref'}`);
	}
	if (facts.summaryOf) {
		parts.push(`summary of ${refRanges(facts.summaryOf)}`);
	}
	if (facts.chain) {
		const { calls, refs } = facts.chain;
		parts.push(`chain ${blockText(facts.chain.blockId)}: ${calls} call${calls === 1 ? '' : 's'} dropped${refs.length > 0 ? ` (${refRanges(refs)})` : ''}`);
	}
	if (facts.droppedBy !== undefined) {
		parts.push(facts.droppedBy === '' ? 'not sent (orphan)' : `dropped by chain ${blockText(facts.droppedBy)}`);
	}
	if (facts.edited) {
		const where = facts.edited.line !== undefined ? ` (line ${facts.edited.line})` : '';
		parts.push(`${facts.edited.removed ? 'left out' : 'edited'} by Pi${where}`);
	}
	const text = parts.join(SEPARATOR);
	return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT - 1)}…` : text;
}

/**
 * `t1–t5, t9`: pi-condense's refs in the order written, runs of consecutive numbers joined; anything
 * else a session lists is counted, never shown.
 */
export function refRanges(refs: readonly string[]): string {
	const numbers: number[] = [];
	let others = 0;
	for (const ref of refs) {
		const match = TOOL_REF.exec(ref);
		if (match) {
			numbers.push(Number(match[1]));
		} else {
			others++;
		}
	}
	const runs: string[] = [];
	for (let i = 0; i < numbers.length;) {
		let end = i;
		while (end + 1 < numbers.length && numbers[end + 1] === (numbers[end] as number) + 1) {
			end++;
		}
		runs.push(end > i ? `t${numbers[i]}–t${numbers[end]}` : `t${numbers[i]}`);
		i = end + 1;
	}
	if (others > 0) {
		runs.push(`${others} other${others === 1 ? '' : 's'}`);
	}
	return runs.length > 0 ? runs.join(', ') : 'no refs';
}

function refText(ref: string): string {
	return TOOL_REF.test(ref) ? ref : '';
}

function blockText(blockId: string): string {
	return BLOCK_ID.test(blockId) ? blockId : '(unnamed)';
}

/**
 * The annotations of the entries on lines `[fromLine, toLine]` (1-based, inclusive), in steps: the
 * visible lines only, each entry measured once.
 */
export function* lineAnnotationsSteps(index: AnnotationIndex, fromLine: number, toLine: number): Steps<LineAnnotation[]> {
	const annotations: LineAnnotation[] = [];
	const pacer = new Pacer();
	for (const { entry, line } of index.entriesInLines(fromLine, toLine)) {
		const facts = index.factsOf(entry, line);
		const text = annotationText(facts);
		if (text !== '') {
			annotations.push({ line, text });
		}
		if (pacer.due((facts.tokens ?? 0) * 4)) {
			yield;
		}
	}
	return annotations;
}
