/**
 * Pi's include/exclude rules for extension files (0.73.1 `applyPatterns`, `isEnabledByOverrides`):
 * a plain pattern includes what matches, `!pattern` excludes, `+path` forces an exact path in and
 * `-path` forces it out, in that order. A pattern matches a file's path relative to the base
 * folder, its name or its absolute path. Globs use the project's own matcher (`*`, `?`, `**`);
 * Pi's minimatch also knows braces and character classes, which extension settings rarely use.
 */
import { basename, relative, sep } from 'node:path';
import { compileGlob } from '../../engine/condense';

const posix = (path: string): string => path.split(sep).join('/');

function matchesAny(file: string, patterns: readonly string[], baseDir: string): boolean {
	const candidates = [posix(relative(baseDir, file)), basename(file), posix(file)];
	return patterns.some((pattern) => {
		const matches = compileGlob(posix(pattern));
		return candidates.some((candidate) => matches(candidate));
	});
}

function matchesAnyExact(file: string, patterns: readonly string[], baseDir: string): boolean {
	const rel = posix(relative(baseDir, file));
	const absolute = posix(file);
	return patterns.some((pattern) => {
		const exact = posix(pattern.startsWith('./') || pattern.startsWith('.\\') ? pattern.slice(2) : pattern);
		return exact === rel || exact === absolute;
	});
}

interface PatternGroups {
	readonly includes: string[];
	readonly excludes: string[];
	readonly forceIn: string[];
	readonly forceOut: string[];
}

function groups(patterns: readonly string[]): PatternGroups {
	const result: PatternGroups = { includes: [], excludes: [], forceIn: [], forceOut: [] };
	for (const pattern of patterns) {
		const list = pattern.startsWith('+') ? result.forceIn : pattern.startsWith('-') ? result.forceOut
			: pattern.startsWith('!') ? result.excludes : result.includes;
		list.push(list === result.includes ? pattern : pattern.slice(1));
	}
	return result;
}

/** Whether a pattern is a filter rather than a path (Pi's `isPattern`). */
export function isPattern(entry: string): boolean {
	return /^[!+-]/.test(entry) || entry.includes('*') || entry.includes('?');
}

/** The files a list of patterns enables (settings `extensions` entries, a package filter). */
export function enabledByPatterns(files: readonly string[], patterns: readonly string[], baseDir: string): Set<string> {
	const { includes, excludes, forceIn, forceOut } = groups(patterns);
	let result = includes.length === 0 ? [...files] : files.filter((file) => matchesAny(file, includes, baseDir));
	result = result.filter((file) => !matchesAny(file, excludes, baseDir));
	for (const file of files) {
		if (!result.includes(file) && matchesAnyExact(file, forceIn, baseDir)) {
			result.push(file);
		}
	}
	return new Set(result.filter((file) => !matchesAnyExact(file, forceOut, baseDir)));
}

/** Whether the `!`, `+` and `-` entries of a settings `extensions` list leave an auto-discovered file on. */
export function enabledByOverrides(file: string, entries: readonly string[], baseDir: string): boolean {
	const { excludes, forceIn, forceOut } = groups(entries.filter((entry) => /^[!+-]/.test(entry)));
	let enabled = !matchesAny(file, excludes, baseDir);
	if (matchesAnyExact(file, forceIn, baseDir)) {
		enabled = true;
	}
	return enabled && !matchesAnyExact(file, forceOut, baseDir);
}
