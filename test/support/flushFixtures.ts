/**
 * Small idle sessions and configurations for flush tests: a prompt with tool batches whose
 * results are large enough to be summarized, closed by a final reply, in a real temporary file.
 */
import { resolveConfig } from '../../src/engine/config/resolve';
import { releaseDefaults } from '../../src/engine/config/defaults';
import { withWholeBlocks } from '../../src/engine/config/setConfigKey';
import type { ContextPruneConfig } from '../../src/engine/config/types';
import type { ReleaseRules } from '../../src/engine/release/releases';
import { WRITER_RELEASE } from './releases';
import { SessionBuilder, text, toolCall } from './sessionBuilder';

/** A log-like output of about `chars` characters (lines numbered, so every output differs). */
export function output(label: string, chars: number): string {
	const lines: string[] = [];
	let length = 0;
	for (let i = 1; length < chars; i++) {
		const line = `${label} line ${i}: request handled path=/api/items/${i} status=200 duration_ms=${i % 97}`;
		lines.push(line);
		length += line.length + 1;
	}
	return lines.join('\n');
}

/** One prompt, `batches` assistant turns with two calls each (~1.5k chars per result), then a reply. */
export function toolSession(batches = 1, prefix = 'c'): SessionBuilder {
	const builder = new SessionBuilder();
	builder.user('Look at the logs and the sources.');
	for (let b = 1; b <= batches; b++) {
		builder.assistant([text(`Batch ${b}.`), toolCall(`${prefix}${b}a`, 'bash', { command: `cat logs/${b}.log` }), toolCall(`${prefix}${b}b`, 'read', { path: `src/file${b}.ts` })]);
		builder.toolResult(`${prefix}${b}a`, 'bash', output(`log${b}`, 1500));
		builder.toolResult(`${prefix}${b}b`, 'read', output(`src${b}`, 1500));
	}
	builder.assistant([text('Done: the logs and sources are read.')]);
	return builder;
}

export function flushConfig(overrides: Record<string, unknown> = {}, rules: ReleaseRules = WRITER_RELEASE): ContextPruneConfig {
	// Blocks given in part are filled, as our settings writer writes them. No summarizer time limit unless the
	// case is about one (it sets its own): a loaded machine's pause must not turn an answer into a timeout.
	const raw = withWholeBlocks({ enabled: true, summarizerIdleTimeoutMs: 0, summarizerMaxTimeoutMs: 0, ...overrides }, releaseDefaults(rules));
	const { config, problems } = resolveConfig(raw, rules);
	if (problems.length > 0) {
		throw new Error(`bad test config: ${JSON.stringify(problems)}`);
	}
	return config;
}
