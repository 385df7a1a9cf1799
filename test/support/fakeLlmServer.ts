/**
 * A real HTTP server on 127.0.0.1 that speaks the OpenAI chat-completions protocol the way pi-ai's
 * `openai-completions` provider uses it: POST `<base>/chat/completions` with `stream: true` and
 * `stream_options.include_usage`, answered by SSE `data: {chunk}` lines, a usage-only last chunk,
 * and `data: [DONE]`; and the Anthropic Messages protocol on POST `<base>/v1/messages`
 * (`fakeAnthropicDialect.ts`). Each request takes the next scripted reply (or the default one) and is recorded.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { answerAnthropic } from './fakeAnthropicDialect';

const DROP_DELAY_MS = 30;

export interface RecordedRequest {
	readonly method: string;
	readonly path: string;
	readonly headers: Readonly<Record<string, string | string[] | undefined>>;
	readonly rawBody: string;
	/** The parsed JSON body (`model`, `messages`, `stream`, `max_completion_tokens`, …). */
	readonly body: Record<string, unknown>;
}

export interface FakeReply {
	/** Reply text, or a function of the request (e.g. to answer with the prompt's labels). Default `'ok'`. */
	readonly text?: string | ((request: RecordedRequest) => string);
	/** Reasoning streamed before the text, as `reasoning_content` deltas. */
	readonly reasoning?: string;
	/** Delay before the response headers. */
	readonly latencyMs?: number;
	/**
	 * Hold the answer (before `latencyMs`) until this many requests are in progress at once, so that a test of
	 * concurrency sees them all in flight however slowly a loaded machine sends them (at most 20 s: then it
	 * answers anyway and the test's own check of `peakInFlight` says what was reached).
	 */
	readonly holdUntilInFlight?: number;
	/** Characters per SSE chunk (default: the whole text in one chunk). */
	readonly chunkChars?: number;
	/** Delay between chunks. */
	readonly chunkDelayMs?: number;
	/** Answer with this HTTP status and a JSON error body instead of a stream. */
	readonly status?: number;
	readonly errorMessage?: string;
	/** Extra response headers (e.g. `retry-after-ms`, `x-should-retry`). */
	readonly headers?: Readonly<Record<string, string>>;
	/** Never answer (not even headers); the socket stays open until the client gives up or `close()`. */
	readonly hang?: boolean;
	/** Send the headers and this many text characters, then stall without ending. */
	readonly stallAfterChars?: number;
	/** Send the headers and this many text characters, then destroy the connection. */
	readonly dropAfterChars?: number;
	/** `finish_reason` of the last content chunk. Default `'stop'`. */
	readonly finishReason?: string;
	/** Tool calls streamed after the text (OpenAI dialect), the reply then finishing with `tool_calls`. */
	readonly toolCalls?: ReadonlyArray<{ readonly id: string; readonly name: string; readonly arguments: Readonly<Record<string, unknown>> }>;
	/** Token counts of the usage chunk; `null` sends none. Default: derived from the lengths. */
	readonly usage?: { readonly promptTokens: number; readonly completionTokens: number; readonly cachedTokens?: number } | null;
}

export interface FakeLlmServer {
	/** `http://127.0.0.1:<port>`; providers use `<url>/v1` as their `baseUrl`. */
	readonly url: string;
	readonly requests: readonly RecordedRequest[];
	/** Queues replies for the next requests, in order. */
	enqueue(...replies: FakeReply[]): void;
	/** The reply used when the queue is empty. */
	setDefaultReply(reply: FakeReply): void;
	/** Most requests in progress at once since the server started or the last `resetPeak`. */
	readonly peakInFlight: number;
	resetPeak(): void;
	close(): Promise<void>;
}

export async function startFakeLlmServer(defaultReply: FakeReply = {}): Promise<FakeLlmServer> {
	const requests: RecordedRequest[] = [];
	const queue: FakeReply[] = [];
	const sockets = new Set<Socket>();
	let fallback = defaultReply;
	let inFlight = 0;
	let peak = 0;
	const waiting = new Set<{ readonly count: number; readonly wake: () => void }>();
	const whenInFlight = (count: number): Promise<void> => (inFlight >= count ? Promise.resolve() : new Promise((wake) => {
		const waiter = { count, wake: () => {
			clearTimeout(timer);
			waiting.delete(waiter);
			wake();
		} };
		const timer = setTimeout(waiter.wake, 20_000);
		waiting.add(waiter);
	}));
	const server: Server = createServer((req, res) => {
		inFlight++;
		peak = Math.max(peak, inFlight);
		for (const waiter of [...waiting].filter((one) => inFlight >= one.count)) {
			waiter.wake();
		}
		res.on('close', () => inFlight--);
		void readBody(req).then((rawBody) => {
			const recorded: RecordedRequest = {
				method: req.method ?? '',
				path: req.url ?? '',
				headers: { ...req.headers },
				rawBody,
				body: parseBody(rawBody),
			};
			requests.push(recorded);
			res.on('error', () => undefined);
			const reply = queue.shift() ?? fallback;
			return (reply.holdUntilInFlight === undefined ? Promise.resolve() : whenInFlight(reply.holdUntilInFlight)).then(() => answer(recorded, res, reply));
		}).catch(() => res.destroy());
	});
	server.on('connection', (socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const address = server.address();
	const port = typeof address === 'object' && address ? address.port : 0;
	return {
		url: `http://127.0.0.1:${port}`,
		requests,
		enqueue: (...replies) => queue.push(...replies),
		setDefaultReply: (reply) => {
			fallback = reply;
		},
		get peakInFlight() {
			return peak;
		},
		resetPeak: () => {
			peak = inFlight;
		},
		close: () => new Promise<void>((resolve) => {
			for (const waiter of [...waiting]) {
				waiter.wake();
			}
			for (const socket of sockets) {
				socket.destroy();
			}
			server.close(() => resolve());
		}),
	};
}

async function answer(request: RecordedRequest, res: ServerResponse, reply: FakeReply): Promise<void> {
	if (reply.hang) {
		return;
	}
	await sleep(reply.latencyMs ?? 0);
	if (request.method === 'POST' && request.path.split('?')[0]!.endsWith('/v1/messages')) {
		const text = typeof reply.text === 'function' ? reply.text(request) : (reply.text ?? 'ok');
		await answerAnthropic(request, res, reply, text, (whole) => split(whole, reply.chunkChars), () => sleep(reply.chunkDelayMs ?? 0));
		return;
	}
	if (request.method !== 'POST' || !request.path.endsWith('/chat/completions')) {
		sendJson(res, 404, { error: { message: `fake LLM server: no route for ${request.method} ${request.path}` } });
		return;
	}
	if (reply.status !== undefined && reply.status >= 400) {
		sendJson(res, reply.status, { error: { message: reply.errorMessage ?? 'fake server error', type: 'server_error' } }, reply.headers);
		return;
	}
	const text = typeof reply.text === 'function' ? reply.text(request) : (reply.text ?? 'ok');
	const model = typeof request.body.model === 'string' ? request.body.model : 'fake-model';
	const chunk = chunkWriter(res, model);
	res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...reply.headers });
	chunk({ role: 'assistant', content: '' }, null);
	for (const piece of split(reply.reasoning ?? '', reply.chunkChars)) {
		if (res.destroyed) {
			return;
		}
		chunk({ reasoning_content: piece }, null);
		await sleep(reply.chunkDelayMs ?? 0);
	}
	const cut = reply.stallAfterChars ?? reply.dropAfterChars;
	let sent = 0;
	for (const piece of split(cut === undefined ? text : text.slice(0, cut), reply.chunkChars)) {
		if (res.destroyed) {
			return;
		}
		chunk({ content: piece }, null);
		sent += piece.length;
		await sleep(reply.chunkDelayMs ?? 0);
	}
	if (reply.stallAfterChars !== undefined) {
		return;
	}
	if (reply.dropAfterChars !== undefined) {
		// Let the client read what was sent before the connection goes.
		await sleep(DROP_DELAY_MS);
		res.socket?.destroy();
		return;
	}
	for (const [index, call] of (reply.toolCalls ?? []).entries()) {
		chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.arguments) } }] }, null);
	}
	chunk({}, reply.finishReason ?? (reply.toolCalls?.length ? 'tool_calls' : 'stop'));
	const usage = reply.usage === undefined
		? { promptTokens: Math.ceil(request.rawBody.length / 4), completionTokens: Math.ceil(sent / 4) }
		: reply.usage;
	if (usage) {
		res.write(sse({
			id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: 0, model, choices: [],
			usage: {
				prompt_tokens: usage.promptTokens,
				completion_tokens: usage.completionTokens,
				total_tokens: usage.promptTokens + usage.completionTokens,
				prompt_tokens_details: { cached_tokens: usage.cachedTokens ?? 0 },
			},
		}));
	}
	res.end('data: [DONE]\n\n');
}

function chunkWriter(res: ServerResponse, model: string): (delta: Record<string, unknown>, finishReason: string | null) => void {
	return (delta, finishReason) => {
		res.write(sse({
			id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: 0, model,
			choices: [{ index: 0, delta, finish_reason: finishReason }],
		}));
	};
}

function sse(payload: unknown): string {
	return `data: ${JSON.stringify(payload)}\n\n`;
}

function split(text: string, size: number | undefined): string[] {
	if (!text) {
		return [];
	}
	if (!size || size <= 0) {
		return [text];
	}
	const pieces: string[] = [];
	for (let i = 0; i < text.length; i += size) {
		pieces.push(text.slice(i, i + size));
	}
	return pieces;
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Readonly<Record<string, string>> = {}): void {
	res.writeHead(status, { 'content-type': 'application/json', ...headers });
	res.end(JSON.stringify(body));
}

function readBody(req: IncomingMessage): Promise<string> {
	return new Promise((resolve) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
		req.on('error', () => resolve(Buffer.concat(chunks).toString('utf8')));
	});
}

function parseBody(rawBody: string): Record<string, unknown> {
	try {
		const parsed: unknown = JSON.parse(rawBody);
		return typeof parsed === 'object' && parsed !== null ? parsed as Record<string, unknown> : {};
	} catch {
		return {};
	}
}

function sleep(ms: number): Promise<void> {
	return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}

/** The text of the single user message pi-ai sent (string or text-part content). */
export function promptOf(request: RecordedRequest): string {
	const messages = Array.isArray(request.body.messages) ? request.body.messages as { role?: string; content?: unknown }[] : [];
	const user = messages.find((message) => message.role === 'user');
	if (typeof user?.content === 'string') {
		return user.content;
	}
	if (Array.isArray(user?.content)) {
		return (user.content as { type?: string; text?: string }[]).map((part) => part.text ?? '').join('');
	}
	return '';
}
