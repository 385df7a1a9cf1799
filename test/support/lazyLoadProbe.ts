/**
 * Run as its own Node process by the loader test: imports the LLM modules, creates a summarizer,
 * and prints (as JSON) whether the pi-ai chunk was in the require cache at each step.
 * Usage: node out/test/support/lazyLoadProbe.js <distDir>
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { defaults } from './releases';
import { createPiAiLoader } from '../../src/node/llm/piAiLoader';
import { createPiAiSummarizer } from '../../src/node/llm/piAiSummarizer';
import { parseModelSpec } from '../../src/node/llm/models';

const distDir = process.argv[2] ?? 'dist';
const chunk = join(distDir, 'pi-ai.js');
const piAiLoaded = (): boolean => Object.keys(require.cache).some((path) => path === chunk || path.includes('pi-ai/dist'));

async function main(): Promise<void> {
	const report: Record<string, unknown> = { afterImport: piAiLoaded() };
	const loader = createPiAiLoader({ distDir, installed: { allowed: false, reason: 'probe' } });
	const summarizer = createPiAiSummarizer({ loadPiAi: loader, agentDir: join(distDir, 'no-agent-dir'), settings: defaults(), sessionModel: { provider: 'anthropic', modelId: 'claude-sonnet-4-5' } });
	report.label = summarizer.label;
	report.spec = parseModelSpec('openai/gpt-5:high');
	report.afterCreate = piAiLoaded();
	report.origin = (await loader()).origin;
	report.exports = Object.keys(createRequire(chunk)(chunk) as object).sort();
	report.afterFirstUse = piAiLoaded();
	process.stdout.write(JSON.stringify(report));
}

void main();
