/**
 * The session files the fuzzers start from: every real Pi session in `test/fixtures/real-sessions` and
 * every pi-condense reference session (`test/fixtures/pi-condense-sessions`). A pick is the whole file or, to
 * keep the run fast while still reaching every part of the big files, the header plus a prefix (an
 * intact chain) or a window (a chain cut off from its root) of its lines.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { piCondenseSessionsDir, realSessionFiles } from '../paths';
import type { Random } from '../random';

export interface CorpusFile {
	readonly name: string;
	readonly path: string;
	readonly text: string;
	readonly lines: readonly string[];
}

export interface CorpusPick {
	/** File name and the part taken, e.g. `large-session.jsonl[1..120]`. */
	readonly name: string;
	/** The original file, for its blob folder. */
	readonly path: string;
	readonly text: string;
}

const SMALL_FILE_BYTES = 64 * 1024;
const MAX_WINDOW_LINES = 300;

export class SessionCorpus {
	private constructor(readonly files: readonly CorpusFile[]) {}

	static load(): SessionCorpus {
		const paths = [...realSessionFiles(), ...piCondenseSessionFiles()];
		return new SessionCorpus(paths.map((path) => {
			const text = readFileSync(path, 'utf8');
			const name = path.includes('pi-condense-sessions') ? `pi-condense/${path.split('/').at(-2) ?? ''}` : path.split('/').at(-1) ?? path;
			return { name, path, text, lines: text.split('\n') };
		}));
	}

	/** A whole file (small files always, big ones sometimes) or part of one. */
	pick(random: Random): CorpusPick {
		const file = random.pick(this.files);
		const lineCount = file.lines.length - 1;
		const roll = random.next();
		if (file.text.length <= SMALL_FILE_BYTES || roll < 0.1 || lineCount < 3) {
			return { name: file.name, path: file.path, text: file.text };
		}
		const length = random.int(1, Math.min(MAX_WINDOW_LINES, lineCount - 1));
		const start = roll < 0.75 ? 1 : random.int(1, lineCount - length);
		const body = file.lines.slice(start, start + length);
		return {
			name: `${file.name}[${start + 1}..${start + length}]`,
			path: file.path,
			text: `${[file.lines[0] ?? '', ...body].join('\n')}\n`,
		};
	}
}

function piCondenseSessionFiles(): string[] {
	return readdirSync(piCondenseSessionsDir)
		.map((name) => join(piCondenseSessionsDir, name, 'session.jsonl'))
		.filter((path) => {
			try {
				return statSync(path).isFile();
			} catch {
				return false;
			}
		})
		.sort();
}
