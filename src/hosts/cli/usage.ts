import { FIRST_REPLY_TIMEOUT_SECONDS, IDLE_TIMEOUT_SECONDS } from "../../core/llm/requestWatch";
import { MAX_TOOL_CALLS, REPLY_MAX_CHARS, TOOL_ARG_MAX_CHARS } from "../../core/agent/replyLimits";
import { OUTPUT_MAX_CHARS, READ_FILE_MAX_LINES, TOOL_RESULT_MAX_CHARS } from "../../shared/limits";
import { THINKING_BUDGET } from "../../shared/reasoning";
import { CONTEXT_USAGE } from "./contextArgs";

/** What `kiln --help` and a usage error print: every command and flag that args.ts parses. */
export const USAGE = `Usage:
  kiln run [options] "task"    run the agent with tools on a workspace
  kiln chat [options] "prompt" one streamed reply, no tools
  kiln history [--json]        list saved tasks, newest first
  kiln models [--provider P | --profile NAME] [--base-url URL] [--json] [--refresh]
                               the provider's models with window, output limit, prices per
                               million tokens (in/out), tools and vision; cached for a day
  kiln resume ID ["message"]   go on with a saved task (after a stop, a crash or Ctrl+C), in its
                               folder and mode; the message answers its question or adds to it
  kiln index [--workspace DIR] [--status | --rebuild] [--json]
                               build or update the workspace's codebase index (what
                               codebase_search ranks), saved in --index-dir; --status says what
                               is saved and changes nothing, --rebuild indexes from nothing
  kiln import --from kilo|roo|zoo|cline [--path DIR] [--settings FILE] [--workspace DIR]
              [--dry-run] [--json]
                               bring over that agent's global custom modes (into
                               ~/.kilocode/kiln/custom_modes.yaml), global rules (into
                               --global-rules), MCP servers (into ~/.kilocode/kiln/mcp_settings.json)
                               and task history; what is already there is kept, a second import
                               adds nothing. --path: its VS Code global storage folder (found for a
                               local VS Code); --settings: a settings export of Kilo, Roo or Zoo
                               (Export settings), whose provider profiles go into the config file
                               without their keys (alone, when no storage is found); --workspace:
                               only that folder's tasks, and Roo's .roo/mcp.json into its
                               .kilocode/mcp.json; --dry-run writes nothing
  kiln restore-checkpoint COMMIT [--workspace DIR]
                               put the workspace's files back as they were at a checkpoint
                               (run and resume print one before each reply's edits)
Options:
  --workspace DIR              workspace folder (default: current folder)
  --profile NAME               run, chat, resume, models: the provider settings of a profile in
                               ~/.kilocode/kiln/config.json (or KILN_CONFIG's file) or the workspace's
                               .kilocode/kiln.json; its defaults.profile without it. Flags and
                               KILN_PROVIDER, KILN_BASE_URL, KILN_MODEL win over the file
  --provider KIND              anthropic | openai | openai-compatible | openrouter | gemini | bedrock |
                               vertex | azure | ollama | lmstudio, or a preset: deepseek | mistral |
                               xai | groq | cerebras | fireworks | together | moonshot | qwen | zai
                               (default anthropic)
  --base-url URL  --model ID   the endpoint (any provider; presets and local servers have one) and model
  --region R  --aws-profile P  Bedrock: the AWS region and named profile (default: the AWS chain)
  --project ID  --key-file F   Vertex: the Google Cloud project and a service account key file
  --api-version V              Azure OpenAI: the API version
  --reasoning low|medium|high  how hard a reasoning model thinks (OpenAI's effort, Gemini's level;
                               a budget of 2k/8k/24k tokens for Claude)
  --thinking-budget N          or the tokens it may think in (${THINKING_BUDGET.min}-${THINKING_BUDGET.max}; an effort for
                               providers that take one). Default: the model's own
  --api-key-env NAME           read the API key from this variable (default: the provider's own,
                               e.g. ANTHROPIC_API_KEY, OPENROUTER_API_KEY, KILN_API_KEY for
                               openai-compatible); never from argv
  --mode SLUG                  code | architect | ask | debug | orchestrator (default code), or a
                               custom mode of ~/.kilocode/kiln/custom_modes.yaml or .kilocodemodes
  --protocol xml|native|auto   how tools are called (default xml; auto: native, XML if the endpoint
                               rejects tools or the model writes XML)
  --approve none|read|all|WORDS  what runs without asking: read,edit,command,browser,mcp; delete
                               (edit alone does not delete); read-outside, write-outside and
                               write-protected (widen read and edit); mode, subtask, todo. all: every one
  --allow-command PREFIX       with command: only commands whose every part (a && b; c | d) starts
                               with one of these run unasked (repeatable; default: any command)
  --deny-command PREFIX        commands starting so always ask, which here means no (repeatable;
                               the longer matching prefix wins); $(…), backticks and destructive
                               commands always ask too
  --sandbox                    run commands in a sandbox (Linux, bubblewrap): the workspace writable,
                               the rest read-only, ~/.ssh, ~/.aws and other credentials hidden, no
                               network. Allowed commands then also run unasked when they redirect
                               to a file, use options like -e or -o, or name paths outside the
                               workspace. Where it cannot run, it says why and every command asks
  --sandbox-network            with --sandbox: commands may use the network
  --max-approvals N            after N auto-approved calls, every call asks (default: no limit)
  --max-requests N             stop after N model requests (default 50)
  --retries N                  automatic retries of a failed request (default 3; Retry-After honoured)
  --fuzzy-threshold X          apply_diff similarity from 0.8 to 1 (default 1: exact apart from whitespace)
  --read-max-lines N           lines read_file shows per file (${READ_FILE_MAX_LINES.min}-${READ_FILE_MAX_LINES.max}, default ${READ_FILE_MAX_LINES.default})
  --result-max-chars N         characters of a tool result sent to the model; the rest is saved
                               to a file (${TOOL_RESULT_MAX_CHARS.min}-${TOOL_RESULT_MAX_CHARS.max}, default ${TOOL_RESULT_MAX_CHARS.default})
  --output-max-chars N         characters of command output shown, as head and tail
                               (${OUTPUT_MAX_CHARS.min}-${OUTPUT_MAX_CHARS.max}, default ${OUTPUT_MAX_CHARS.default})
  --first-reply-timeout S      seconds to wait for a reply to begin before the request fails and is
                               retried (${FIRST_REPLY_TIMEOUT_SECONDS.min}-${FIRST_REPLY_TIMEOUT_SECONDS.max}, default ${FIRST_REPLY_TIMEOUT_SECONDS.default}; a slow local model may need more)
  --idle-timeout S             seconds a reply that has begun may go silent before the request fails
                               and is retried (${IDLE_TIMEOUT_SECONDS.min}-${IDLE_TIMEOUT_SECONDS.max}, default ${IDLE_TIMEOUT_SECONDS.default})
  --reply-max-chars N          characters of one reply that are read; past them the reply is stopped
                               and the model told (${REPLY_MAX_CHARS.min}-${REPLY_MAX_CHARS.max}, default ${REPLY_MAX_CHARS.default})
  --tool-arg-max-chars N       characters of one tool argument (an XML parameter, a native call's
                               JSON) (${TOOL_ARG_MAX_CHARS.min}-${TOOL_ARG_MAX_CHARS.max}, default ${TOOL_ARG_MAX_CHARS.default})
  --max-tool-calls N           tool calls read from one reply (${MAX_TOOL_CALLS.min}-${MAX_TOOL_CALLS.max}, default ${MAX_TOOL_CALLS.default})
  --allow-private-urls         browser_action may open localhost, 127.0.0.1 and private-network
                               addresses without asking (else opening one asks, and the page
                               may reach no other such address)
  --no-redact                  keep tokens, keys and passwords (known shapes, values of variables
                               named *TOKEN*, *KEY, *SECRET*, *PASSWORD*…) in tool results; by
                               default they reach the model and history as [redacted]. The API
                               key is redacted either way
  --no-index                   no codebase index: codebase_search is not offered (by default the
                               workspace is indexed on its first use, new and changed files after)
  --index-dir DIR              where codebase indexes are saved between runs, one folder per
                               workspace (default ~/.kilocode/kiln/index)
  --index-postgres URL         use the team's codebase index on a PostgreSQL server
                               (postgres://user@host:5432/db; also KILN_INDEX_POSTGRES), shared by
                               everyone on the same repository and branch. The password: PGPASSWORD
                               or ~/.pgpass rather than the URL
  --embedder KIND              give the codebase index vectors, so codebase_search finds code by
                               meaning as well as words: openai, openai-compatible (any
                               /v1/embeddings: Together, LM Studio, vLLM…), mistral, ollama, gemini
                               or bedrock. The key: KILN_EMBEDDER_API_KEY (else OPENAI_API_KEY for
                               openai, GEMINI_API_KEY or GOOGLE_API_KEY for gemini); bedrock uses
                               the AWS chain (AWS_PROFILE, keys, SSO) or a Bedrock API key there
  --embedder-model MODEL       e.g. text-embedding-3-small, nomic-embed-text, gemini-embedding-001,
                               codestral-embed, amazon.titan-embed-text-v2:0
  --embedder-base-url URL      the endpoint (…/v1 for openai-compatible; Ollama's root)
  --embedder-region R          bedrock: the AWS region (default: AWS_REGION, the profile's)
  --mcp-config FILE            global MCP servers (mcp_settings.json format) beside the workspace's
                               .kilocode/mcp.json, whose entries win (default
                               ~/.kilocode/kiln/mcp_settings.json when it exists)
  --trust-project-mcp          start the servers of the workspace's .kilocode/mcp.json unasked, for
                               this run only (CI). Without it each asks once at a terminal (a yes
                               is kept in ~/.kilocode/kiln/mcp-approvals.json, asked again when its
                               entry changes); with no terminal they do not start
  --global-rules DIR           folder of global rules (default ~/.kilocode/rules; DIR-<mode> for a
                               mode's). Project rules: .kilocode/rules/, .kilocode/rules-<mode>/,
                               .roo/rules/, .roo/rules-<mode>/, AGENTS.md, .clinerules,
                               .kilocoderules, .roorules. Skills (SKILL.md folders): the project's
                               .kilocode/skills/, .claude/skills/, .roo/skills/ and ~/.kilocode/skills/
${CONTEXT_USAGE}
  --json                       one JSON event per line on stdout
  --history-dir DIR            where tasks are saved as they run (default ~/.kilocode/kiln/tasks,
                               or KILN_HISTORY_DIR); --no-history saves nothing
  --checkpoint-dir DIR         where checkpoints are kept, in a git repository per workspace
                               apart from the workspace's own .git (default ~/.kilocode/kiln, or
                               KILN_CHECKPOINT_DIR); --no-checkpoints takes none
Without "task", it is read from standard input. Exit: 0 completed, 1 error, 2 usage, 3 stopped.`;
