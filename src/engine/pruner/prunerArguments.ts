/**
 * Parsing of the values the `/pruner` subcommands take, as typed into an input box or passed to a
 * command. Every parser returns the value or a message saying what is wrong; none changes anything.
 * Where pi-condense stored an argument unvalidated (`prune-on`), this validates it. Pure.
 */
import { BATCHING_MODE_VALUES, PRUNE_ON_VALUES, SUMMARIZER_THINKING_VALUES } from '../config/resolve';
import type { BatchingMode, PruneOn, SummarizerThinking } from '../config/types';

export type Parsed<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly message: string };

const ok = <T>(value: T): Parsed<T> => ({ ok: true, value });
const fail = <T>(message: string): Parsed<T> => ({ ok: false, message });

/** `protected-tools` / `protected-paths`: names separated by commas or spaces; `none` or `clear` empties the list. */
export function parseNameList(input: string): Parsed<string[]> {
	const items = input.split(/[\s,]+/).filter((item) => item !== '');
	if (items.length === 1 && (items[0] === 'none' || items[0] === 'clear')) {
		return ok([]);
	}
	return ok([...new Set(items)]);
}

/** `min-batch-chars`: a whole number ≥ 0 (0 turns the check off). */
export function parseMinBatchChars(input: string): Parsed<number> {
	const text = input.trim();
	if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text))) {
		return fail(`"${text}" is not a whole number ≥ 0. Use 0 to turn the check off.`);
	}
	return ok(Number(text));
}

export function parseThinking(input: string): Parsed<SummarizerThinking> {
	const text = input.trim().toLowerCase();
	return (SUMMARIZER_THINKING_VALUES as readonly string[]).includes(text)
		? ok(text as SummarizerThinking)
		: fail(`Invalid thinking level "${input.trim()}". Use one of: ${SUMMARIZER_THINKING_VALUES.join(', ')}.`);
}

export function parsePruneOn(input: string): Parsed<PruneOn> {
	const text = input.trim();
	return (PRUNE_ON_VALUES as readonly string[]).includes(text)
		? ok(text as PruneOn)
		: fail(`Invalid prune trigger "${text}". Use agent-message or on-demand.`);
}

export function parseBatchingMode(input: string): Parsed<BatchingMode> {
	const text = input.trim();
	return (BATCHING_MODE_VALUES as readonly string[]).includes(text)
		? ok(text as BatchingMode)
		: fail(`Invalid batching mode "${text}". Use turn or agent-message.`);
}

/** `dedup`: on/off/true/false, or status (no change). */
export function parseDedup(input: string): Parsed<boolean | 'status'> {
	switch (input.trim().toLowerCase()) {
		case '':
		case 'status':
			return ok('status');
		case 'on':
		case 'true':
			return ok(true);
		case 'off':
		case 'false':
			return ok(false);
		default:
			return fail(`Invalid dedup value "${input.trim()}". Use on, off or status.`);
	}
}

export interface ModelArgument {
	/** `default` or `provider/id`. */
	readonly model: string;
	/** From a `:level` suffix, when one was given. */
	readonly thinking?: Exclude<SummarizerThinking, 'default'>;
}

/**
 * `model`: `default`, or `provider/id` with an optional `:thinking` suffix. The last `:` starts a
 * suffix only when a thinking level follows (model ids such as `qwen2.5-coder:7b` keep their colon).
 */
export function parseModelArgument(input: string): Parsed<ModelArgument> {
	const text = input.trim();
	if (text === 'default') {
		return ok({ model: 'default' });
	}
	const colon = text.lastIndexOf(':');
	const suffix = text.slice(colon + 1).toLowerCase();
	const hasLevel = colon > 0 && suffix !== 'default' && (SUMMARIZER_THINKING_VALUES as readonly string[]).includes(suffix);
	const model = hasLevel ? text.slice(0, colon) : text;
	const slash = model.indexOf('/');
	if (slash <= 0 || slash === model.length - 1 || /\s/.test(model)) {
		return fail(`"${text}" is not a model: use default or provider/model-id, optionally followed by :thinking (for example anthropic/claude-haiku-4-5:low).`);
	}
	return ok(hasLevel ? { model, thinking: suffix as ModelArgument['thinking'] } : { model });
}

/**
 * `recovery-grace` (2.3.0+): as pi-condense reads it, `parseInt(arg, 10)` (so `3abc` is 3); a value
 * that is not a number or is negative is refused with pi-condense's own warning.
 */
export function parseRecoveryGrace(input: string): Parsed<number> {
	const value = Number.parseInt(input, 10);
	if (!Number.isFinite(value) || value < 0) {
		return fail(`Invalid recovery-grace: "${input}". Expected a non-negative integer (0 disables).`);
	}
	return ok(value);
}
