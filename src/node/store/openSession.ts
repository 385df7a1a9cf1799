/**
 * One session file held open in memory: its model, advanced from the watcher's `appended` bytes
 * (only the new lines are parsed), re-read on `rewritten`. Knows the byte offset its model reaches,
 * so bytes it has already seen are skipped and a gap is filled from the file. The store's open
 * sessions also keep their costs ledger (the Costs panel's first paint, the cache countdown), read
 * once on open and then advanced by the appended entries only, always for the model shown.
 */
import type { BlobReader } from '../../engine/ports';
import type { SessionModel } from '../../engine/session';
import type { RenderSettings } from '../settings/readPruneSettings';
import { sessionBlobReader } from '../condense/sessionBlobReader';
import { readCompleteBytes, readSessionModel, type LoadedSessionModel } from './readSessionModel';
import { appendedModelSteps } from '../sessions/appendedLines';
import type { SliceRunner } from '../../work';
import { SessionInsight } from '../../engine/views';
import { CostsLedger } from '../../engine/costs';

const NO_BLOBS: BlobReader = { readBlob: () => Promise.resolve(undefined) };

export interface OpenSessionOptions {
	/** Hears why spilled outputs are not read (a header id or blobs folder that is not safe). */
	readonly onBlobsRefused?: (reason: string) => void;
	/** Keep the costs ledger (the store's open sessions); a session opened for one measurement does not. */
	readonly keepCosts?: boolean;
	/** Stops the first read between two pieces. */
	readonly signal?: AbortSignal;
}

/** The model, where the file was read to, and the ledger of the same entries. */
interface LoadedSession extends LoadedSessionModel {
	readonly costs: CostsLedger | undefined;
}

export class OpenSession {
	private insightValue: SessionInsight | undefined;

	private constructor(private readonly work: SliceRunner, readonly path: string, private loaded: LoadedSession, private readonly options: OpenSessionOptions) {}

	/** `work` runs its reads in slices (the store's scope). */
	static async open(work: SliceRunner, path: string, options: OpenSessionOptions = {}): Promise<OpenSession> {
		return new OpenSession(work, path, await loadSession(work, path, options, options.signal), options);
	}

	get model(): SessionModel {
		return this.loaded.model;
	}

	/** The costs ledger of `model` (same entries), when this session keeps one. */
	get costs(): CostsLedger | undefined {
		return this.loaded.costs;
	}

	/** Offset after the last complete line in the model. */
	get consumed(): number {
		return this.loaded.consumed;
	}

	/** Spill files in `<sessionId>-blobs/` next to the session. */
	get blobs(): BlobReader {
		const id = this.model.header?.id;
		return id === undefined ? NO_BLOBS : sessionBlobReader(this.path, id, this.options.onBlobsRefused);
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
		// The appended entries only; the model and its ledger are published together.
		const costs = before.costs && await this.work.sliced(before.costs.extendSteps(next.entries));
		if (this.loaded !== before) {
			return false;
		}
		const changed = next !== this.model;
		this.loaded = { model: next, consumed: end, costs };
		return changed;
	}

	/** Reads the whole file again (it was rewritten, or could not be advanced). */
	async reload(): Promise<void> {
		this.loaded = await loadSession(this.work, this.path, this.options);
	}
}

async function loadSession(work: SliceRunner, path: string, options: OpenSessionOptions, signal?: AbortSignal): Promise<LoadedSession> {
	const loaded = await readSessionModel(work, path, undefined, signal);
	// In slices, right after the read: one pass over the entries (about a tenth of the read's time).
	return { ...loaded, costs: options.keepCosts === true ? await work.sliced(CostsLedger.empty().extendSteps(loaded.model.entries), signal) : undefined };
}
