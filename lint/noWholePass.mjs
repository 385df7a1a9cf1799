// ESLint rule `local/no-whole-pass`: the extension host (src/host), the Node layer (src/node), the
// running-work layer (src/work) and the bridge (bridge/, inside Pi's process) never run one of the
// engine's long passes at once. A long pass is a `*Steps` generator (src/engine/steps.ts); there it
// runs in slices under a scope (`WorkScope.sliced`, src/work/) or inside another generator (`yield*`),
// never to its end in one block. Reported:
//   - `runSteps`, imported or called (what the CLI and the tests use);
//   - a long pass drained by hand: `.next()` called on it, `for … of` over it, spread or `Array.from` of it.
// Type-aware: a long pass is a value whose TypeScript type is `Steps<T>`, or a Generator that yields
// only `undefined` (what `Steps<T>` is); a generator of values (a list of notices, say) is not one.
import ts from 'typescript';

const MESSAGE_RUN_STEPS = 'runSteps runs a long pass in one block: run it in slices under a scope (scope.sliced, src/work), or yield* it from a *Steps generator.';
const MESSAGE_DRAIN = 'This drains a generator (a long pass) in one block: run it in slices under a scope (scope.sliced, src/work), or yield* it from a *Steps generator.';

/** True when the TypeScript type of `node` is a long pass: `Steps<T>`, or a Generator yielding only `undefined`. */
function isLongPass(services, node) {
	const checker = services.program.getTypeChecker();
	const type = services.getTypeAtLocation(node);
	return (type.isUnion() ? type.types : [type]).some((part) => {
		if (part.aliasSymbol?.getName() === 'Steps') {
			return true;
		}
		if (part.getSymbol()?.getName() !== 'Generator') {
			return false;
		}
		const yielded = checker.getTypeArguments(part)[0];
		return yielded !== undefined && (yielded.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Void)) !== 0;
	});
}

export const noWholePass = {
	meta: {
		type: 'problem',
		docs: { description: 'Forbid running an engine long pass (a *Steps generator) at once in src/host, src/node, src/work and bridge/' },
		schema: [],
		messages: { runSteps: MESSAGE_RUN_STEPS, drain: MESSAGE_DRAIN },
	},
	create(context) {
		const services = context.sourceCode.parserServices;
		const typed = services?.program !== undefined && services?.program !== null;
		const checkDrained = (node, drained) => {
			if (typed && isLongPass(services, drained)) {
				context.report({ node, messageId: 'drain' });
			}
		};
		return {
			ImportSpecifier(node) {
				if (node.imported.type === 'Identifier' && node.imported.name === 'runSteps') {
					context.report({ node, messageId: 'runSteps' });
				}
			},
			CallExpression(node) {
				const callee = node.callee;
				if (callee.type === 'Identifier' && callee.name === 'runSteps') {
					context.report({ node, messageId: 'runSteps' });
				} else if (callee.type === 'MemberExpression' && !callee.computed && callee.property.type === 'Identifier') {
					if (callee.property.name === 'next') {
						checkDrained(node, callee.object);
					} else if (callee.property.name === 'from' && callee.object.type === 'Identifier' && callee.object.name === 'Array' && node.arguments[0]) {
						checkDrained(node, node.arguments[0]);
					}
				}
			},
			ForOfStatement(node) {
				checkDrained(node, node.right);
			},
			SpreadElement(node) {
				checkDrained(node, node.argument);
			},
		};
	},
};

export const localRules = { rules: { 'no-whole-pass': noWholePass } };
