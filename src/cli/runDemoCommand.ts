/**
 * `pi-condense demo <agent-dir>`: writes the demo sessions, so there is always something to look at.
 */
import { writeDemoSessions } from '../node/demo/writeDemoSessions';
import { LATEST_RELEASE, releaseRules } from '../engine/release';
import type { SliceRunner } from '../work';

export async function runDemoCommand(work: SliceRunner, args: readonly string[]): Promise<number> {
	const [agentDir, extra] = args;
	if (agentDir === undefined || extra !== undefined) {
		process.stderr.write('pi-condense: usage: pi-condense demo <agent-dir>\n');
		return 2;
	}
	// The demo shows what today's pi-condense (`pi install npm:pi-condense`) writes.
	const result = await writeDemoSessions(work, agentDir, releaseRules(LATEST_RELEASE));
	for (const file of result.sessionFiles) {
		process.stdout.write(`demo session: ${file}\n`);
	}
	return 0;
}
