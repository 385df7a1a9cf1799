/**
 * Shared by the flush crash harness and the process it kills: the request, the configuration (the
 * fake model, thresholds low enough that real sessions have plenty to summarize) and the fake
 * server's deterministic replies.
 */
import { resolveConfig } from '../../../src/engine/config/resolve';
import type { FlushMode } from '../../../src/engine/flush';
import { WRITER_RELEASE } from '../releases';

export interface FlushCrashRequest {
	readonly path: string;
	readonly agentDir: string;
	readonly distDir: string;
	readonly mode: FlushMode;
	readonly pauseMs: number;
}

export const FLUSH_CRASH_CONFIG = resolveConfig({
	enabled: true,
	summarizerModel: 'fake-llm/fake-model',
	minBatchChars: 200,
	chainCompression: { rollingWindow: 1 },
}, WRITER_RELEASE).config;
