import type { LaunchedProcess, LaunchOptions, ProcessLauncher } from "../../../core/ports/terminal";
import { PlainTextDecoder } from "../../../core/process/plainText";

/** What @terminal shows of the last command: its end, where the result and errors are. */
const KEEP_CHARS = 50_000;

/**
 * The output of the last command run in Kiln's terminals, for `@terminal`. VS Code gives no way to
 * read a terminal's buffer, but Kiln's own commands pass their output through the launcher.
 */
export class LastTerminalOutput {
  private command: string | undefined;
  private output = "";

  /** A launcher that records what `inner` runs here, and otherwise behaves the same. */
  wrap(inner: ProcessLauncher): ProcessLauncher {
    return {
      launch: (command: string, options: LaunchOptions): Promise<LaunchedProcess> => {
        const decoder = new PlainTextDecoder();
        this.command = command;
        this.output = "";
        const own = command;
        return inner.launch(command, {
          ...options,
          onOutput: (chunk) => {
            // A later command replaced this one: its output no longer counts as the last.
            if (this.command === own) this.append(decoder.push(chunk));
            options.onOutput(chunk);
          },
        });
      },
    };
  }

  /** `$ command` and its output (the end of it, when long); undefined before any command ran. */
  text(): string | undefined {
    if (this.command === undefined) return undefined;
    return `$ ${this.command}\n${this.output.slice(-KEEP_CHARS)}`;
  }

  private append(text: string): void {
    this.output += text;
    if (this.output.length > KEEP_CHARS * 2) this.output = this.output.slice(-KEEP_CHARS);
  }
}

/** The launcher, recording into `output` when there is one (for @terminal). */
export function recorded(launcher: ProcessLauncher, output: LastTerminalOutput | undefined): ProcessLauncher {
  return output ? output.wrap(launcher) : launcher;
}
