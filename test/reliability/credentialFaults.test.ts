/**
 * Credentials under every fault we can inject (real files in a temp agent dir, real shell commands,
 * the real pi-ai client against the fake OpenAI server): each gives a clear message naming the
 * provider, the file where relevant, and what to set or do; never a crash, and a hanging `!command`
 * is cut off. The bundled pi-ai (Pi 1.x's rules) answers, except where a fault is about an installed
 * Pi 0.73's pi-ai (an expired login, which that generation does not refresh: the current one does, over
 * the network, so it is tested against a local token server in authJsonStore.test.ts).
 */
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SummarizerError } from '../../src/engine/ports';
import { createPiAiSummarizer } from '../../src/node/llm/piAiSummarizer';
import { createFakeAgentDir, type FakeAgentDir, type FakeAgentDirOptions } from '../support/fakeAgentDir';
import { startFakeLlmServer, type FakeLlmServer } from '../support/fakeLlmServer';
import { installPiGlobally } from '../support/installedPi';
import { loadPiAi, testSettings } from '../support/piAiForTests';
import { useUnsetEnvVars } from '../support/unsetEnvVars';

interface CredentialFault {
	readonly name: string;
	readonly agent: (serverUrl: string) => FakeAgentDirOptions;
	/** `summarizerModel`; default: the fake provider's model. */
	readonly model?: string;
	/** What the fake server answers (when the call gets that far). */
	readonly reply?: Parameters<FakeLlmServer['enqueue']>[0];
	/** Extra setup of the agent dir (broken files). */
	readonly files?: (dir: string) => Promise<void>;
	readonly kind: SummarizerError['kind'];
	readonly message: readonly RegExp[];
	/** The pi-ai of an installed Pi 0.73.1 instead of the bundled one. */
	readonly pi073?: boolean;
	/** How long a `!command` may run (the hanging one's case); others get ample time on a loaded machine. */
	readonly commandTimeoutMs?: number;
}

const UNSET = 'PI_CONDENSE_TEST_UNSET_KEY';
const rejected = { status: 401, errorMessage: 'Incorrect API key provided' };

const FAULTS: readonly CredentialFault[] = [
	{
		name: 'an auth.json !command that fails',
		agent: () => ({ auth: { 'fake-llm': { type: 'api_key', key: '!echo nope >&2; exit 3' } } }),
		kind: 'credentials',
		message: [/key of provider "fake-llm" in .*auth\.json failed with exit code 3/, /Run that command in a terminal to see why/],
	},
	{
		name: 'an auth.json !command that hangs',
		agent: () => ({ auth: { 'fake-llm': { type: 'api_key', key: '!sleep 30' } } }),
		commandTimeoutMs: 300,
		kind: 'credentials',
		message: [/key of provider "fake-llm" in .*auth\.json did not finish within 0\.3 s/, /Run that command in a terminal/],
	},
	{
		name: 'an auth.json !command that prints nothing',
		agent: () => ({ auth: { 'fake-llm': { type: 'api_key', key: '!true' } } }),
		kind: 'credentials',
		message: [/key of provider "fake-llm" in .*auth\.json printed nothing/],
	},
	{
		name: 'a models.json header !command that fails',
		agent: () => ({ providerFields: { headers: { 'X-Api-Token': '!exit 9' } } }),
		kind: 'credentials',
		message: [/header "X-Api-Token" of provider "fake-llm" in .*models\.json failed with exit code 9/],
	},
	{
		name: 'an auth.json key naming an unset environment variable',
		agent: () => ({ auth: { 'fake-llm': { type: 'api_key', key: UNSET } } }),
		reply: rejected,
		kind: 'error',
		message: [/fake-llm\/fake-model failed: 401/, new RegExp(`key for provider "fake-llm" in .*auth\\.json is "${UNSET}", which looks like the name of an environment variable, but Pi reads a value literally unless it is written "\\$${UNSET}".*Write "\\$${UNSET}" there to use the variable \\(and set ${UNSET}`)],
	},
	{
		name: 'a models.json apiKey naming an unset environment variable',
		agent: () => ({ providerApiKey: UNSET }),
		reply: rejected,
		kind: 'error',
		message: [new RegExp(`key for provider "fake-llm" in .*models\\.json is "${UNSET}", which looks like the name of an environment variable`)],
	},
	{
		name: 'a models.json apiKey "$NAME" of an unset environment variable',
		agent: () => ({ providerApiKey: `$${UNSET}` }),
		kind: 'credentials',
		message: [new RegExp(`"apiKey" of provider "fake-llm" in .*models\\.json names the environment variable ${UNSET}, which is not set in the environment VS Code runs in`)],
	},
	{
		name: 'an auth.json key naming an unset environment variable, with Pi 0.73',
		agent: () => ({ auth: { 'fake-llm': { type: 'api_key', key: UNSET } } }),
		reply: rejected,
		kind: 'error',
		pi073: true,
		message: [/fake-llm\/fake-model failed: 401/, new RegExp(`key for provider "fake-llm" in .*auth\\.json is "${UNSET}", which looks like the name of an environment variable, but no variable of that name is set.*Set ${UNSET}`)],
	},
	{
		name: 'an expired OAuth token, with Pi 0.73',
		agent: () => ({ auth: { anthropic: { type: 'oauth', access: 'sk-ant-oat-expired', refresh: 'r', expires: 1_000_000 } } }),
		model: 'anthropic/claude-sonnet-4-5',
		kind: 'credentials',
		pi073: true,
		message: [/login for provider "anthropic" in .*auth\.json expired at 1970-01-01T00:16:40\.000Z/, /Run `pi` and send a message \(or use \/login\) so Pi refreshes it/],
	},
	{
		name: 'a provider models.json does not define',
		agent: () => ({}),
		model: 'my-local/llama3',
		kind: 'model',
		message: [/Unknown provider "my-local" in summarizerModel "my-local\/llama3"/, /Define it in .*models\.json, or set contextPrune\.summarizerModel to a model Pi knows/],
	},
	{
		name: 'a model the provider does not have',
		agent: () => ({}),
		model: 'fake-llm/no-such-model',
		kind: 'model',
		message: [/Unknown model "fake-llm\/no-such-model"/, /add it to .*models\.json, or set contextPrune\.summarizerModel/],
	},
	{
		name: 'a models.json that is not valid JSON',
		agent: () => ({ modelsJsonText: '{\n  "providers": {\n    "fake-llm": { "baseUrl": "x" "api": "y" }\n  }\n}\n' }),
		kind: 'model',
		message: [/Unknown provider "fake-llm"/, /Note: .*models\.json is not valid JSON \(line 3\)/],
	},
	{
		name: 'an auth.json that is not valid JSON, and no other key',
		agent: () => ({}),
		model: 'openai/gpt-4o-mini',
		files: (dir) => writeFile(join(dir, 'auth.json'), '{\n  "openai": { "type": "api_key", "key": "sk-x" },\n}\n'),
		kind: 'credentials',
		message: [/No API key for provider "openai": set OPENAI_API_KEY, or add a key for "openai" to .*auth\.json/, /Note: .*auth\.json is not valid JSON \(line 3\)/],
	},
	{
		name: 'no key anywhere for a built-in provider',
		agent: () => ({}),
		model: 'groq/llama-3.3-70b-versatile',
		kind: 'credentials',
		message: [/No API key for provider "groq": set GROQ_API_KEY, or add a key for "groq" to .*auth\.json \(for example with Pi's \/login\), or set "apiKey" for provider "groq" in .*models\.json/],
	},
];

describe('credential faults', function () {
	this.timeout(30_000);
	let server: FakeLlmServer;
	const dirs: FakeAgentDir[] = [];
	useUnsetEnvVars([UNSET, 'OPENAI_API_KEY', 'GROQ_API_KEY', 'ANTHROPIC_API_KEY', 'ANTHROPIC_OAUTH_TOKEN']);
	beforeEach(async () => {
		server = await startFakeLlmServer();
	});
	const cleanups: (() => Promise<void>)[] = [];
	afterEach(async () => {
		await server.close();
		await Promise.all([...dirs.splice(0).map((dir) => dir.cleanup()), ...cleanups.splice(0).map((cleanup) => cleanup())]);
	});

	for (const fault of FAULTS) {
		it(`${fault.name}: a "${fault.kind}" error that says what to do`, async () => {
			const dir = await createFakeAgentDir({ serverUrl: server.url, ...fault.agent(server.url) });
			dirs.push(dir);
			await fault.files?.(dir.dir);
			if (fault.reply) {
				server.enqueue(fault.reply);
			}
			const pi = fault.pi073 ? await installPiGlobally('0.73.1') : undefined;
			if (pi) {
				cleanups.push(pi.cleanup);
			}
			const summarizer = createPiAiSummarizer({
				loadPiAi: pi?.loader() ?? loadPiAi, agentDir: dir.dir, maxRetries: 0, commandTimeoutMs: fault.commandTimeoutMs ?? 20_000,
				settings: testSettings(fault.model ?? dir.modelRef),
			});
			const error = await summarizer.summarize({ prompt: 'summarize this' }).then(
				() => assert.fail('expected a failure'),
				(failure: unknown) => failure as SummarizerError,
			);
			assert.equal(error.name, 'SummarizerError', String(error));
			assert.equal(error.kind, fault.kind, error.message);
			for (const pattern of fault.message) {
				assert.match(error.message, pattern);
			}
		});
	}
});
