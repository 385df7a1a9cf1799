/**
 * Scopes of running work for the tests (`src/work/`). `testWork` is the suites' shared root, never
 * closed: a function that runs long passes for its caller runs them under it. A test of an object
 * that owns work gives it `testScope()`, and closes that scope when done.
 */
import { errorMessage } from '../../src/base/errorMessage';
import { WorkScope } from '../../src/work';

/** Failures of background work in a test are printed, not swallowed: a test that expects one makes its own root. */
const printed = (where: string, error: unknown): void => {
	console.error(`[work] ${where}: ${errorMessage(error)}`);
};

export const testWork = WorkScope.root('tests', printed);

/** A root of its own for one object or test, to close when done. */
export function testScope(name = 'test'): WorkScope {
	return WorkScope.root(name, printed);
}
