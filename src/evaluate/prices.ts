/** USD per million tokens. `cachedInput` defaults to `input` when a provider gives no discount. */
export interface Price {
  input: number;
  cachedInput?: number;
  output: number;
}

export type PriceTable = Record<string, Price>;

/**
 * OpenAI's published list prices for the vision models people are likely to pick. They change:
 * `evaluator.prices` overrides or extends this table, and a model that is not in it costs 0 with
 * a note in the summary rather than a made-up figure.
 */
export const DEFAULT_PRICES: PriceTable = {
  'gpt-4o-mini': { input: 0.15, cachedInput: 0.075, output: 0.6 },
  'gpt-4o': { input: 2.5, cachedInput: 1.25, output: 10 },
  'gpt-4.1': { input: 2, cachedInput: 0.5, output: 8 },
  'gpt-4.1-mini': { input: 0.4, cachedInput: 0.1, output: 1.6 },
  'gpt-4.1-nano': { input: 0.1, cachedInput: 0.025, output: 0.4 },
  'gpt-5': { input: 1.25, cachedInput: 0.125, output: 10 },
  'gpt-5-mini': { input: 0.25, cachedInput: 0.025, output: 2 },
  'gpt-5-nano': { input: 0.05, cachedInput: 0.005, output: 0.4 },
  'o4-mini': { input: 1.1, cachedInput: 0.275, output: 4.4 },
};

/**
 * The price of a model: its exact name, else the longest listed name it extends with a dated
 * suffix (`gpt-4o-mini-2024-07-18`); a router prefix (`openai/gpt-4o`, LiteLLM style) is ignored.
 */
export function priceFor(model: string, table: PriceTable): Price | null {
  if (table[model]) return table[model];
  const bare = model.slice(model.lastIndexOf('/') + 1);
  if (table[bare]) return table[bare];
  const prefix = Object.keys(table)
    .filter((name) => bare.startsWith(`${name}-`))
    .sort((a, b) => b.length - a.length)[0];
  return prefix ? table[prefix] : null;
}

export interface TokenCounts {
  /** Effective input: the provider's prompt tokens, cached ones included. */
  inputTokens: number;
  cachedInputTokens: number;
  outputTokens: number;
}

export function costOf(tokens: TokenCounts, price: Price): number {
  const uncached = Math.max(0, tokens.inputTokens - tokens.cachedInputTokens);
  const cachedRate = price.cachedInput ?? price.input;
  return (uncached * price.input + tokens.cachedInputTokens * cachedRate + tokens.outputTokens * price.output) / 1_000_000;
}
