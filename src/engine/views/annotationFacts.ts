/**
 * What the editor's annotations say about each entry of a session file: the tokens its message
 * weighs in Pi's context (pi-condense's count: serialized characters / 4), the ref a flush's summary
 * replaced it with, the compressed chain that dropped it, a spilled output, the refs a summary entry
 * covers, what a chain entry dropped, and a Pi 1.6 `context_edit` that changed it. Pure.
 *
 * `AnnotationIndex` is made once per insight (in steps, from Pi's context, the state and
 * what the model is sent); the facts of one entry are then read when its line is on screen, so a
 * scroll costs the visible entries only, whatever the session's size.
 */
import { stubTarget, type CondenseState, type RenderedContext } from '../condense';
import type { SummaryRef } from '../condense/state/condenseState';
import { stringifiedLength } from '../condense/measure/jsonLength';
import { charsToTokens } from '../condense/measure/compactFormat';
import { CUSTOM_TYPE_SUMMARY } from '../condense/types';
import { isSummaryMessage } from '../condense/occurrence';
import { alignContextsSteps } from '../preview/alignContexts';
import { toolCallIdsOf } from '../preview/previewRow';
import type { SessionContext, SessionModel } from '../session/model';
import type { ContextMessage, SessionEntry } from '../session/types';
import { Pacer, paced, type Steps } from '../steps';

/** What one entry's annotation says, as facts; `annotationText` words them. */
export interface EntryFacts {
	/** Tokens of the message the entry gives Pi's context, as pi-condense counts them; undefined when it gives none. */
	readonly tokens?: number;
	/** A tool result a flush replaced by a stub: how, and under which ref. */
	readonly stub?: { readonly kind: 'summarized' | 'spilled' | 'alias'; readonly ref: string };
	/** A `context-prune-summary` entry: the refs of the results it replaced. */
	readonly summaryOf?: readonly string[];
	/** Not sent: dropped by this compressed chain's block id, or by the orphan check (`''`). */
	readonly droppedBy?: string;
	/** A `context-prune-chain` entry: its block id and the tool calls it dropped. */
	readonly chain?: { readonly blockId: string; readonly calls: number; readonly refs: readonly string[] };
	/** Pi 1.6: the latest `context_edit` of this entry, at this line; `removed` when it left the message out. */
	readonly edited?: { readonly line: number | undefined; readonly removed: boolean };
}

export class AnnotationIndex {
	private constructor(
		private readonly model: SessionModel,
		private readonly state: CondenseState,
		private readonly preview: RenderedContext,
		private readonly context: SessionContext,
		/** The raw context message each entry gives (its first, for a compaction). */
		private readonly rawIndexOf: ReadonlyMap<SessionEntry, number>,
		private readonly renderedIndexOf: readonly number[],
		/** Entries of the context that give no message (an edit left them out). */
		private readonly omitted: ReadonlySet<SessionEntry>,
		private readonly chainOfCall: ReadonlyMap<string, string>,
		private readonly chainAtLine: ReadonlyMap<number, CondenseState['chains'][number]>,
		private readonly summaryRefs: ReadonlyMap<string, readonly SummaryRef[]>,
	) {}

	/** One pass over the context and the chains: what every entry's facts are read from. */
	static *build(model: SessionModel, context: SessionContext, preview: RenderedContext): Steps<AnnotationIndex> {
		const sources = yield* context.sources.entriesSteps();
		const rawIndexOf = new Map<SessionEntry, number>();
		for (let i = sources.length - 1; i >= 0; i--) {
			if (paced(i)) {
				yield;
			}
			rawIndexOf.set(sources[i] as SessionEntry, i);
		}
		// What an edit can target on the branch: the context's entries, and those an edit left out.
		const inContext = new Set<SessionEntry>(context.omitted);
		const { renderedIndexOf } = yield* alignContextsSteps(preview.before, preview.after);
		const state = preview.state;
		const chainOfCall = new Map<string, string>();
		const chainAtLine = new Map<number, CondenseState['chains'][number]>();
		const pacer = new Pacer();
		for (const chain of state.chains) {
			for (const id of chain.entry.droppedToolCallIds) {
				chainOfCall.set(id, chain.entry.blockId);
			}
			if (chain.line !== undefined) {
				chainAtLine.set(chain.line, chain);
			}
			if (pacer.due(chain.entry.droppedToolCallIds.length)) {
				yield;
			}
		}
		const summaryRefs = new Map<string, readonly SummaryRef[]>();
		for (let i = 0; i < state.summaries.length; i++) {
			if (paced(i)) {
				yield;
			}
			const summary = state.summaries[i] as CondenseState['summaries'][number];
			summaryRefs.set(summary.entryId, summary.refs);
		}
		return new AnnotationIndex(model, state, preview, context, rawIndexOf, renderedIndexOf, inContext, chainOfCall, chainAtLine, summaryRefs);
	}

	/**
	 * The entries whose lines are in `[fromLine, toLine]` (1-based, inclusive), with their lines, in
	 * file order: a binary search over the model's entries (their lines only grow).
	 */
	entriesInLines(fromLine: number, toLine: number): { readonly entry: SessionEntry; readonly line: number }[] {
		const entries = this.model.entries;
		let low = 0;
		let high = entries.length;
		while (low < high) {
			const mid = (low + high) >>> 1;
			if ((this.model.lineOf(entries[mid] as SessionEntry) ?? 0) < fromLine) {
				low = mid + 1;
			} else {
				high = mid;
			}
		}
		const found: { entry: SessionEntry; line: number }[] = [];
		for (let i = low; i < entries.length; i++) {
			const entry = entries[i] as SessionEntry;
			const line = this.model.lineOf(entry) ?? 0;
			if (line > toLine) {
				break;
			}
			found.push({ entry, line });
		}
		return found;
	}

	/** The facts of one entry at `line`; costs a measure of its own message at most. */
	factsOf(entry: SessionEntry, line: number): EntryFacts {
		const facts: { -readonly [K in keyof EntryFacts]: EntryFacts[K] } = {};
		const raw = this.rawIndexOf.get(entry);
		if (raw !== undefined) {
			const message = this.preview.before[raw] as ContextMessage;
			facts.tokens = charsToTokens(stringifiedLength(message));
			this.messageFacts(entry, message, raw, facts);
		}
		if (entry.type === 'custom_message' && entry.customType === CUSTOM_TYPE_SUMMARY && raw !== undefined) {
			const refs = this.summaryRefs.get(entry.id);
			if (refs !== undefined) {
				facts.summaryOf = refs.map((ref) => ref.shortId);
			}
		}
		const chain = entry.type === 'custom' ? this.chainAtLine.get(line) : undefined;
		if (chain) {
			facts.chain = { blockId: chain.entry.blockId, calls: chain.entry.droppedToolCallIds.length, refs: chain.entry.toolRefs };
		}
		const edit = raw !== undefined || this.omitted.has(entry) ? this.context.edits.get(entry.id) : undefined;
		if (edit) {
			facts.edited = { line: this.model.lineOf(edit), removed: edit.replacement === null };
		}
		return facts;
	}

	private messageFacts(entry: SessionEntry, message: ContextMessage, raw: number, facts: { -readonly [K in keyof EntryFacts]: EntryFacts[K] }): void {
		const at = this.renderedIndexOf[raw] ?? -1;
		if (message.role === 'toolResult') {
			const target = stubTarget(this.state, message);
			const record = target?.occurrence?.record;
			const stubbed = at < 0 || this.preview.after[at] !== message;
			if (target && (stubbed || record?.spillPath !== undefined)) {
				facts.stub = { kind: target.alias ? 'alias' : record?.spillPath !== undefined ? 'spilled' : 'summarized', ref: target.ref };
			}
		}
		if (at >= 0 || message.role === 'system') {
			return; // sent; a system message not sent is folded into the leading one, not dropped
		}
		const blockId = this.chainOfMessage(entry, message);
		facts.droppedBy = blockId ?? '';
	}

	/** The chain that dropped a message: one of its calls', or for a summary, one of the calls it covers. */
	private chainOfMessage(entry: SessionEntry, message: ContextMessage): string | undefined {
		const direct = toolCallIdsOf(message).map((id) => this.chainOfCall.get(id)).find((id) => id !== undefined);
		if (direct !== undefined || !isSummaryMessage(message, CUSTOM_TYPE_SUMMARY)) {
			return direct;
		}
		return this.summaryRefs.get(entry.id)?.map((ref) => this.chainOfCall.get(ref.toolCallId)).find((id) => id !== undefined);
	}
}
