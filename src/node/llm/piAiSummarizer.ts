/**
 * The `Summarizer` port on pi-ai, asked as pi-condense asks: one user message whose content is
 * one text block (the prompt), no system prompt, streamed with pi-ai's `stream` with the key,
 * headers, abort signal and the thinking level as `reasoningEffort`, and no output cap (no
 * `maxTokens`: the provider's default, as the release; `streamSimple` would add one). Each call
 * re-reads auth.json and models.json (small files; edits apply at once), resolves the model and
 * its credentials, and guards the stream with the idle and total timeouts. pi-ai resolves failures
 * instead of throwing, so every stop reason is checked here. Creating a summarizer loads nothing:
 * pi-ai is required on the first call.
 */
import type { AssistantMessage, AssistantMessageEventStream, ThinkingLevel } from '@earendil-works/pi-ai';
import type { ContextPruneConfig, SummarizerThinking } from '../../engine/config';
import { nullLogger, SummarizerError, type Logger, type SummarizeRequest, type SummarizeResult, type Summarizer } from '../../engine/ports';
import type { Usage } from '../../engine/session';
import { startCallWatchdog, type CallWatchdog } from './callWatchdog';
import type { LibraryCatalog as PiAi, LibraryModel as PiModel, ModelLibrary, PiAiLoader, RequestAuth } from './library/modelLibrary';
import { formatModelRef, resolveSummarizerModel, type ModelRef, type ThinkingLevelName } from './models';
import { redactSecrets } from './redactSecrets';
import { errorMessage } from '../../base/errorMessage';

export type SummarizerSettings = Pick<ContextPruneConfig,
	'summarizerModel' | 'summarizerThinking' | 'summarizerIdleTimeoutMs' | 'summarizerMaxTimeoutMs'>;

export interface PiAiSummarizerOptions {
	readonly loadPiAi: PiAiLoader;
	readonly agentDir: string;
	readonly settings: SummarizerSettings;
	/** The session's current model (last `model_change` or assistant message on the branch), for `default`. */
	readonly sessionModel?: ModelRef;
	/** Client-side retries inside the provider SDK (HTTP 408/409/429/5xx); undefined keeps the SDK's default. */
	readonly maxRetries?: number;
	/** Bound on `!command` credentials (default 10 s, as Pi). */
	readonly commandTimeoutMs?: number;
	readonly logger?: Logger;
}

export function createPiAiSummarizer(options: PiAiSummarizerOptions): Summarizer {
	const logger = options.logger ?? nullLogger;
	const commandCache = new Map<string, string>();
	const label = summarizerLabel(options.settings.summarizerModel, options.sessionModel);
	return {
		label,
		async summarize(request: SummarizeRequest): Promise<SummarizeResult> {
			throwIfCancelled(request.signal, label);
			const library = await loadOrExplain(options.loadPiAi);
			const piAi = await library.openCatalog(options.agentDir, 'request');
			const resolved = resolveSummarizerModel(piAi, options.settings.summarizerModel, options.sessionModel);
			const model = resolved.model;
			rejectUnsupportedApi(piAi, model);
			const requestAuth = await piAi.requestAuth(model, { commandCache, commandTimeoutMs: options.commandTimeoutMs });
			throwIfCancelled(request.signal, label);
			const reasoning = chooseReasoning(piAi, model, options.settings.summarizerThinking, resolved.thinking);
			const name = formatModelRef({ provider: model.provider, modelId: model.id });
			logger.debug(`summarizer: ${name} (key from ${requestAuth.source}${reasoning ? `, thinking ${reasoning}` : ''}), prompt ${request.prompt.length} chars`);
			const watchdog = startCallWatchdog({
				label: name,
				// Releases before 2.4.0 have no timeouts (the keys are not read): no limit.
				idleTimeoutMs: options.settings.summarizerIdleTimeoutMs ?? 0,
				maxTimeoutMs: options.settings.summarizerMaxTimeoutMs ?? 0,
				callerSignal: request.signal,
			});
			try {
				const stream = startStream(piAi, model, request.prompt, requestAuth, {
					signal: watchdog.signal, reasoning, maxRetries: options.maxRetries,
				});
				const outcome = await Promise.race([consume(stream, watchdog, request, logger), watchdog.failure]);
				return interpret(piAi, model, name, outcome, requestAuth);
			} catch (error) {
				throw redactedFailure(error, name, requestAuth);
			} finally {
				watchdog.dispose();
			}
		},
	};
}

function startStream(
	piAi: PiAi, model: PiModel, prompt: string, requestAuth: RequestAuth,
	options: { signal: AbortSignal; reasoning: ThinkingLevel | undefined; maxRetries: number | undefined },
): AssistantMessageEventStream {
	try {
		return piAi.stream(model, { messages: [{ role: 'user', content: [{ type: 'text', text: prompt }], timestamp: Date.now() }] }, {
			apiKey: requestAuth.apiKey,
			headers: requestAuth.headers ? { ...requestAuth.headers } : undefined,
			signal: options.signal,
			maxRetries: options.maxRetries,
			...(options.reasoning ? { reasoningEffort: options.reasoning } : {}),
		});
	} catch (error) {
		// pi-ai throws synchronously only when no provider handles the model's api.
		const reason = errorMessage(error);
		throw new SummarizerError('model', `${model.provider}/${model.id}: ${redactSecrets(reason, [requestAuth.apiKey])}`);
	}
}

/** What will answer, known without loading pi-ai. */
export function summarizerLabel(summarizerModel: string, sessionModel: ModelRef | undefined): string {
	const spec = summarizerModel.trim();
	if (spec === '' || spec === 'default') {
		return sessionModel ? formatModelRef(sessionModel) : 'the session\'s model (none yet)';
	}
	return spec;
}

/** `summarizerThinking` wins unless it is `default`; then a `:level` suffix of the model spec applies. */
function chooseReasoning(piAi: PiAi, model: PiModel, configured: SummarizerThinking, fromSpec: ThinkingLevelName | undefined): ThinkingLevel | undefined {
	const requested = configured === 'default' ? fromSpec : configured;
	if (!requested || requested === 'off') {
		return undefined;
	}
	const clamped = piAi.clampThinkingLevel(model, requested);
	return clamped === 'off' ? undefined : clamped;
}

interface StreamOutcome {
	readonly message: AssistantMessage;
	readonly receivedChars: number;
}

async function consume(stream: AssistantMessageEventStream, watchdog: CallWatchdog, request: SummarizeRequest, logger: Logger): Promise<StreamOutcome> {
	let receivedChars = 0;
	for await (const event of stream) {
		watchdog.activity();
		if (event.type === 'text_delta') {
			receivedChars += event.delta.length;
			try {
				request.onTextProgress?.(receivedChars);
			} catch (error) {
				logger.warn(`summarizer: progress callback failed: ${errorMessage(error)}`);
			}
		} else if (event.type === 'done') {
			return { message: event.message, receivedChars };
		} else if (event.type === 'error') {
			return { message: event.error, receivedChars };
		}
	}
	return { message: await stream.result(), receivedChars };
}

function interpret(piAi: PiAi, model: PiModel, name: string, outcome: StreamOutcome, requestAuth: RequestAuth): SummarizeResult {
	const { message, receivedChars } = outcome;
	const secrets = [requestAuth.apiKey, ...Object.values(requestAuth.headers ?? {})];
	const reason = redactSecrets(message.errorMessage ?? 'no reason given', secrets);
	const after = receivedChars > 0 ? ` (after ${receivedChars} characters of summary)` : '';
	switch (message.stopReason) {
		case 'aborted':
			throw new SummarizerError('aborted', `${name}: the request was aborted${after}: ${reason}`);
		case 'error':
			throw new SummarizerError('error', `${name} failed${after}: ${reason}${requestAuth.unsetVariableHint ? ` ${requestAuth.unsetVariableHint}` : ''}`);
		case 'length':
			throw new SummarizerError('length', `${name} reached its output limit before finishing the summary (stop reason "length").`);
		default:
			break;
	}
	// A summary is written into the session: a key the model echoed back must not go with it. (Only
	// credential-like headers: others, such as a title, may rightly appear in a summary.)
	const credentials = [requestAuth.apiKey, ...Object.entries(requestAuth.headers ?? {}).filter(([header]) => CREDENTIAL_HEADER.test(header)).map(([, value]) => value)];
	const text = redactSecrets(message.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('').trim(), credentials);
	if (!text) {
		throw new SummarizerError('empty', `${name} returned no summary text.`);
	}
	const usage = { ...message.usage, cost: { ...message.usage.cost } };
	piAi.calculateCost(model, usage);
	return { text, usage: usage satisfies Usage, model: name };
}

const CREDENTIAL_HEADER = /auth|key|token|secret|cookie|session/i;

/**
 * Whatever else leaves the call, redacted. Our own errors are worded without secrets (`interpret`
 * redacts the provider's error message; the watchdog's name no key), but a provider SDK, a proxy
 * library or pi-ai itself may throw instead of reporting an error event, with the request (and its
 * key) in the message. The original error is not kept as a cause: its message and stack hold it.
 */
function redactedFailure(error: unknown, name: string, requestAuth: RequestAuth): SummarizerError {
	if (error instanceof SummarizerError) {
		return error;
	}
	const secrets = [requestAuth.apiKey, ...Object.values(requestAuth.headers ?? {})];
	const reason = redactSecrets(errorMessage(error), secrets);
	return new SummarizerError('error', `${name} failed: ${reason}`);
}

async function loadOrExplain(load: PiAiLoader): Promise<ModelLibrary> {
	try {
		return await load();
	} catch (error) {
		throw new SummarizerError('error', errorMessage(error));
	}
}

/** An api this pi-ai cannot call (the bundled one leaves Bedrock's SDK out). */
function rejectUnsupportedApi(piAi: PiAi, model: PiModel): void {
	const reason = piAi.unsupported(model);
	if (reason) {
		throw new SummarizerError('model', `${reason}. Choose another provider for contextPrune.summarizerModel.`);
	}
}

function throwIfCancelled(signal: AbortSignal | undefined, label: string): void {
	if (signal?.aborted) {
		throw new SummarizerError('aborted', `The call to ${label} was cancelled.`);
	}
}
