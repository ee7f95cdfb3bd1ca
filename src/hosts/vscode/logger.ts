import * as vscode from "vscode";
import { Emitter } from "../../shared/disposable";
import type { Logger } from "../../core/ports";

/** Writes to the "Kiln" output channel; the event lets the in-host tests see what was logged. */
export class OutputLogger implements Logger, vscode.Disposable {
  private readonly channel = vscode.window.createOutputChannel("Kiln", { log: true });
  private readonly lines = new Emitter<string>();
  readonly onDidLog = this.lines.event;

  info(message: string): void {
    this.channel.info(message);
    this.lines.fire(`info: ${message}`);
  }

  warn(message: string): void {
    this.channel.warn(message);
    this.lines.fire(`warn: ${message}`);
  }

  error(message: string): void {
    this.channel.error(message);
    this.lines.fire(`error: ${message}`);
  }

  dispose(): void {
    this.channel.dispose();
    this.lines.dispose();
  }
}
