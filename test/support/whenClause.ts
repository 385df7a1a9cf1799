/**
 * A small evaluator of VS Code `when` clauses, for the contexts package.json's menus use: keys and
 * `config.*` values, `!`, `==`, `!=`, `&&`, `||` (with VS Code's precedence: `&&` before `||`), and
 * `true`/`false`. Anything else throws, so a clause this cannot read fails the test rather than
 * passing by accident.
 */
export type WhenContext = Readonly<Record<string, string | number | boolean | undefined>>;

export function evaluateWhen(clause: string, context: WhenContext): boolean {
	return clause.split('||').some((conjunction) => conjunction.split('&&').every((term) => evaluateTerm(term.trim(), context)));
}

function evaluateTerm(term: string, context: WhenContext): boolean {
	const comparison = /^(!?)([\w.]+)\s*(==|!=)\s*([\w.:-]+)$/.exec(term);
	if (comparison) {
		const [, , key = '', operator, literal = ''] = comparison;
		const equal = String(valueOf(key, context)) === literal;
		return operator === '==' ? equal : !equal;
	}
	const plain = /^(!?)([\w.]+)$/.exec(term);
	if (!plain) {
		throw new Error(`when clause term not understood: ${term}`);
	}
	const [, not, key = ''] = plain;
	const value = key === 'true' ? true : key === 'false' ? false : Boolean(valueOf(key, context));
	return not === '!' ? !value : value;
}

function valueOf(key: string, context: WhenContext): string | number | boolean | undefined {
	return context[key];
}
