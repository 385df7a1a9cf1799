/**
 * A history like a heavy Pi user's, for the `history` bench step (and reusable for cost reports):
 * 1,000 sessions in 40 projects (700 of 0.3 MB, 250 of 3 MB, 45 of 15 MB, 5 of 60 MB), made from
 * real sessions (a plain Pi session, one with compactions, one pruned by real pi-condense 2.9.1)
 * repeated with fresh ids by make-big-session.py, each copy with its own header, project, times and
 * usage: every assistant reply gets its session's provider and model, token counts scaled by its
 * session's factor and a cost from that model's price, and every session ends with a Pi 1.x `usage`
 * entry (cache warming). Each session's first message carries the word `hist<n>word` (search).
 * Generated once into `.bench/history-v<N>/agent` (git-ignored).
 */
import { execFileSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { piCondenseSessionsDir, realSessionsDir, repoRoot } from '../support/paths';

/** Bump when the sources or the rules below change: the cached history is made again. */
const HISTORY_VERSION = 1;

const SIZE_CLASSES = [
	{ count: 5, megabytes: 60 },
	{ count: 45, megabytes: 15 },
	{ count: 250, megabytes: 3 },
	{ count: 700, megabytes: 0.3 },
] as const;

const PROJECTS = 40;

const SOURCES = [
	join(realSessionsDir, 'large-session.migrated-v3.jsonl'),
	join(realSessionsDir, 'before-compaction.migrated-v3.jsonl'),
	join(piCondenseSessionsDir, 'large-bulk-2.9.1', 'session.jsonl'),
];

/** USD per million tokens: input, output, cache read, cache write. */
const MODELS = [
	{ provider: 'anthropic', model: 'claude-sonnet-4-5', price: [3, 15, 0.3, 3.75] },
	{ provider: 'openai', model: 'gpt-5', price: [1.25, 10, 0.125, 0] },
	{ provider: 'google', model: 'gemini-2.5-pro', price: [1.25, 10, 0.31, 0] },
	{ provider: 'anthropic', model: 'claude-opus-4-1', price: [15, 75, 1.5, 18.75] },
	{ provider: 'openrouter', model: 'deepseek/deepseek-chat', price: [0.27, 1.1, 0.07, 0] },
] as const;

export interface History {
	/** The agent dir whose `sessions/` holds the history. */
	readonly agentDir: string;
	readonly sessionsDir: string;
	readonly files: readonly string[];
	readonly bytes: number;
}

/** The history, made on first use (about a minute) and reused after. */
export function benchHistory(log: (line: string) => void = () => undefined): History {
	const dir = join(repoRoot, '.bench', `history-v${HISTORY_VERSION}`);
	const agentDir = join(dir, 'agent');
	const sessionsDir = join(agentDir, 'sessions');
	const marker = join(dir, 'files.json');
	if (!existsSync(marker)) {
		rmSync(dir, { recursive: true, force: true });
		mkdirSync(sessionsDir, { recursive: true });
		log(`making the bench history in ${dir} (once)…`);
		const files = makeHistory(dir, sessionsDir);
		writeFileSync(marker, JSON.stringify(files));
	}
	const files = JSON.parse(readFileSync(marker, 'utf8')) as string[];
	return { agentDir, sessionsDir, files, bytes: files.reduce((sum, file) => sum + statSync(file).size, 0) };
}

function makeHistory(dir: string, sessionsDir: string): string[] {
	const bases = new Map<string, string[]>();
	const base = (source: number, megabytes: number): string[] => {
		const key = `${source}-${megabytes}`;
		let lines = bases.get(key);
		if (!lines) {
			lines = baseLines(dir, source, megabytes);
			bases.set(key, lines);
		}
		return lines;
	};
	const files: string[] = [];
	let n = 0;
	for (const { count, megabytes } of SIZE_CLASSES) {
		for (let i = 0; i < count; i++, n++) {
			const project = n % PROJECTS;
			// A few projects share a last folder name (`api` under two groups), as real workspaces do.
			const cwd = `/home/dev/work/${project % 4 === 0 ? 'client' : 'team'}-${project % 7}/${project % 10 === 0 ? 'api' : `project-${project}`}`;
			const folder = join(sessionsDir, `--${cwd.replace(/^\//, '').replace(/[/\\:]/g, '-')}--`);
			mkdirSync(folder, { recursive: true });
			const started = Date.UTC(2026, 0, 1) + n * 3_600_000;
			const id = sessionId(n);
			const file = join(folder, `${new Date(started).toISOString().replace(/[:.]/g, '-')}_${id}.jsonl`);
			writeSession(file, base(n % SOURCES.length, megabytes), { n, id, cwd, started });
			files.push(file);
		}
		bases.clear();
	}
	return files;
}

/** The body lines of a source repeated (or cut, for less than one copy) to about `megabytes`. */
function baseLines(dir: string, source: number, megabytes: number): string[] {
	const sourceFile = SOURCES[source] as string;
	let text: string;
	if (megabytes >= 1) {
		const out = join(dir, `base-${source}-${megabytes}mb.jsonl`);
		if (!existsSync(out)) {
			execFileSync('python3', [join(repoRoot, 'test', 'bench', 'make-big-session.py'), sourceFile, out, String(megabytes)]);
		}
		text = readFileSync(out, 'utf8');
	} else {
		text = readFileSync(sourceFile, 'utf8');
	}
	const lines = text.split('\n').filter((line) => line.trim() !== '').slice(1);
	if (megabytes >= 1) {
		return lines;
	}
	const kept: string[] = [];
	let bytes = 0;
	for (const line of lines) {
		if (bytes >= megabytes * 1e6) {
			break;
		}
		kept.push(line);
		bytes += Buffer.byteLength(line) + 1;
	}
	return kept;
}

interface SessionSpec {
	readonly n: number;
	readonly id: string;
	readonly cwd: string;
	readonly started: number;
}

function writeSession(file: string, body: readonly string[], spec: SessionSpec): void {
	const model = MODELS[spec.n % MODELS.length] as (typeof MODELS)[number];
	const factor = 0.5 + ((spec.n * 7919) % 1000) / 1000;
	const fd = openSync(file, 'w');
	let chunk: string[] = [JSON.stringify({ type: 'session', version: 3, id: spec.id, timestamp: new Date(spec.started).toISOString(), cwd: spec.cwd })];
	let chunkBytes = 0;
	let firstUser = true;
	let shift: number | undefined;
	let lastId: string | undefined;
	let lastTime = spec.started;
	for (const line of body) {
		let out = line;
		const head = line.slice(0, 200);
		if (line.startsWith('{"type":"message"') && (head.includes('"role":"assistant"') || head.includes('"role":"user"'))) {
			const entry = JSON.parse(line) as { id?: string; timestamp?: string; message: Record<string, unknown> };
			const message = entry.message;
			if (typeof message.timestamp === 'number') {
				shift ??= spec.started + 60_000 - message.timestamp;
				message.timestamp += shift;
				lastTime = Math.max(lastTime, message.timestamp);
			}
			if (message.role === 'user' && firstUser) {
				firstUser = false;
				message.content = withTag(message.content, `[p${spec.n % PROJECTS} hist${spec.n}word] `);
			}
			if (message.role === 'assistant') {
				message.provider = model.provider;
				message.model = model.model;
				message.usage = scaledUsage(message.usage, factor, model.price);
			}
			out = JSON.stringify(entry);
		}
		lastId = /"id":"([^"]+)"/.exec(line.slice(0, 120))?.[1] ?? lastId;
		chunk.push(out);
		chunkBytes += out.length;
		if (chunkBytes > 4_000_000) {
			writeSync(fd, `${chunk.join('\n')}\n`);
			chunk = [];
			chunkBytes = 0;
		}
	}
	const usage = scaledUsage({ input: 0, output: 0, cacheRead: 40_000, cacheWrite: 0 }, factor, model.price);
	chunk.push(JSON.stringify({ type: 'usage', id: `u${spec.n.toString(16).padStart(7, '0')}`, parentId: lastId ?? null, timestamp: new Date(lastTime + 1000).toISOString(), kind: 'cache_warm', provider: model.provider, model: model.model, usage }));
	writeSync(fd, `${chunk.join('\n')}\n`);
	closeSync(fd);
}

function withTag(content: unknown, tag: string): unknown {
	if (typeof content === 'string') {
		return tag + content;
	}
	if (Array.isArray(content)) {
		const first = content.findIndex((block: { type?: string }) => block.type === 'text');
		return first < 0 ? [{ type: 'text', text: tag }, ...content] : content.map((block: { text?: string }, i) => (i === first ? { ...block, text: tag + (block.text ?? '') } : block));
	}
	return content;
}

function scaledUsage(usage: unknown, factor: number, price: readonly number[]): unknown {
	const read = (key: string): number => {
		const value = (usage as Record<string, unknown> | undefined)?.[key];
		return typeof value === 'number' ? Math.round(value * factor) : 0;
	};
	const input = read('input');
	const output = read('output');
	const cacheRead = read('cacheRead');
	const cacheWrite = read('cacheWrite');
	const cost = [input, output, cacheRead, cacheWrite].map((tokens, i) => (tokens * (price[i] ?? 0)) / 1e6);
	return {
		input, output, cacheRead, cacheWrite, totalTokens: input + output + cacheRead + cacheWrite,
		cost: { input: cost[0], output: cost[1], cacheRead: cost[2], cacheWrite: cost[3], total: cost.reduce((a, b) => a + b, 0) },
	};
}

/** A UUIDv7-looking id, the same for the same n. */
function sessionId(n: number): string {
	const hex = (n * 2654435761 % 2 ** 32).toString(16).padStart(8, '0');
	return `019${hex.slice(0, 5)}-${hex.slice(5)}a1-7${n.toString(16).padStart(3, '0').slice(-3)}-8${hex.slice(1, 4)}-${(n + 1).toString(16).padStart(12, '0')}`;
}
