/**
 * The environment variables pi-ai 0.73.1 reads for each built-in provider's key (`env-api-keys.ts`).
 * pi-ai exports the lookup but not the names; we only need them to tell the user what to set.
 */
const SPECIAL: Readonly<Record<string, readonly string[]>> = {
	'anthropic': ['ANTHROPIC_OAUTH_TOKEN', 'ANTHROPIC_API_KEY'],
	'github-copilot': ['COPILOT_GITHUB_TOKEN', 'GH_TOKEN', 'GITHUB_TOKEN'],
	'google-vertex': ['GOOGLE_CLOUD_API_KEY'],
	'amazon-bedrock': ['AWS_PROFILE', 'AWS_ACCESS_KEY_ID', 'AWS_BEARER_TOKEN_BEDROCK'],
};

const SINGLE: Readonly<Record<string, string>> = {
	'openai': 'OPENAI_API_KEY',
	'azure-openai-responses': 'AZURE_OPENAI_API_KEY',
	'deepseek': 'DEEPSEEK_API_KEY',
	'google': 'GEMINI_API_KEY',
	'groq': 'GROQ_API_KEY',
	'cerebras': 'CEREBRAS_API_KEY',
	'xai': 'XAI_API_KEY',
	'openrouter': 'OPENROUTER_API_KEY',
	'vercel-ai-gateway': 'AI_GATEWAY_API_KEY',
	'zai': 'ZAI_API_KEY',
	'mistral': 'MISTRAL_API_KEY',
	'minimax': 'MINIMAX_API_KEY',
	'minimax-cn': 'MINIMAX_CN_API_KEY',
	'moonshotai': 'MOONSHOT_API_KEY',
	'moonshotai-cn': 'MOONSHOT_API_KEY',
	'huggingface': 'HF_TOKEN',
	'fireworks': 'FIREWORKS_API_KEY',
	'opencode': 'OPENCODE_API_KEY',
	'opencode-go': 'OPENCODE_API_KEY',
	'kimi-coding': 'KIMI_API_KEY',
	'cloudflare-workers-ai': 'CLOUDFLARE_API_KEY',
	'cloudflare-ai-gateway': 'CLOUDFLARE_API_KEY',
	'xiaomi': 'XIAOMI_API_KEY',
	'xiaomi-token-plan-cn': 'XIAOMI_TOKEN_PLAN_CN_API_KEY',
	'xiaomi-token-plan-ams': 'XIAOMI_TOKEN_PLAN_AMS_API_KEY',
	'xiaomi-token-plan-sgp': 'XIAOMI_TOKEN_PLAN_SGP_API_KEY',
};

/** Names of the environment variables pi-ai checks for `provider`, most preferred first (empty if none). */
export function providerEnvVars(provider: string): readonly string[] {
	const special = SPECIAL[provider];
	if (special) {
		return special;
	}
	const single = SINGLE[provider];
	return single ? [single] : [];
}
