/**
 * What one crash trial writes, fully determined by its seed, so the killed writer and the checker
 * agree byte for byte: the drafts (a few entries, mostly a few KB, sometimes megabytes, the size of
 * a big index entry), the random bytes for their ids and the clock for their timestamps.
 */
import type { EntryDraft, RandomBytes } from '../../../src/engine/write';
import { Random } from '../random';

export const CRASH_CUSTOM_TYPE = 'pi-condense-crash-trial';

export interface CrashPlan {
	readonly drafts: readonly EntryDraft[];
	/** Pause after each line, so a kill can land between lines (ms). */
	readonly pauseMs: number;
}

export function crashPlan(seed: number, options: { readonly hugeLines: boolean }): CrashPlan {
	const random = new Random(seed ^ 0x2c1b3c6d);
	const count = random.int(1, 6);
	const drafts: EntryDraft[] = [];
	for (let seq = 0; seq < count; seq++) {
		const size = options.hugeLines && random.chance(0.15) ? random.int(1_000_000, 4_000_000) : random.int(50, 20_000);
		const payload = 'é✓ ok '.repeat(Math.ceil(size / 8)).slice(0, size);
		drafts.push(random.chance(0.7)
			? { type: 'custom', customType: CRASH_CUSTOM_TYPE, data: { seq, toolCalls: [{ toolCallId: `call_${seed}_${seq}`, resultText: payload }] } }
			: { type: 'custom_message', customType: CRASH_CUSTOM_TYPE, content: payload, display: false, details: { seq } });
	}
	return { drafts, pauseMs: random.int(0, 3) };
}

/** The seeded random source for entry ids (the same in the writer and the checker). */
export function crashRandomBytes(seed: number): RandomBytes {
	const random = new Random(seed ^ 0x51ed270b);
	return (count) => Uint8Array.from({ length: count }, () => random.int(0, 255));
}

export const CRASH_CLOCK = (): Date => new Date('2026-06-01T12:00:00.000Z');

/** The `seq` a line of ours carries (from `data` or `details`), or undefined. */
export function seqOf(entry: Record<string, unknown>): number | undefined {
	if (entry['customType'] !== CRASH_CUSTOM_TYPE) {
		return undefined;
	}
	const holder = (entry['data'] ?? entry['details']) as { seq?: unknown } | undefined;
	return typeof holder?.seq === 'number' ? holder.seq : undefined;
}
