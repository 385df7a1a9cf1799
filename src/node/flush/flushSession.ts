/**
 * Flushes one Pi session file: the API the VS Code host and the command line call. Reads the
 * file once, runs the engine's flush (`runFlush`) with pi-ai (or the offline summarizer), the
 * blob writer and SHA-1, and appends the resulting entries in one safe write.
 *
 * The session is checked for writability before any summarizer call (a refused write costs no
 * tokens) and re-checked at write time: if anything was appended meanwhile, nothing is written.
 * An abort before the write, or a failure of the first summarizer call, leaves the file
 * byte-identical. A process killed in the middle of the write leaves a prefix of the entries,
 * which the next flush reads as the user's release reads it (see `engine/flush/runFlush.ts`).
 */
import { DISABLED_NOTICE, type FlushMode, type FlushProgress, nothingFlushedNotice, NoticeList, OFFLINE_MODEL, offlineNotice, runFlush } from '../../engine/flush';
import { INSTALL_COMMAND, notInstalledFlushText, type ReleaseResolution, type ReleaseRules } from '../../engine/release';
import { ADVICE_CLOSE_PI } from '../../engine/write';
import { sentAfterDraftsSteps, type SentBefore, type SentChange } from '../../engine/preview';
import type { EntryDraft } from '../../engine/write';
import type { ContextPruneConfig } from '../../engine/config';
import type { Logger, Summarizer } from '../../engine/ports';
import type { SessionModel } from '../../engine/session';
import { SessionInsight } from '../../engine/views';
import { isWorkStopped, type SliceRunner } from '../../work';
import { readSessionModel } from '../store/readSessionModel';
import { readPruneSettings } from '../settings/readPruneSettings';
import { writeEntriesToSession, type SessionBase, type WriteEntriesOptions } from '../write';
import { createBlobWriter } from './blobWriter';
import type { DefaultSummarizer, SummarizerFactory } from '../llm/defaultSummarizer';
import { outcome, type FlushOutcome } from './flushOutcome';
import { sha1Hex } from './sha1Hasher';

export interface FlushSessionRequest {
	readonly sessionPath: string;
	readonly agentDir: string;
	readonly mode: FlushMode;
	/** Default: `contextPrune` of `<agentDir>/settings.json`, as `rules` reads it. */
	readonly config?: ContextPruneConfig;
	/** The user's pi-condense release: entries are written as it writes them. */
	readonly rules: ReleaseRules;
	/**
	 * How that release was found. `not-installed` refuses: Pi without pi-condense never stubs, so
	 * entries would only add summaries to what it sends.
	 */
	readonly resolution?: ReleaseResolution;
	/** Default: the one `summarizers` builds for this flush (pi-ai, or the offline summarizer). */
	readonly summarizer?: Summarizer;
	/**
	 * Builds the flush's default summarizer: pi-ai in the caller's thread (the CLI's
	 * `inProcessSummarizers`) or in the extension's pi-ai worker. Needed unless `summarizer` is given.
	 */
	readonly summarizers?: SummarizerFactory;
	/**
	 * The model the caller already holds and the byte offset it reaches (the extension's open session):
	 * the preflight then reads only what was appended since. Without it the file is read in pieces,
	 * asynchronously; never whole and synchronously.
	 */
	readonly base?: SessionBase;
	/**
	 * What the caller already derived from `base`'s model under `config` and `rules` (the extension's
	 * open session): its branch, Pi's context and pi-condense's state are used, not rebuilt. Ignored
	 * when the file grew since, or the configuration or release differ.
	 */
	readonly insight?: SessionInsight;
	/** One summarizer call at a time, with per-batch progress. */
	readonly interactive?: boolean;
	/** Abort: nothing is written. */
	readonly signal?: AbortSignal;
	readonly onProgress?: (event: FlushProgress) => void;
	/** Passed to `writeEntriesToSession` (tests: `quietMs: 0`, an injected Pi check). */
	readonly writeOptions?: Omit<WriteEntriesOptions, 'base' | 'revalidate'>;
	/** Parallel summarizer calls at most (default 32). */
	readonly concurrency?: number;
	readonly logger?: Logger;
}

const DISABLED_ADVICE = 'Enable pruning (contextPrune.enabled in the agent\'s settings.json, or /pruner on in Pi), then run it again.';
const RETRY_ADVICE = 'Nothing after the failure was written; run the flush again (it continues where this one stopped).';

/**
 * The refusals a flush answers with before any summarizer call (pi-condense not installed, `now`
 * with pruning off, a session that may not be written now); undefined when it may go ahead. The
 * extension asks this before its confirmation, so a flush that would be refused asks nothing.
 */
export async function checkFlushable(work: SliceRunner, request: PreflightRequest): Promise<FlushOutcome | undefined> {
	const checked = await preflight(work, request);
	return 'refused' in checked ? checked.refused : undefined;
}

type PreflightRequest = Pick<FlushSessionRequest, 'sessionPath' | 'mode' | 'resolution' | 'base' | 'writeOptions'> & { readonly config: ContextPruneConfig };

/** The checks before any summarizer call; the session as read by the writer's checks when it may be written. */
async function preflight(work: SliceRunner, request: PreflightRequest): Promise<{ readonly refused: FlushOutcome } | { readonly base: SessionBase }> {
	if (request.resolution?.kind === 'not-installed') {
		return { refused: outcome('refused', notInstalledFlushText(), { advice: `Install pi-condense: ${INSTALL_COMMAND}` }) };
	}
	if (request.mode === 'now' && !request.config.enabled) {
		return { refused: outcome('refused', DISABLED_NOTICE, { advice: DISABLED_ADVICE }) };
	}
	const checked = await writeEntriesToSession(work, request.sessionPath, [], { ...request.writeOptions, base: request.base ?? await readBase(work, request.sessionPath) });
	if (checked.kind !== 'written') {
		return { refused: refusedOutcome(checked.kind === 'refused' ? checked.refusal : undefined, checked.kind === 'disturbed' ? checked.message : undefined) };
	}
	// A write of no lines always reports the file as read; kept as a refusal rather than an assertion.
	return checked.session ? { base: checked.session } : { refused: refusedOutcome(undefined, 'the session could not be read') };
}

/**
 * `work` runs the planning and the write's reads in slices (on the extension host, its thread is
 * shared); when it closes, the flush stops as an abort does, before anything is written.
 */
export async function flushSession(work: SliceRunner, request: FlushSessionRequest): Promise<FlushOutcome> {
	try {
		return await planAndWrite(work, request);
	} catch (error) {
		if (isWorkStopped(error)) {
			return outcome('aborted', nothingFlushedNotice('aborted'));
		}
		throw error;
	}
}

async function planAndWrite(work: SliceRunner, request: FlushSessionRequest): Promise<FlushOutcome> {
	const config = request.config ?? (await readPruneSettings(request.agentDir, request.rules)).config;
	const checked = await preflight(work, { ...request, config });
	if ('refused' in checked) {
		return checked.refused;
	}
	const base = checked.base;
	const model = base.model;
	const header = model.header;
	if (!header) {
		return refusedOutcome(undefined, 'the session has no header');
	}
	// Planning runs in slices: in the extension this is the host's thread.
	const given = request.insight;
	const insight = given?.model === model && given.config === config && given.rules === request.rules ? given : new SessionInsight(model, config, request.rules);
	const context = await work.sliced(insight.contextSteps(), request.signal);
	let fallback: DefaultSummarizer | undefined;
	let summarizer = request.summarizer;
	if (!summarizer) {
		fallback = defaultSummarizer(request, config, context.model ?? undefined);
		summarizer = fallback;
	}
	const branch = await work.sliced(insight.branchSteps(), request.signal);
	const result = await runFlush({
		mode: request.mode,
		branch,
		messages: context.messages,
		state: await work.sliced(insight.stateSteps(), request.signal),
		config,
		rules: request.rules,
		interactive: request.interactive,
		concurrency: request.concurrency,
		signal: request.signal,
		onProgress: request.onProgress,
	}, {
		summarizer,
		hash: sha1Hex,
		spill: createBlobWriter(request.sessionPath, header.id),
		now: () => Date.now(),
		runSteps: (steps) => work.sliced(steps, request.signal),
	// The worker keeps the summarizer's state until it is released.
	}).finally(() => fallback?.release());
	const reason = fallback?.offlineReason();
	const notices = reason === undefined ? result.notices : NoticeList.of(offlineNotice(reason), result.notices);
	const label = reason === undefined ? summarizer.label : OFFLINE_MODEL;
	const common = { notices, report: result.report, summarizer: label, ...(reason === undefined ? {} : { offlineReason: reason }) };
	if (result.status === 'aborted' || request.signal?.aborted) {
		return outcome('aborted', nothingFlushedNotice('aborted'), { report: result.report, summarizer: label });
	}
	if (result.drafts.length === 0) {
		return outcome(result.status === 'failed' ? 'failed' : 'nothing', result.message, { ...common, advice: result.status === 'failed' ? RETRY_ADVICE : undefined });
	}
	const written = await writeEntriesToSession(work, request.sessionPath, result.drafts, {
		...request.writeOptions,
		base,
		// The session's store reads the new lines itself.
		modelAfterWrite: false,
		revalidate: (current) => unchangedSince(base, current),
	});
	if (written.kind === 'refused') {
		return { ...refusedOutcome(written.refusal), summarizer: label, report: result.report };
	}
	if (written.kind === 'disturbed') {
		return outcome('failed', written.message, { ...common, notices: NoticeList.of(notices, written.message), entries: written.entries.slice(0, written.attempted), advice: 'Check the session; running the flush again completes it.' });
	}
	const sent = await sentAfterWrite(work, { branch, messages: context.messages, insight, config, rules: request.rules }, result.drafts);
	return outcome(result.status === 'failed' ? 'failed' : 'written', result.message, {
		...common, entries: written.entries, written: written.written, sent, advice: result.status === 'failed' ? RETRY_ADVICE : undefined,
	});
}

/**
 * What the written entries do to the request, measured as the estimate before the prune measures
 * its dry run's entries. The entries are in the file by then: a stop (the window closing) leaves the
 * figure out rather than the outcome unsaid.
 */
async function sentAfterWrite(work: SliceRunner, before: Omit<SentBefore, 'sent'> & { readonly insight: SessionInsight }, drafts: readonly EntryDraft[]): Promise<SentChange | undefined> {
	try {
		const sent = (await work.sliced(before.insight.previewSteps())).after;
		return await work.sliced(sentAfterDraftsSteps({ ...before, sent }, drafts, Date.now()));
	} catch (error) {
		if (isWorkStopped(error)) {
			return undefined;
		}
		throw error;
	}
}

function noSummarizers(): never {
	throw new Error('flushSession: no summarizer and no summarizer factory were given');
}

/** The session as far as its last complete line, read in pieces; undefined when it cannot be read (the preflight says why). */
async function readBase(work: SliceRunner, path: string): Promise<SessionBase | undefined> {
	try {
		const loaded = await readSessionModel(work, path);
		return { model: loaded.model, consumedBytes: loaded.consumed };
	} catch {
		return undefined;
	}
}

/** The plan was made on `base`: refuse the write if any entry was appended since. */
function unchangedSince(base: SessionBase, current: SessionModel): string | undefined {
	if (current.entries.length === base.model.entries.length && current.leafId === base.model.leafId) {
		return undefined;
	}
	return 'the session changed while the flush was being computed (Pi may be working on it); nothing was written';
}

function refusedOutcome(refusal: FlushOutcome['refusal'], message?: string): FlushOutcome {
	const text = `pruner: nothing flushed — ${refusal?.message ?? message ?? 'the session cannot be written'}`;
	return outcome('refused', text, { refusal, advice: refusal?.advice ?? ADVICE_CLOSE_PI });
}

function defaultSummarizer(request: FlushSessionRequest, config: ContextPruneConfig, sessionModel: { provider: string; modelId: string } | undefined): DefaultSummarizer {
	return (request.summarizers ?? noSummarizers)({
		agentDir: request.agentDir,
		config,
		sessionModel,
		fallbackRule: request.rules.summarizerFallback,
		logger: request.logger,
	});
}
