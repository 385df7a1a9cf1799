/**
 * The Anthropic Messages protocol for the fake LLM server (`fakeLlmServer.ts`), as pi-ai's
 * `anthropic-messages` api uses it: POST `<base>/v1/messages` with `stream: true`, answered by SSE events
 * `message_start`, `content_block_start`, `content_block_delta` (text deltas), `content_block_stop`,
 * `message_delta` (stop reason and output tokens) and `message_stop`. So a built-in provider whose base
 * URL models.json points at 127.0.0.1 (the `anthropic` provider's models) is answered for real.
 */
import type { ServerResponse } from 'node:http';
import type { FakeReply, RecordedRequest } from './fakeLlmServer';

const STOP_REASONS: Readonly<Record<string, string>> = { stop: 'end_turn', length: 'max_tokens' };

export async function answerAnthropic(request: RecordedRequest, res: ServerResponse, reply: FakeReply, text: string, pieces: (text: string) => string[], pause: () => Promise<void>): Promise<void> {
	if (reply.status !== undefined && reply.status >= 400) {
		res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
		res.end(JSON.stringify({ type: 'error', error: { type: 'api_error', message: reply.errorMessage ?? 'fake server error' } }));
		return;
	}
	const model = typeof request.body.model === 'string' ? request.body.model : 'fake-model';
	const usage = reply.usage === undefined
		? { promptTokens: Math.ceil(request.rawBody.length / 4), completionTokens: Math.ceil(text.length / 4) }
		: reply.usage;
	const event = (type: string, data: Record<string, unknown>): void => {
		res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
	};
	res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...reply.headers });
	event('message_start', {
		message: {
			id: 'msg_fake', type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null,
			usage: { input_tokens: usage?.promptTokens ?? 0, output_tokens: 0, cache_read_input_tokens: usage?.cachedTokens ?? 0, cache_creation_input_tokens: 0 },
		},
	});
	event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
	for (const piece of pieces(text)) {
		if (res.destroyed) {
			return;
		}
		event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: piece } });
		await pause();
	}
	event('content_block_stop', { index: 0 });
	event('message_delta', { delta: { stop_reason: STOP_REASONS[reply.finishReason ?? 'stop'] ?? reply.finishReason, stop_sequence: null }, usage: { output_tokens: usage?.completionTokens ?? 0 } });
	event('message_stop', {});
	res.end();
}
