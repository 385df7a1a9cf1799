/**
 * One session file held open in memory: its model, advanced from the watcher's `appended` bytes
 * (only the new lines are parsed), re-read on `rewritten`. Knows the byte offset its model reaches,
 * so bytes it has already seen are skipped and a gap is filled from the file.
 */
import type { BlobReader } from '../../engine/ports';
import type { SessionModel } from '../../engine/session';
import type { RenderSettings } from '../settings/readPruneSettings';
import { sessionBlobReader } from '../condense/sessionBlobReader';
import { readCompleteBytes, readSessionModel, type LoadedSessionModel } from './readSessionModel';
import { appendedModelSteps } from '../sessions/appendedLines';
import type { SliceRunner } from '../../work';
import { SessionInsight } from '../../engine/views';

const NO_BLOBS: BlobReader = { readBlob: () => Promise.resolve(undefined) };

export class OpenSession {
	private insightValue: SessionInsight | undefined;

	private constructor(private readonly work: SliceRunner, readonly path: string, private loaded: LoadedSessionModel, private readonly onBlobsRefused?: (reason: string) => void) {}

	/**
	 * `work` runs its reads in slices (the store's scope); `onBlobsRefused` hears why spilled outputs
	 * are not read (a header id or blobs folder that is not safe); `signal` stops the read between two
	 * pieces.
	 */
	static async open(work: SliceRunner, path: string, onBlobsRefused?: (reason: string) => void, signal?: AbortSignal): Promise<OpenSession> {
		return new OpenSession(work, path, await readSessionModel(work, path, undefined, signal), onBlobsRefused);
	}

	get model(): SessionModel {
		return this.loaded.model;
	}

	/** Offset after the last complete line in the model. */
	get consumed(): number {
		return this.loaded.consumed;
	}

	/** Spill files in `<sessionId>-blobs/` next to the session. */
	get blobs(): BlobReader {
		const id = this.model.header?.id;
		return id === undefined ? NO_BLOBS : sessionBlobReader(this.path, id, this.onBlobsRefused);
	}

	/** The derived data for these settings; the same object while neither the model nor the settings change. */
	insight({ config, rules }: RenderSettings): SessionInsight {
		const current = this.insightValue;
		if (current && current.model === this.model && current.config === config && current.rules === rules) {
			return current;
		}
		return this.insightValue = new SessionInsight(this.model, config, rules);
	}

	/**
	 * Applies the watcher's `appended` bytes (the file's bytes at `[offset, offset + bytes.length)`,
	 * ending in `\n`). Returns true when the model changed.
	 */
	async applyAppend(offset: number, bytes: Uint8Array): Promise<boolean> {
		const end = offset + bytes.length;
		const before = this.loaded;
		if (end <= before.consumed) {
			return false;
		}
		// Past the watcher's bytes, lines between what we read and what it reports come from the file.
		const unread = offset <= before.consumed ? bytes.subarray(before.consumed - offset) : await readCompleteBytes(this.path, before.consumed, end);
		// In slices: a first flush of a large session appends tens of megabytes at once.
		const next = unread === undefined ? undefined : await this.work.sliced(appendedModelSteps(before.model, unread));
		if (this.loaded !== before) {
			return false; // read again meanwhile: the newer model stands
		}
		if (next === undefined) {
			await this.reload();
			return true;
		}
		const changed = next !== this.model;
		this.loaded = { ...this.loaded, model: next, consumed: end };
		return changed;
	}

	/** Reads the whole file again (it was rewritten, or could not be advanced). */
	async reload(): Promise<void> {
		this.loaded = await readSessionModel(this.work, this.path);
	}
}
