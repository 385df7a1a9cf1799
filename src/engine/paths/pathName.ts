/**
 * The last segment of a path, for `/` and `\\` separators alike (session files may come from
 * Windows, ps output from any system), without a given extension. Pure: `node:path` would follow
 * the platform we run on, not the one that wrote the path.
 */
export function lastPathSegment(path: string, extension?: string): string {
	const name = path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
	return extension !== undefined && name.endsWith(extension) && name !== extension ? name.slice(0, -extension.length) : name;
}
