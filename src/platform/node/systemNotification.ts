import { execFile } from "node:child_process";

/** A program and its arguments, run without a shell: nothing in the text is ever interpreted. */
export interface NotificationCommand {
  command: string;
  args: string[];
}

const MAX_BODY = 300;

/** One line of plain text: no control characters, not too long for a notification. */
function plain(text: string, max: number): string {
  const flat = text.replace(/[\u0000-\u001f\u007f]+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** A string literal for AppleScript: backslashes and quotes escaped, nothing else special there. */
function appleScriptString(text: string): string {
  return `"${text.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}

/**
 * How this OS shows a notification from a process: notify-send on Linux (libnotify), AppleScript's
 * display notification on macOS. Undefined elsewhere: VS Code's own notification is then the one.
 */
export function notificationCommand(platform: NodeJS.Platform, title: string, body: string): NotificationCommand | undefined {
  const t = plain(title, 100);
  const b = plain(body, MAX_BODY);
  switch (platform) {
    case "linux":
      // "--" ends the options: a body that starts with "-" is text, not a flag.
      return { command: "notify-send", args: ["--app-name=Kiln", "--expire-time=10000", "--", t, b] };
    case "darwin":
      return { command: "osascript", args: ["-e", `display notification ${appleScriptString(b)} with title ${appleScriptString(t)}`] };
    default:
      return undefined;
  }
}

/** Shows it; resolves false where the OS has no way (notify-send missing, no desktop session). Never throws. */
export function showSystemNotification(title: string, body: string, platform: NodeJS.Platform = process.platform): Promise<boolean> {
  const command = notificationCommand(platform, title, body);
  if (!command) return Promise.resolve(false);
  return new Promise((resolve) => {
    execFile(command.command, command.args, { timeout: 5_000, windowsHide: true }, (err) => resolve(!err));
  });
}
