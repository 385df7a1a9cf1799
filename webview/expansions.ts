/**
 * Which rows the user expanded to their full content (the host sends the full blocks on request)
 * and which markdown rows show their exact text, per view and row key.
 */
import type { PreviewBlock, ViewName } from '../src/shared/protocol';
import type { HostChannel } from './hostChannel';

/** At most this many expansions are asked for again when a new snapshot arrives. */
const REEXPAND_LIMIT = 20;

export class Expansions {
	private readonly full = new Map<string, readonly PreviewBlock[]>();
	readonly rawMarkdown = new Set<string>();

	constructor(private readonly host: HostChannel) {}

	/** `view:key` of every expanded row (what the page saves and reports). */
	keys(): string[] {
		return [...this.full.keys()];
	}

	has(view: ViewName, key: string): boolean {
		return this.full.has(`${view}:${key}`);
	}

	set(view: ViewName, key: string, blocks: readonly PreviewBlock[]): void {
		this.full.set(`${view}:${key}`, blocks);
	}

	collapse(view: ViewName, key: string): void {
		this.full.delete(`${view}:${key}`);
	}

	toggleRaw(key: string): void {
		if (!this.rawMarkdown.delete(key)) {
			this.rawMarkdown.add(key);
		}
	}

	/** Full blocks of one view's expanded rows, by row key. */
	forView(view: ViewName): Map<string, readonly PreviewBlock[]> {
		const out = new Map<string, readonly PreviewBlock[]>();
		for (const [viewKey, blocks] of this.full) {
			if (viewKey.startsWith(`${view}:`)) {
				out.set(viewKey.slice(view.length + 1), blocks);
			}
		}
		return out;
	}

	/** Asks the host for a row's full blocks, by key (the page may not hold the row). */
	request(view: ViewName, key: string): void {
		this.host.post({ type: 'expandRow', requestId: this.host.nextRequestId(), view, key });
	}

	/** Forgets everything (another session); keeps nothing but returns what was expanded. */
	reset(): string[] {
		const keys = this.keys();
		this.full.clear();
		this.rawMarkdown.clear();
		return keys;
	}

	/** Asks again for the shown view's rows that were expanded (the host answers for those still in the new snapshot). */
	reexpand(viewKeys: readonly string[], shown: ViewName): void {
		this.full.clear();
		for (const viewKey of viewKeys.filter((viewKey) => viewKey.startsWith(`${shown}:`)).slice(0, REEXPAND_LIMIT)) {
			this.request(shown, viewKey.slice(shown.length + 1));
		}
	}
}
