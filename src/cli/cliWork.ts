/**
 * The command line's own root of running work: one short-lived process, so it is never closed (a
 * Ctrl-C aborts a flush through its own signal). Both bundles (`cli.js` and `cli-commands.js`) use it.
 */
import { errorMessage } from '../base/errorMessage';
import { WorkScope } from '../work';

export const cliWork = WorkScope.root('pi-condense', (where, error) => process.stderr.write(`pi-condense: ${where}: ${errorMessage(error)}\n`));
