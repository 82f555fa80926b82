/**
 * @module engine/hosts/llm-hosts: the hosts of LLM APIs that scenarios call through generic HTTP
 * modules rather than a Make app (corpus facts: api.groq.com, api.anthropic.com, api.vapi.ai), each
 * with its provider and the provider's API reference. A catalog, not a rule: classify.ts marks a call
 * to one of these hosts as an AI call, PRIV-4 reads where the provider processes by default.
 */

/** One LLM API host. */
export interface LlmHost {
  /** The API host, lower case; a call to it or to one of its subdomains (`<resource>.openai.azure.com`) counts. */
  readonly host: string;
  readonly provider: string;
  /** The provider's API reference: where the host is documented. */
  readonly reference: string;
  /**
   * The provider processes requests outside the EU/EEA by default (its published data-residency
   * terms; PRIV-4, GDPR Art. 44). `false` where the customer picks the region (Azure OpenAI, Vertex
   * AI), the provider is EU-based (Mistral), or it is not asserted here.
   */
  readonly outsideEu: boolean;
  /** The API acts in the world rather than computing a reply (Vapi places phone calls by a voice agent): its HTTP role follows the method. */
  readonly acts?: true;
}

/** The catalog, by provider. */
export const LLM_HOSTS: readonly LlmHost[] = [
  {
    host: 'api.openai.com',
    provider: 'OpenAI',
    reference: 'https://platform.openai.com/docs/api-reference',
    outsideEu: true,
  },
  { host: 'api.groq.com', provider: 'Groq', reference: 'https://console.groq.com/docs/api-reference', outsideEu: true },
  {
    host: 'api.anthropic.com',
    provider: 'Anthropic',
    reference: 'https://docs.anthropic.com/en/api/overview',
    outsideEu: true,
  },
  {
    host: 'generativelanguage.googleapis.com',
    provider: 'Google Gemini API',
    reference: 'https://ai.google.dev/api',
    outsideEu: false,
  },
  { host: 'api.mistral.ai', provider: 'Mistral AI', reference: 'https://docs.mistral.ai/api/', outsideEu: false },
  {
    host: 'api.perplexity.ai',
    provider: 'Perplexity',
    reference: 'https://docs.perplexity.ai/api-reference',
    outsideEu: true,
  },
  {
    host: 'openrouter.ai',
    provider: 'OpenRouter',
    reference: 'https://openrouter.ai/docs/api-reference/overview',
    outsideEu: true,
  },
  { host: 'api.deepseek.com', provider: 'DeepSeek', reference: 'https://api-docs.deepseek.com/', outsideEu: true },
  {
    host: 'api.cohere.ai',
    provider: 'Cohere (former host)',
    reference: 'https://docs.cohere.com/reference/about',
    outsideEu: false,
  },
  {
    host: 'api.cohere.com',
    provider: 'Cohere',
    reference: 'https://docs.cohere.com/reference/about',
    outsideEu: false,
  },
  {
    host: 'api-inference.huggingface.co',
    provider: 'Hugging Face Inference API',
    reference: 'https://huggingface.co/docs/api-inference/index',
    outsideEu: false,
  },
  {
    host: 'api.replicate.com',
    provider: 'Replicate',
    reference: 'https://replicate.com/docs/reference/http',
    outsideEu: true,
  },
  {
    host: 'api.together.xyz',
    provider: 'Together AI',
    reference: 'https://docs.together.ai/reference',
    outsideEu: true,
  },
  {
    host: 'api.fireworks.ai',
    provider: 'Fireworks AI',
    reference: 'https://docs.fireworks.ai/api-reference',
    outsideEu: true,
  },
  { host: 'api.x.ai', provider: 'xAI', reference: 'https://docs.x.ai/docs/api-reference', outsideEu: true },
  {
    host: 'openai.azure.com',
    provider: 'Azure OpenAI',
    reference: 'https://learn.microsoft.com/azure/ai-services/openai/reference',
    outsideEu: false,
  },
  {
    host: 'aiplatform.googleapis.com',
    provider: 'Google Vertex AI',
    reference: 'https://cloud.google.com/vertex-ai/docs/reference/rest',
    outsideEu: false,
  },
  {
    host: 'api.elevenlabs.io',
    provider: 'ElevenLabs',
    reference: 'https://elevenlabs.io/docs/api-reference',
    outsideEu: true,
  },
  {
    host: 'api.vapi.ai',
    provider: 'Vapi',
    reference: 'https://docs.vapi.ai/api-reference',
    outsideEu: false,
    acts: true,
  },
];

/** Whether `host` is `catalogHost` or one of its subdomains. */
export function onCatalogHost(host: string, catalogHost: string): boolean {
  return host === catalogHost || host.endsWith(`.${catalogHost}`);
}

/** The catalog entry `host` falls under (exact or subdomain), or `undefined`. */
export function llmHostOf(host: string): LlmHost | undefined {
  return LLM_HOSTS.find((h) => onCatalogHost(host, h.host));
}
