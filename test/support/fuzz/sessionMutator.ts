/**
 * Seeded mutations of real session files for the fuzzers. A mutant is fully determined by its seed
 * (`mutateSession(corpus, seed)`), so a failure is reproduced by its seed alone.
 *
 * Structural mutations work on the lines: here the ones on whole lines (delete, duplicate, swap,
 * blank lines, CRLF, an unfinished tail), in `entryMutations.ts` those on single entries, in
 * `condenseMutations.ts` those on pi-condense's payloads; byte mutations (`byteMutations.ts`) run
 * last on the encoded bytes.
 */
import { Random } from '../random';
import { BYTE_MUTATIONS } from './byteMutations';
import { mutateCondensePayload } from './condenseMutations';
import {
	deepNesting, deleteField, duplicateId, headerChaos, hugeLine, lineSeparatorInString, parentChaos, unknownType, wrongType,
} from './entryMutations';
import type { SessionCorpus } from './sessionCorpus';

export interface Mutant {
	readonly seed: number;
	readonly source: string;
	readonly bytes: Buffer;
	readonly mutations: readonly string[];
}

export interface MutatorOptions {
	/** Size of the "huge single line" mutation (default 10 MB). */
	readonly hugeLineBytes?: number;
}

export type LineMutation = (lines: string[], random: Random, options: Required<MutatorOptions>) => string;

const HUGE_LINE_BYTES = 10 * 1024 * 1024;

export function mutateSession(corpus: SessionCorpus, seed: number, options: MutatorOptions = {}): Mutant {
	const random = new Random(seed);
	const settings = { hugeLineBytes: options.hugeLineBytes ?? HUGE_LINE_BYTES };
	const { name, text } = corpus.pick(random);
	const lines = text.split('\n');
	const mutations: string[] = [];
	const structural = random.int(0, 3);
	for (let i = 0; i < structural; i++) {
		mutations.push(pickWeighted(random, LINE_MUTATIONS)(lines, random, settings));
	}
	let bytes: Buffer = Buffer.from(lines.join('\n'), 'utf8');
	const byteCount = structural === 0 ? random.int(1, 2) : random.int(0, 1);
	for (let i = 0; i < byteCount; i++) {
		const result = pickWeighted(random, BYTE_MUTATIONS)(bytes, random);
		bytes = result.bytes;
		mutations.push(result.name);
	}
	return { seed, source: name, bytes, mutations };
}

function pickWeighted<T>(random: Random, items: readonly (readonly [number, T])[]): T {
	const total = items.reduce((sum, [weight]) => sum + weight, 0);
	let roll = random.next() * total;
	for (const [weight, item] of items) {
		roll -= weight;
		if (roll < 0) {
			return item;
		}
	}
	return (items.at(-1) as readonly [number, T])[1];
}

// ── Line mutations ──────────────────────────────────────────────────────────

/** Indexes of non-empty lines (the last element is '' when the text ended with a newline). */
function contentLines(lines: readonly string[]): number[] {
	return lines.flatMap((line, i) => (line === '' ? [] : [i]));
}

function pickLine(lines: readonly string[], random: Random, fromLine = 0): number | undefined {
	const candidates = contentLines(lines).filter((i) => i >= fromLine);
	return candidates.length === 0 ? undefined : random.pick(candidates);
}

const deleteLines: LineMutation = (lines, random) => {
	const at = random.int(0, Math.max(0, lines.length - 1));
	const count = random.int(1, 3);
	lines.splice(at, count);
	return `deleteLines(${at + 1}+${count})`;
};

const duplicateLine: LineMutation = (lines, random) => {
	const from = pickLine(lines, random) ?? 0;
	const to = random.int(0, lines.length - 1);
	lines.splice(to, 0, lines[from] ?? '');
	return `duplicateLine(${from + 1}->${to + 1})`;
};

const swapLines: LineMutation = (lines, random) => {
	const a = random.int(0, lines.length - 1);
	const b = random.int(0, lines.length - 1);
	[lines[a], lines[b]] = [lines[b] ?? '', lines[a] ?? ''];
	return `swapLines(${a + 1},${b + 1})`;
};

const blankLines: LineMutation = (lines, random) => {
	const at = random.int(0, lines.length - 1);
	lines.splice(at, 0, random.pick(['', '   ', '\t', '\u00a0', '\r']));
	return `blankLine(${at + 1})`;
};

const crlf: LineMutation = (lines, random) => {
	const all = random.chance(0.5);
	for (let i = 0; i < lines.length - 1; i++) {
		if (all || random.chance(0.2)) {
			lines[i] = `${lines[i] ?? ''}\r`;
		}
	}
	return all ? 'crlf(all)' : 'crlf(some)';
};

const partialTail: LineMutation = (lines, random) => {
	if (lines.at(-1) === '') {
		lines.pop();
	}
	if (random.chance(0.5)) {
		return 'partialTail(no final newline)';
	}
	lines.push('{"type":"message","id":"0badf00d","parentId":');
	return 'partialTail(half a line)';
};

const condensePayload: LineMutation = (lines, random) => mutateCondensePayload(lines, random);

const LINE_MUTATIONS: readonly (readonly [number, LineMutation])[] = [
	[6, deleteLines], [5, duplicateLine], [5, swapLines], [2, blankLines], [3, crlf], [4, lineSeparatorInString],
	[0.4, hugeLine], [2, deepNesting], [10, wrongType], [6, deleteField], [4, unknownType], [7, parentChaos],
	[4, duplicateId], [3, headerChaos], [3, partialTail], [12, condensePayload],
];
