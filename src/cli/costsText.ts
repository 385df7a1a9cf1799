/**
 * `pi-condense costs <session>` as text: the summary, each prune's account (the engine's texts, shared
 * with the Costs panel), then the timeline (one row per request, the markers between them). Pure formatting.
 */
import { markerText, usd, type SessionCosts, type TimelineMarker } from '../engine/costs';

export { accountLines, summaryLines, usd, usdRange } from '../engine/costs';

const count = (n: number): string => Math.round(n).toLocaleString('en-US');

export function timelineLines(costs: SessionCosts): string[] {
	const { requests, markers } = costs.timeline;
	const lines = ['  request  time                      model                              context   cache read  cache write   output     cost'];
	let next = 0;
	for (const request of requests) {
		while (next < markers.length && (markers[next] as TimelineMarker).beforeRequest <= request.index) {
			lines.push(`  ── ${markerText(markers[next] as TimelineMarker)}`);
			next++;
		}
		const model = request.kind === 'reply' ? `${request.provider}/${request.model}` : request.kind === 'usage' ? `${request.usageKind ?? 'usage'} ${request.model}` : request.kind;
		lines.push(`  ${String(request.index + 1).padStart(7)}  ${new Date(request.at).toISOString().padEnd(24)}  ${model.slice(0, 33).padEnd(33)}  ${count(request.contextTokens).padStart(9)}  ${count(request.tokens.cacheRead).padStart(10)}  ${count(request.tokens.cacheWrite).padStart(11)}  ${count(request.tokens.output).padStart(7)}  ${usd(request.cost.total).padStart(7)}`);
	}
	for (; next < markers.length; next++) {
		lines.push(`  ── ${markerText(markers[next] as TimelineMarker)}`);
	}
	return lines;
}
