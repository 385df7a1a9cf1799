/**
 * Script-injection payloads for the preview's XSS test. Each one, if it ever ran, would call the
 * page's sentinel `__xssSentinel('<id>')` (and set `window.__pwned`). They cover script tags, event
 * handlers, `javascript:` and `data:` URLs, SVG and MathML, markdown links and images, embedded
 * HTML in markdown, CSS injection, attribute and tag breakouts, and DOMPurify's known mutation tricks.
 */

export interface XssPayload {
	readonly id: string;
	readonly text: string;
}

const run = (id: string): string => `__xssSentinel('${id}');window.__pwned=1`;

const templates: readonly ((js: string) => string)[] = [
	(js) => `<script>${js}</script>`,
	(js) => `<img src=x onerror="${js}">`,
	(js) => `<svg onload="${js}">`,
	(js) => `<svg><script>${js}</script></svg>`,
	(js) => `<iframe src="javascript:${js}"></iframe>`,
	(js) => `<iframe srcdoc="<script>${js}</script>"></iframe>`,
	(js) => `<a href="javascript:${js}">click me</a>`,
	(js) => `[click me](javascript:${js})`,
	(js) => `![image](javascript:${js})`,
	(js) => `<body onload="${js}">`,
	(js) => `<details open ontoggle="${js}">x</details>`,
	(js) => `<input autofocus onfocus="${js}">`,
	(js) => `<video><source onerror="${js}"></video>`,
	(js) => `<audio src=x onerror="${js}">`,
	(js) => `<math><mtext><table><mglyph><style><img src=x onerror="${js}">`,
	(js) => `<style>@import 'javascript:${js}';</style>`,
	(js) => `<style>body{background:url("javascript:${js}")}*{display:none}</style>`,
	(js) => `<div style="background-image:url(javascript:${js});position:fixed;inset:0">overlay</div>`,
	(js) => `<link rel=stylesheet href="javascript:${js}">`,
	(js) => `<meta http-equiv="refresh" content="0;url=javascript:${js}">`,
	(js) => `<object data="javascript:${js}"></object>`,
	(js) => `<embed src="javascript:${js}">`,
	(js) => `<form action="javascript:${js}"><button>submit</button></form>`,
	(js) => `<marquee onstart="${js}">m</marquee>`,
	(js) => `"><script>${js}</script>`,
	(js) => `'><img src=x onerror=${js}>`,
	(js) => `</pre><script>${js}</script><pre>`,
	(js) => `<base href="javascript:${js}//">`,
	(js) => `<template><script>${js}</script></template>`,
	(js) => `<noscript><p title="</noscript><img src=x onerror=${js}>">`,
	(js) => `<svg><animate onbegin="${js}" attributeName=x dur=1s>`,
	(js) => `<svg><a xlink:href="javascript:${js}"><text x=20 y=20>x</text></a></svg>`,
	(js) => `<scr<script>ipt>${js}</scr</script>ipt>`,
	(js) => `<div onmouseover="${js}">hover me</div>`,
	(js) => `<a href="data:text/html,<script>${js}</script>">data link</a>`,
	(js) => `<img srcset="x 1x" onerror="${js}">`,
	(js) => `<select autofocus onfocus="${js}"></select>`,
	(js) => `<textarea autofocus onfocus="${js}"></textarea>`,
	(js) => `<x onclick="${js}">custom element</x>`,
	(js) => `*emph* <span onpointerenter="${js}">md with html</span> **bold**`,
];

export const XSS_PAYLOADS: readonly XssPayload[] = templates.map((template, i) => {
	const id = `x${i + 1}`;
	return { id, text: template(run(id)) };
});
