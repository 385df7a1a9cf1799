/**
 * Whether a tool call is protected: its tool name is in `protectedTools`, or its string `args.path`
 * matches a `protectedPaths` glob. Protected outputs are never summarized and stay verbatim. Pure.
 */
import { compileGlob, type PathMatcher } from './globMatcher';

export interface ProtectionConfig {
	readonly protectedTools: readonly string[];
	readonly protectedPaths: readonly string[];
}

export type ProtectionCheck = (toolName: string, args: unknown) => boolean;

/** Compiles the rules once; the returned check is cheap to call per tool call. */
export function protectionCheck(config: ProtectionConfig): ProtectionCheck {
	const tools = new Set(config.protectedTools);
	const paths: PathMatcher[] = config.protectedPaths.map(compileGlob);
	return (toolName, args) => {
		if (tools.has(toolName)) {
			return true;
		}
		const path = typeof args === 'object' && args !== null ? (args as { readonly path?: unknown }).path : undefined;
		return typeof path === 'string' && paths.some((matches) => matches(path));
	};
}
