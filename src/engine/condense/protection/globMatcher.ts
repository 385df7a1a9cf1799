/**
 * pi-condense's `protectedPaths` glob dialect, compiled to a matcher. Pure.
 *
 * Written by hand on purpose: compatibility with pi-condense must be exact, and generic glob
 * libraries differ from it (brace sets, character classes, dot-file rules, case folding). The
 * dialect: `*` and `?` match within one path segment (never `/`); `**` matches across segments;
 * `**` followed by `/` also matches zero directories (so `**\/SKILL.md` matches `SKILL.md`); `\` in
 * the tested path is read as `/`; matching is case-sensitive and anchored at both ends; every other
 * character is literal.
 */

export type PathMatcher = (path: string) => boolean;

/** Characters that have a meaning in a JavaScript regular expression. */
const REGEX_SPECIAL = /[.*+?^${}()|[\]\\/-]/;

export function compileGlob(pattern: string): PathMatcher {
	let source = '';
	let i = 0;
	while (i < pattern.length) {
		const char = pattern.charAt(i);
		if (char === '*' && pattern.charAt(i + 1) === '*') {
			if (pattern.charAt(i + 2) === '/') {
				source += '(?:.*/)?';
				i += 3;
			} else {
				source += '.*';
				i += 2;
			}
		} else if (char === '*') {
			source += '[^/]*';
			i++;
		} else if (char === '?') {
			source += '[^/]';
			i++;
		} else {
			source += REGEX_SPECIAL.test(char) ? `\\${char}` : char;
			i++;
		}
	}
	// The `s` flag lets `.` cross line breaks too: a path is matched as one opaque string.
	const regex = new RegExp(`^${source}$`, 's');
	return (path) => regex.test(path.replace(/\\/g, '/'));
}
