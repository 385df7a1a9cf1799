/**
 * The end of a `switch` that handles every member of a union, in place of a `default:`: it does not
 * compile while a member is left out, so adding a member (a Pi entry type, a message role) leads to
 * every switch that must say what to do with it.
 */
export function unreachable(value: never): never {
	throw new Error(`not handled: ${JSON.stringify(value)}`);
}
