/**
 * Summaries that try to put a link into the preview: markdown links of every scheme (`https:`,
 * `http:`, `javascript:`, `data:`, `vscode:`, `command:`, `file:`, `mailto:`), autolinks and bare
 * URLs, reference-style links and images, HTML anchors and images, encoded and disguised schemes,
 * nested links and links around images, a target too long to show whole. Each says which texts the
 * page must show (the label and the target, as text the user can copy); none may become an element
 * that opens anything.
 */

export interface LinkPayload {
	readonly id: string;
	readonly text: string;
	/** Texts the rendered summary shows (the page's text contains each). */
	readonly shows: readonly string[];
}

const payloads: readonly Omit<LinkPayload, 'id'>[] = [
	{ text: 'See [the docs](https://evil.example/phish) for details.', shows: ['the docs (https://evil.example/phish)'] },
	{ text: '[plain http](http://evil.example/plain "a title")', shows: ['plain http (http://evil.example/plain)'] },
	{ text: 'Autolink <https://evil.example/autolink> here.', shows: ['https://evil.example/autolink'] },
	{ text: 'Bare https://evil.example/bare and www.evil.example/www too.', shows: ['https://evil.example/bare', 'www.evil.example/www'] },
	{ text: 'Mail <mailto:boss@evil.example> or boss2@evil.example.', shows: ['boss@evil.example', 'boss2@evil.example'] },
	{ text: '[open a terminal](command:workbench.action.terminal.new)', shows: ['open a terminal (command:workbench.action.terminal.new)'] },
	{ text: '[turn pruning off](command:piCondense.disable?%5B%22x%22%5D)', shows: ['turn pruning off (command:piCondense.disable?%5B%22x%22%5D)'] },
	{ text: '[install](vscode:extension/evil.publisher-ext)', shows: ['install (vscode:extension/evil.publisher-ext)'] },
	{ text: '[passwords](file:///etc/passwd)', shows: ['passwords (file:///etc/passwd)'] },
	{ text: '[run](javascript:__xssSentinel(\'link-js\'))', shows: ['run'] },
	{ text: '[data](data:text/html;base64,PHNjcmlwdD5fX3hzc1NlbnRpbmVsKCdsaW5rLWRhdGEnKTwvc2NyaXB0Pg==)', shows: ['data (data:text/html;base64,'] },
	{ text: '[case](JaVaScRiPt:__xssSentinel(\'link-case\'))', shows: ['case'] },
	{ text: '[entity](&#106;avascript:__xssSentinel(\'link-entity\'))', shows: ['entity'] },
	{ text: '[tab](jav&#x09;ascript:__xssSentinel(\'link-tab\'))', shows: ['tab'] },
	{ text: '[percent](javascript%3A__xssSentinel(\'link-percent\'))', shows: ['percent'] },
	{ text: '[spaced](<  https://evil.example/spaced >)', shows: ['spaced'] },
	{ text: 'A [reference link][evil] in the text.\n\n[evil]: https://evil.example/reference "Reference"', shows: ['reference link (https://evil.example/reference)'] },
	{ text: 'A [shortcut] reference.\n\n[shortcut]: vscode://evil.publisher/ref', shows: ['shortcut (vscode://evil.publisher/ref)'] },
	{ text: 'An image ![tracking pixel](https://evil.example/pixel.png) here.', shows: ['[image: tracking pixel] (https://evil.example/pixel.png)'] },
	{ text: 'A reference image ![chart][img]\n\n[img]: https://evil.example/chart.png', shows: ['[image: chart] (https://evil.example/chart.png)'] },
	{ text: '[![badge](https://evil.example/badge.svg)](https://evil.example/badge-link)', shows: ['[image: badge] (https://evil.example/badge.svg)', '(https://evil.example/badge-link)'] },
	{ text: '<a href="https://evil.example/html">an HTML link</a>', shows: ['an HTML link (https://evil.example/html)'] },
	{ text: '<A HREF="command:workbench.action.openSettings" title="t">HTML command</A>', shows: ['HTML command (command:workbench.action.openSettings)'] },
	{ text: '<a href="vscode-webview://evil/x" target="_blank">webview link</a>', shows: ['webview link (vscode-webview://evil/x)'] },
	{ text: '<p>html <img src="https://evil.example/html.png" alt="html image"></p>', shows: ['[image: html image] (https://evil.example/html.png)'] },
	{ text: '<a href="https://evil.example/wrapped"><img src="https://evil.example/wrapped.png"></a>', shows: ['[image] (https://evil.example/wrapped.png)', '(https://evil.example/wrapped)'] },
	{ text: '<area href="https://evil.example/area"><form action="https://evil.example/form"><button formaction="https://evil.example/fa">go</button></form>', shows: ['go'] },
	{ text: '<svg><a href="https://evil.example/svg"><text>svg link</text></a></svg>', shows: [] },
	{ text: '[nested [inner](https://evil.example/inner)](https://evil.example/outer)', shows: ['inner (https://evil.example/inner)'] },
	{ text: `[long](https://evil.example/${'a'.repeat(400)})`, shows: [`long (https://evil.example/${'a'.repeat(179)}…)`] },
];

export const LINK_PAYLOADS: readonly LinkPayload[] = payloads.map((payload, i) => ({ id: `l${i + 1}`, ...payload }));
