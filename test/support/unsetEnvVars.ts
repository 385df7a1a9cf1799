/**
 * Credential variables of the machine running the tests must not decide them: a describe that calls
 * this runs with `names` unset (the pi-ai worker shares this environment) and gets them back after.
 */
export function useUnsetEnvVars(names: readonly string[]): void {
	const saved = new Map<string, string | undefined>();
	before(() => {
		for (const name of names) {
			saved.set(name, process.env[name]);
			delete process.env[name];
		}
	});
	after(() => {
		for (const [name, value] of saved) {
			if (value === undefined) {
				delete process.env[name];
			} else {
				process.env[name] = value;
			}
		}
	});
}
