/**
 * Seeded mutations of real session files for the fuzzers. A mutant is fully determined by its seed
 * (`mutateSession(corpus, seed)`), so a failure is reproduced by its seed alone.
 *
 * Structural mutations work on the lines (delete, duplicate, swap, CRLF, U+2028/U+2029 inside
 * strings, huge and deeply nested lines, wrong types for any field, unknown types, parentId chaos,
 * duplicated ids, broken pi-condense payloads, header changes); byte mutations run last on the
 * encoded bytes (truncation anywhere, bit flips, BOMs, invalid UTF-8, NUL bytes).
 */
import { Random } from '../random';
import { mutateCondensePayload } from './condenseMutations';
import type { SessionCorpus } from './sessionCorpus';
import { allPaths, deleteAt, randomHexId, setAt, wrongValue, type Json } from './jsonPaths';

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

type LineMutation = (lines: string[], random: Random, options: Required<MutatorOptions>) => string;
type ByteMutation = (bytes: Buffer, random: Random) => { bytes: Buffer; name: string };

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

function parseLine(line: string | undefined): Json | undefined {
	if (line === undefined) {
		return undefined;
	}
	try {
		const value = JSON.parse(line.replace(/\r$/, '')) as unknown;
		return typeof value === 'object' && value !== null && !Array.isArray(value) ? value as Json : undefined;
	} catch {
		return undefined;
	}
}

/** Applies `change` to a random line that parses to an object (never the header unless `withHeader`). */
function editEntry(lines: string[], random: Random, what: string, change: (entry: Json) => string | undefined, withHeader = false): string {
	const found = findEntryLine(lines, random, withHeader ? 0 : 1);
	if (found === undefined) {
		return `${what}(no entry)`;
	}
	const { at, entry } = found;
	const detail = change(entry);
	lines[at] = JSON.stringify(entry);
	return `${what}(line ${at + 1}${detail === undefined ? '' : `: ${detail}`})`;
}

/** A random line that parses to an object: a few random tries first, then a scan. */
function findEntryLine(lines: readonly string[], random: Random, fromLine: number): { at: number; entry: Json } | undefined {
	for (let attempt = 0; attempt < 12 && lines.length > fromLine; attempt++) {
		const at = random.int(fromLine, lines.length - 1);
		const entry = parseLine(lines[at]);
		if (entry !== undefined) {
			return { at, entry };
		}
	}
	for (let at = fromLine; at < lines.length; at++) {
		const entry = parseLine(lines[at]);
		if (entry !== undefined) {
			return { at, entry };
		}
	}
	return undefined;
}

/** Entry ids, found by the `"id":…,"parentId"` pair every entry line has (fast on big files). */
function entryIds(lines: readonly string[]): string[] {
	const ids: string[] = [];
	for (const line of lines) {
		const match = /"id":"([^"\\]{1,64})","parentId"/.exec(line);
		if (match) {
			ids.push(match[1] as string);
		}
	}
	return ids;
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

const lineSeparatorInString: LineMutation = (lines, random) => editEntry(lines, random, 'lineSeparator', (entry) => {
	const strings = allPaths(entry).filter((path) => typeof path.value === 'string');
	if (strings.length === 0) {
		return 'no string';
	}
	const target = random.pick(strings);
	const text = target.value as string;
	const cut = random.int(0, text.length);
	const separator = random.pick(['\u2028', '\u2029', '\u2028\u2029', '\u0085']);
	setAt(entry, target.path, `${text.slice(0, cut)}${separator}${text.slice(cut)}`);
	return target.path.join('.');
}, true);

const hugeLine: LineMutation = (lines, random, options) => {
	const at = random.int(1, Math.max(1, lines.length - 1));
	const ids = entryIds(lines);
	const parentId = ids.at(-1) ?? null;
	const body = 'x'.repeat(options.hugeLineBytes);
	const kind = random.int(0, 2);
	if (kind === 0) {
		lines.splice(at, 0, `{"type":"message","id":"${body.slice(0, 20)}`.concat(body));
		return `hugeLine(${at + 1}, invalid)`;
	}
	const entry = kind === 1
		? { type: 'message', id: randomHexId(random), parentId, timestamp: new Date(0).toISOString(), message: { role: 'toolResult', toolCallId: 'huge', toolName: 'bash', content: [{ type: 'text', text: body }], isError: false, timestamp: 0 } }
		: { type: 'custom', customType: 'context-prune-index', id: randomHexId(random), parentId, timestamp: new Date(0).toISOString(), data: { toolCalls: [{ toolCallId: 'huge', toolName: 'bash', args: { command: body }, resultText: body, isError: false, turnIndex: 0, timestamp: 0 }] } };
	lines.splice(at, 0, JSON.stringify(entry));
	return `hugeLine(${at + 1}, ${kind === 1 ? 'tool result' : 'index record'})`;
};

const NESTED_MARKER = '\u0000NESTED\u0000';

const deepNesting: LineMutation = (lines, random) => {
	const depth = random.pick([64, 400, 499, 501, 1000, 5000, 100_000]);
	if (random.chance(0.3)) {
		const at = random.int(1, Math.max(1, lines.length - 1));
		lines.splice(at, 0, '['.repeat(depth));
		return `deepNesting(${at + 1}, unterminated ${depth})`;
	}
	const name = editEntry(lines, random, 'deepNesting', (entry) => {
		const message = entry['message'];
		const holder = typeof message === 'object' && message !== null && !Array.isArray(message) ? message as Json : entry;
		const field = random.pick(holder === entry ? ['data', 'details', 'extra'] : ['details', 'content', 'usage']);
		holder[field] = NESTED_MARKER;
		return `${holder === entry ? '' : 'message.'}${field} depth ${depth}`;
	});
	// JSON.stringify cannot produce very deep values itself, so the nested text is substituted in.
	const marker = JSON.stringify(NESTED_MARKER);
	const at = lines.findIndex((line) => line.includes(marker));
	if (at !== -1) {
		lines[at] = (lines[at] as string).replace(marker, `${'{"a":['.repeat(depth)}1${']}'.repeat(depth)}`);
	}
	return name;
};

const wrongType: LineMutation = (lines, random) => editEntry(lines, random, 'wrongType', (entry) => {
	const paths = allPaths(entry).filter((path) => path.path.length > 0);
	if (paths.length === 0) {
		return 'no field';
	}
	const target = random.pick(paths);
	const value = wrongValue(target.value, random);
	setAt(entry, target.path, value);
	return `${target.path.join('.')}=${JSON.stringify(value)?.slice(0, 40)}`;
}, random.chance(0.1));

const deleteField: LineMutation = (lines, random) => editEntry(lines, random, 'deleteField', (entry) => {
	const paths = allPaths(entry).filter((path) => path.path.length > 0);
	if (paths.length === 0) {
		return 'no field';
	}
	const target = random.pick(paths);
	deleteAt(entry, target.path);
	return target.path.join('.');
}, random.chance(0.1));

const unknownType: LineMutation = (lines, random) => {
	if (random.chance(0.5)) {
		return editEntry(lines, random, 'unknownType', (entry) => {
			entry['type'] = random.pick(['mystery', 'Message', 'session ', 'custom_messages', '', '__proto__', 'constructor']);
			return String(entry['type']);
		});
	}
	const at = lines.length > 1 ? random.int(1, lines.length - 1) : lines.length;
	const entry = { type: `future_${random.int(0, 99)}`, id: randomHexId(random), parentId: entryIds(lines).at(-1) ?? null, timestamp: new Date(0).toISOString(), payload: { any: [1, 'two'] } };
	lines.splice(at, 0, JSON.stringify(entry));
	return `unknownType(insert at ${at + 1})`;
};

const parentChaos: LineMutation = (lines, random) => {
	const ids = entryIds(lines);
	return editEntry(lines, random, 'parentChaos', (entry) => {
		const kind = random.int(0, 5);
		switch (kind) {
			case 0:
				delete entry['parentId'];
				return 'missing';
			case 1:
				entry['parentId'] = randomHexId(random);
				return 'points nowhere';
			case 2:
				entry['parentId'] = entry['id'] ?? null;
				return 'self';
			case 3:
				entry['parentId'] = ids.length > 0 ? random.pick(ids) : null;
				return 'random entry (maybe later: a cycle)';
			case 4:
				entry['parentId'] = ids.at(-1) ?? null;
				return 'last entry (a cycle through the leaf)';
			default:
				entry['parentId'] = random.pick([0, [], {}, true, '']);
				return 'wrong type';
		}
	});
};

const duplicateId: LineMutation = (lines, random) => {
	const ids = entryIds(lines).slice(1);
	return editEntry(lines, random, 'duplicateId', (entry) => {
		entry['id'] = ids.length > 0 ? random.pick(ids) : 'dup';
		return String(entry['id']);
	});
};

const headerChaos: LineMutation = (lines, random) => {
	const header = parseLine(lines[0]);
	if (header === undefined) {
		return 'headerChaos(no header)';
	}
	const kind = random.int(0, 5);
	const changes: readonly (readonly [string, () => void])[] = [
		['version', () => {
			header['version'] = random.pick([1, 2, 4, '3', null, 3.5, -1]);
		}],
		['no id', () => {
			delete header['id'];
		}],
		['type', () => {
			header['type'] = random.pick(['sessions', 'message', 'Session']);
		}],
		['cwd', () => {
			header['cwd'] = random.pick([null, 42, '', '/nonexistent/dir']);
		}],
		['id type', () => {
			header['id'] = random.pick([7, null, ['x']]);
		}],
		['extra', () => {
			header['parentSession'] = random.pick([{}, '/x.jsonl', 12]);
		}],
	];
	const [name, apply] = changes[kind] as readonly [string, () => void];
	apply();
	lines[0] = JSON.stringify(header);
	return `headerChaos(${name})`;
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

// ── Byte mutations ──────────────────────────────────────────────────────────

function insertAt(bytes: Buffer, at: number, inserted: readonly number[]): Buffer {
	return Buffer.concat([bytes.subarray(0, at), Buffer.from(inserted), bytes.subarray(at)]);
}

const truncate: ByteMutation = (bytes, random) => {
	const at = random.int(0, bytes.length);
	return { bytes: bytes.subarray(0, at), name: `truncate(${at}/${bytes.length})` };
};

const flipBytes: ByteMutation = (bytes, random) => {
	const copy = Buffer.from(bytes);
	const count = random.int(1, 8);
	const at: number[] = [];
	for (let i = 0; i < count && copy.length > 0; i++) {
		const position = random.int(0, copy.length - 1);
		copy[position] = (copy[position] as number) ^ (1 << random.int(0, 7));
		at.push(position);
	}
	return { bytes: copy, name: `flipBytes(${at.join(',')})` };
};

const bom: ByteMutation = (bytes, random) => {
	const kind = random.int(0, 2);
	const lineStarts = [0, ...[...bytes.entries()].flatMap(([i, byte]) => (byte === 0x0a && random.chance(0.001) ? [i + 1] : []))];
	const at = kind === 0 ? 0 : kind === 1 ? random.pick(lineStarts) : random.int(0, bytes.length);
	return { bytes: insertAt(bytes, at, [0xef, 0xbb, 0xbf]), name: `bom(${at})` };
};

const INVALID_UTF8: readonly (readonly number[])[] = [[0xff], [0xc3], [0xed, 0xa0, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80], [0x80], [0xc0, 0xaf], [0xf4, 0x90, 0x80, 0x80]];

const invalidUtf8: ByteMutation = (bytes, random) => {
	let result = bytes;
	const count = random.int(1, 4);
	const at: number[] = [];
	for (let i = 0; i < count; i++) {
		const position = random.int(0, result.length);
		result = insertAt(result, position, random.pick(INVALID_UTF8));
		at.push(position);
	}
	return { bytes: result, name: `invalidUtf8(${at.join(',')})` };
};

const nulBytes: ByteMutation = (bytes, random) => {
	const at = random.int(0, bytes.length);
	return { bytes: insertAt(bytes, at, [0, 0, 0]), name: `nul(${at})` };
};

const BYTE_MUTATIONS: readonly (readonly [number, ByteMutation])[] = [
	[5, truncate], [4, flipBytes], [2, bom], [3, invalidUtf8], [1, nulBytes],
];
