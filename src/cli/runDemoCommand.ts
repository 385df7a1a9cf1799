/**
 * `pi-condense demo <agent-dir>`: writes the demo sessions, so there is always something to look at.
 */
import { writeDemoSessions } from '../node/demo/writeDemoSessions';
import { cliRelease } from './loadPruneConfig';

export async function runDemoCommand(args: readonly string[]): Promise<number> {
	const [agentDir, extra] = args;
	if (agentDir === undefined || extra !== undefined) {
		process.stderr.write('pi-condense: usage: pi-condense demo <agent-dir>\n');
		return 2;
	}
	const result = await writeDemoSessions(agentDir, cliRelease());
	for (const file of result.sessionFiles) {
		process.stdout.write(`demo session: ${file}\n`);
	}
	return 0;
}
