import * as l10n from "@vscode/l10n";
import { checkBudget, type BudgetCheck, type SpendSoFar } from "../context/budget";
import { DEFAULT_CONTEXT_SETTINGS, type ContextSettings } from "../context/settings";
import { ResultShortener } from "../context/shorten";
import { countTokens, countTokensLarge, loadTokenizer, messageTokens, messageTokensLarge } from "../context/tokens";
import { planWindow, promptLimit } from "../context/window";
import { costOf, resolveModelInfo, usageConvention, type ModelInfo, type UsageConvention } from "../llm/models";
import type { LlmMessage, Provider } from "../llm/types";
import { summarize } from "./condense";
import { requestFrame } from "./request";
import type { TaskRuntime } from "./taskRuntime";
import type { Usage } from "./usage";

/** What a host gives a task to manage its context: settings read per request, and a model for summaries. */
export interface ContextOptions {
  settings(): ContextSettings;
  /** A separate (cheaper) model for summaries; the task's own when absent or undefined. */
  condenseProvider?(): Promise<Provider | undefined>;
}

/** Why the task stops before its next request; the chat already says so. */
export interface GuardStop {
  reason: string;
}

type Condensed =
  | { kind: "done"; summary: string; before: number; after: number }
  | { kind: "nothing" }
  | { kind: "failed"; message: string }
  | { kind: "cancelled" }
  | { kind: "budget"; check: Extract<BudgetCheck, { ok: false }> };

/** The tokenizer is off by at most this much for any model family the providers serve. */
const MAX_FACTOR = 2;
/** An automatic condense keeps the latest exchanges whole: the model is in the middle of them. */
const KEEP_EXCHANGES = 2;

/**
 * Runs before each request (Task.run): fits the conversation in the model's window (condensing
 * when enabled, else hiding the oldest turns) and stops the task before a request that would
 * cross a budget. Also runs the condense of the tool and of the Condense button.
 */
export class ContextGuard {
  private readonly shortener = new ResultShortener();
  private readonly counts = new WeakMap<LlmMessage, { content: LlmMessage["content"]; tokens: number }>();
  private frame = { text: "", tokens: 0 };
  /** The provider's prompt tokens over the counted ones at the last request: the tokenizer's error for this model. */
  private factor = 1;
  /** The last request's counted size, until its usage arrives. */
  private awaiting: { counted: number; convention: UsageConvention } | undefined;
  private shortenAfter = 0;

  constructor(private readonly task: TaskRuntime) {
    // The log's emitter ends with the task, and this listener with it.
    task.log.onDidChange((event) => {
      if (event.type === "usage") this.learn(event.request);
    });
  }

  private settings(): ContextSettings {
    return this.task.context?.settings() ?? DEFAULT_CONTEXT_SETTINGS;
  }

  /** The messages the next request sends: the conversation's view, old large results shortened. */
  view(): LlmMessage[] {
    const view = this.task.conversation.apiView();
    return this.shortenAfter > 0 ? this.shortener.apply(view) : view;
  }

  /** Undefined when the request may go; else the task stops, with the reason shown in the chat. */
  async beforeRequest(signal: AbortSignal): Promise<GuardStop | undefined> {
    this.awaiting = undefined;
    let provider: Provider;
    try {
      provider = await this.task.getProvider();
    } catch (err) {
      // The request fails the same way and shows it with Retry; nothing to measure without a model.
      this.task.logger.info(`context check skipped: ${err instanceof Error ? err.message : String(err)}`);
      return undefined;
    }
    await loadTokenizer();
    const settings = this.settings();
    const { info } = this.task.models.resolve(provider);
    const convention = usageConvention(provider.kind, provider.model);
    this.shortenAfter = settings.shortenResultsAfter;
    await this.shortener.prepare(this.task.conversation.apiView(), this.shortenAfter, this.task.toolbox?.saveOverflow, (m) => this.task.logger.warn(m));
    const perRequest = settings.budget.maxInputPerRequest ?? Infinity;
    const limit = Math.min(promptLimit(info.contextWindow, info.maxOutputTokens), perRequest);
    await this.countAhead();
    let tokens = this.measure();
    if (tokens > this.threshold(settings, info, limit)) {
      const fitted = await this.fit(tokens, limit, settings, info, signal);
      if (typeof fitted !== "number") return fitted;
      tokens = fitted;
    }
    const next = { inputTokens: tokens, maxOutputTokens: info.maxOutputTokens, maxCost: costOf({ inputTokens: tokens, outputTokens: info.maxOutputTokens }, info, convention) };
    const check = checkBudget(settings.budget, this.spent(convention), next);
    if (!check.ok) return this.budgetStop(check);
    this.awaiting = { counted: this.tokenizerCount(), convention };
    return undefined;
  }

  /** The condense tool: a summary in place of what came before the call, or an error the model reads. */
  async condenseForTool(focus: string, signal: AbortSignal): Promise<string> {
    const outcome = await this.condense(focus, 1, signal);
    if (outcome.kind === "done") return outcome.summary;
    if (outcome.kind === "nothing") throw new Error("there is nothing before this message to condense yet");
    if (outcome.kind === "budget") throw new Error(outcome.check.reason);
    throw new Error(outcome.kind === "failed" ? outcome.message : "cancelled");
  }

  /** The Condense button: summarises the conversation now, between requests, with a card in the chat. */
  async condenseNow(signal: AbortSignal): Promise<void> {
    const outcome = await this.condenseWithCard("asked in the chat", 1, signal);
    if (outcome.kind === "nothing") this.task.log.error(l10n.t("There is nothing to condense yet: the conversation is only the task and its latest exchange."), false);
    if (outcome.kind === "budget") this.budgetStop(outcome.check);
  }

  /** Condense at the threshold when enabled, else (or when that fails) the sliding window. */
  private async fit(tokens: number, limit: number, settings: ContextSettings, info: ModelInfo, signal: AbortSignal): Promise<number | GuardStop> {
    const threshold = this.threshold(settings, info, limit);
    if (settings.autoCondensePercent > 0) {
      const outcome = await this.condenseWithCard(`automatic: the conversation reached ${Math.round((tokens / info.contextWindow) * 100)}% of the model's window`, KEEP_EXCHANGES, signal);
      if (outcome.kind === "cancelled") return this.stop(l10n.t("Cancelled. Resume to go on."), "cancelled");
      if (outcome.kind === "budget") return this.budgetStop(outcome.check);
      if (outcome.kind === "done") {
        if (outcome.after <= threshold) return outcome.after;
        // Condensing again would summarise the summary and shrink it no further: stop, never loop.
        return this.stop(
          l10n.t(
            "Condensing shrank the conversation from about {0} to {1} tokens, still over the {2} it must fit under, so Kiln stopped rather than condense again. Raise the auto-condense threshold, start a new task, or use a model with a larger window.",
            n(outcome.before),
            n(outcome.after),
            n(threshold),
          ),
        );
      }
      // Nothing to condense, or the summary failed (its card says why): the sliding window may still help.
      if (tokens <= limit) return tokens;
    }
    const plan = planWindow(this.view(), (m) => this.tokensOf(m), Math.floor(limit / this.factor) - this.frameTokens());
    if (!plan) {
      // Over a per-request limit the budget check says so, with its Raise budget action.
      if (limit < promptLimit(info.contextWindow, info.maxOutputTokens)) return tokens;
      return this.stop(
        l10n.t(
          "The conversation needs about {0} tokens, and even with every older turn hidden the task and its latest exchange do not fit in the {1} this model's window leaves for the prompt. Use a model with a larger window, or start a new task.",
          n(tokens),
          n(limit),
        ),
      );
    }
    this.task.conversation.hideOldest(plan.hide);
    this.task.logger.info(`sliding window: ${plan.hide} older messages left out of requests (kept in the task)`);
    return this.measure();
  }

  /** The prompt size that sets off a condense: a share of the window, never above what fits. */
  private threshold(settings: ContextSettings, info: ModelInfo, limit: number): number {
    const percent = settings.autoCondensePercent;
    return percent > 0 ? Math.min(limit, Math.floor((info.contextWindow * percent) / 100)) : limit;
  }

  /** A condense the chat shows as a `condense` card: running, then done with the summary or failed. */
  private async condenseWithCard(why: string, keep: number, signal: AbortSignal): Promise<Condensed> {
    const log = this.task.log;
    if (!this.task.conversation.condensable(1)) return { kind: "nothing" };
    const id = log.newId();
    log.append({ id, role: "tool", name: "condense", params: { context: why }, status: "running" });
    const outcome = await this.condense("", keep, signal);
    if (outcome.kind === "done") log.updateTool(id, "done", `${l10n.t("Condensed from about {0} to {1} tokens.", n(outcome.before), n(outcome.after))}\n\n${outcome.summary}`);
    else log.updateTool(id, "error", outcome.kind === "failed" ? l10n.t("Condensing failed: {0}", outcome.message) : outcome.kind === "budget" ? outcome.check.reason : outcome.kind);
    return outcome;
  }

  /** Summarises what comes before the last `keep` replies (fewer when there are not that many). */
  private async condense(focus: string, keep: number, signal: AbortSignal): Promise<Condensed> {
    const { conversation, context: options } = this.task;
    const window = conversation.condensable(keep) ?? conversation.condensable(1);
    if (!window) return { kind: "nothing" };
    await loadTokenizer();
    await this.countAhead();
    const before = this.measure();
    try {
      const separate = await options?.condenseProvider?.();
      const provider = separate ?? (await this.task.getProvider());
      // A separate profile's model is priced by the table alone: the task's overrides describe the task's model.
      const info = separate ? resolveModelInfo(separate.kind, separate.model).info : this.task.models.resolve(provider).info;
      const convention = usageConvention(provider.kind, provider.model);
      const input = window.messages.reduce((sum, m) => sum + this.tokensOf(m), 0);
      const settings = this.settings();
      const maxCost = costOf({ inputTokens: input, outputTokens: info.maxOutputTokens }, info, convention);
      const check = checkBudget({ ...settings.budget, maxInputPerRequest: undefined }, this.spent(convention), { inputTokens: input, maxOutputTokens: info.maxOutputTokens, maxCost });
      if (!check.ok) return { kind: "budget", check };
      const summary = await summarize(provider, window.messages, {
        focus,
        instructions: settings.condensePrompt,
        signal,
        onUsage: (usage) => this.count(usage, costOf(usage, info, convention)),
      });
      conversation.condense(window.from, summary);
      return { kind: "done", summary, before, after: this.measure() };
    } catch (err) {
      if (signal.aborted) return { kind: "cancelled" };
      const message = err instanceof Error ? err.message : String(err);
      this.task.logger.warn(`condensing failed: ${message}`);
      return { kind: "failed", message };
    }
  }

  /** A summary's tokens and cost join the task's as a request of its own (and a subtask's its parent's, as requests do). */
  private count(usage: Usage, cost: number | undefined): void {
    const meter = this.task.usage;
    meter.add(usage, cost);
    this.task.log.fire({ type: "usage", request: usage, cost, total: meter.total(), totalCost: meter.totalCost() });
  }

  /** What the budgets count: every token the task sent or received (cached ones too), and its cost. */
  private spent(convention: UsageConvention): SpendSoFar {
    const meter = this.task.budgetMeter;
    const total = meter.total();
    const cached = convention === "anthropic" ? total.cacheReadTokens + total.cacheWriteTokens : 0;
    return { tokens: total.inputTokens + total.outputTokens + cached, cost: meter.totalCost() };
  }

  private budgetStop(check: Extract<BudgetCheck, { ok: false }>): GuardStop {
    this.task.log.append({ id: this.task.log.newId(), role: "error", error: { kind: "budget", message: check.reason, retryable: false, limit: check.limit } });
    return { reason: check.reason };
  }

  private stop(message: string, reason = message): GuardStop {
    this.task.log.error(message, false);
    return { reason };
  }

  /**
   * Counts what is new (a long tool result, a pasted file) in slices between turns of the event
   * loop, so that Cancel and the UI stay live; measure() then finds every count done.
   */
  private async countAhead(): Promise<void> {
    for (const message of this.view()) {
      const known = this.counts.get(message);
      if (!known || known.content !== message.content) this.counts.set(message, { content: message.content, tokens: await messageTokensLarge(message) });
    }
    const text = this.frameText();
    if (text !== this.frame.text) this.frame = { text, tokens: await countTokensLarge(text) };
  }

  /** The next request's prompt in tokens: counted, then corrected by what the provider reported last. */
  private measure(): number {
    return Math.ceil(this.tokenizerCount() * this.factor);
  }

  /** The same by the tokenizer alone. */
  private tokenizerCount(): number {
    return this.frameTokens() + this.view().reduce((sum, m) => sum + this.tokensOf(m), 0);
  }

  /** Messages are counted once: the conversation keeps the same objects from request to request. */
  private tokensOf(message: LlmMessage): number {
    const known = this.counts.get(message);
    if (known && known.content === message.content) return known.tokens;
    const tokens = messageTokens(message);
    this.counts.set(message, { content: message.content, tokens });
    return tokens;
  }

  /** The system prompt and native tools, counted again only when they change (mode, rules, MCP servers). */
  private frameTokens(): number {
    const text = this.frameText();
    if (text !== this.frame.text) this.frame = { text, tokens: countTokens(text) };
    return this.frame.tokens;
  }

  private frameText(): string {
    const { system, tools } = requestFrame(this.task);
    return tools ? `${system}\n${JSON.stringify(tools)}` : system;
  }

  /** Learns the tokenizer's error for this model from the provider's count of the request just sent. */
  private learn(usage: Usage): void {
    const sent = this.awaiting;
    this.awaiting = undefined;
    if (!sent || sent.counted <= 0) return;
    const prompt = usage.inputTokens + (sent.convention === "anthropic" ? (usage.cacheReadTokens ?? 0) + (usage.cacheWriteTokens ?? 0) : 0);
    if (prompt > 0) this.factor = Math.min(MAX_FACTOR, Math.max(1, prompt / sent.counted));
  }
}

function n(value: number): string {
  return Math.round(value).toLocaleString("en-US");
}
