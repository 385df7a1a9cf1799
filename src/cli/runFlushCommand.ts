/**
 * `pi-condense now|compact <session.jsonl>`: the same flush the extension runs (`flushSession`),
 * printing the notices `/pruner now` and `/pruner compact` show, one per line (then, when a `now`
 * found nothing pending but chains are left raw, how many and the command that compacts them). Ctrl-C aborts:
 * nothing is written. Exit code 0 when entries were written or there was nothing to do, 1 when the
 * flush was refused, failed or interrupted, or pi-condense is not installed.
 */
import { createPiAiLoader } from '../node/llm/piAiLoader';
import { inProcessSummarizers } from '../node/llm/defaultSummarizer';
import { notInstalledText } from '../engine/release';
import { flushSession } from '../node/flush/flushSession';
import type { SessionArgs } from './cliArgs';
import { compactableHint } from './compactableHint';
import type { CliContext } from './loadRelease';
import type { SliceRunner } from '../work';
import { cliAgentDir } from './cliAgentDir';

export interface FlushCommandOutput {
	readonly stdout: string;
	readonly stderr: string;
	readonly exitCode: number;
}

export async function runFlushCommand(work: SliceRunner, args: SessionArgs, { config, resolution, rules }: CliContext, signal: AbortSignal): Promise<FlushCommandOutput> {
	const agentDir = cliAgentDir(args.agentDir);
	const outcome = await flushSession(work, {
		sessionPath: args.sessionFile,
		agentDir,
		mode: args.command === 'compact' ? 'compact' : 'now',
		config,
		rules,
		resolution,
		// One short-lived process: pi-ai is loaded in this thread (no host to keep responsive).
		// The user's own shell: the installed Pi's pi-ai when there is one, as in a trusted workspace.
		summarizers: inProcessSummarizers(createPiAiLoader({ distDir: __dirname, installed: { allowed: true } })),
		interactive: args.sequential,
		signal,
		writeOptions: args.quietMs === undefined ? {} : { quietMs: args.quietMs },
	});
	if (outcome.kind === 'refused' && resolution.kind === 'not-installed') {
		// Pi without pi-condense never stubs: what we would append could only add summaries.
		return { stdout: '', stderr: `pi-condense: ${args.sessionFile}: ${outcome.message}\n${notInstalledText()}\n`, exitCode: 1 };
	}
	// The advice names the file: a script may flush many sessions in a row.
	const stderr = outcome.advice === undefined ? '' : `pi-condense: ${args.sessionFile}: ${outcome.advice}\n`;
	const ok = outcome.kind === 'written' || outcome.kind === 'nothing';
	const left = outcome.report?.compactableChains ?? 0;
	const lines = [...outcome.notices, ...(left > 0 ? [compactableHint(left, args.sessionFile)] : [])];
	return { stdout: `${lines.join('\n')}\n`, stderr, exitCode: ok ? 0 : 1 };
}
