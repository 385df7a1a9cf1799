/**
 * A plain-text report (`/pruner status` and the lines after it: a heading line, then indented
 * `key: value` lines padded into columns for a terminal) as markdown that reads well and copies
 * cleanly: headings, and one bullet per line with its key in bold. Every text from the report is
 * escaped (paths and names may come from a session or a project's settings).
 */
import { joinMarkdown, md, type SafeMarkdown } from './safeText';

/** One titled report: its plain-text lines become the document's sections. */
export interface PlainReport {
	readonly title: string;
	/** The report as the command line or `/pruner` prints it, `\n`-separated. */
	readonly text: string;
	/** What the reader can do next, one sentence each, after the report. */
	readonly notes?: readonly string[];
}

export function reportMarkdown(report: PlainReport): SafeMarkdown {
	const out: SafeMarkdown[] = [md`# ${report.title}`, md``];
	for (const line of report.text.split('\n')) {
		if (line.trim() === '') {
			continue;
		}
		out.push(reportLine(line));
	}
	if (report.notes && report.notes.length > 0) {
		out.push(md``, ...report.notes.map((note) => md`> ${note}`));
	}
	return joinMarkdown(out, '\n');
}

/**
 * `pruner status:` and `--- summarizer ---` are headings; `Pi: 1.6.0 (…)` a paragraph with its key in
 * bold; an indented `key: value` a bullet with its key in bold; any other line a paragraph or a bullet.
 */
function reportLine(line: string): SafeMarkdown {
	const indented = /^\s/.test(line);
	const text = line.trim();
	// Our own divider (`--- summarizer ---`): sliced, not matched, on a line that may hold a path.
	const divider = text.length > 8 && text.startsWith('--- ') && text.endsWith(' ---') ? text.slice(4, -4) : undefined;
	const pair = /^([^:()]{1,40}):\s+(\S.*)$/.exec(text);
	if (divider !== undefined || (!indented && text.endsWith(':'))) {
		return md`\n## ${divider ?? text.slice(0, -1)}\n`;
	}
	if (indented) {
		return pair ? md`- **${pair[1] ?? ''}:** ${pair[2] ?? ''}` : md`- ${text}`;
	}
	return pair ? md`\n**${pair[1] ?? ''}:** ${pair[2] ?? ''}\n` : md`\n${text}\n`;
}
