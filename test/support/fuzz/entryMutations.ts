/**
 * Mutations of single entries for the session fuzzer: U+2028/U+2029 inside strings, huge and
 * deeply nested lines, wrong types or missing values for any field, unknown entry types, parentId
 * chaos (missing, nowhere, self, loops), duplicated ids and header changes.
 */
import type { Random } from '../random';
import { allPaths, deleteAt, randomHexId, setAt, wrongValue, type Json } from './jsonPaths';
import type { LineMutation } from './sessionMutator';

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
	try {
		lines[at] = JSON.stringify(entry);
	} catch {
		return `${what}(line ${at + 1}: nested too deeply to edit; left as it was)`;
	}
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

export const lineSeparatorInString: LineMutation = (lines, random) => editEntry(lines, random, 'lineSeparator', (entry) => {
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

export const hugeLine: LineMutation = (lines, random, options) => {
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

export const deepNesting: LineMutation = (lines, random) => {
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

export const wrongType: LineMutation = (lines, random) => editEntry(lines, random, 'wrongType', (entry) => {
	const paths = allPaths(entry).filter((path) => path.path.length > 0);
	if (paths.length === 0) {
		return 'no field';
	}
	const target = random.pick(paths);
	const value = wrongValue(target.value, random);
	setAt(entry, target.path, value);
	return `${target.path.join('.')}=${JSON.stringify(value)?.slice(0, 40)}`;
}, random.chance(0.1));

export const deleteField: LineMutation = (lines, random) => editEntry(lines, random, 'deleteField', (entry) => {
	const paths = allPaths(entry).filter((path) => path.path.length > 0);
	if (paths.length === 0) {
		return 'no field';
	}
	const target = random.pick(paths);
	deleteAt(entry, target.path);
	return target.path.join('.');
}, random.chance(0.1));

export const unknownType: LineMutation = (lines, random) => {
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

export const parentChaos: LineMutation = (lines, random) => {
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

export const duplicateId: LineMutation = (lines, random) => {
	const ids = entryIds(lines).slice(1);
	return editEntry(lines, random, 'duplicateId', (entry) => {
		entry['id'] = ids.length > 0 ? random.pick(ids) : 'dup';
		return String(entry['id']);
	});
};

export const headerChaos: LineMutation = (lines, random) => {
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
