const PLAIN = /^[\w@%+=:,./${}~-]+$/;

/**
 * A command and its arguments as one line a person can read: an argument with spaces, quotes or
 * other shell characters is single-quoted as a POSIX shell would take it, so where one argument ends
 * is never in doubt; `${env:…}` references stay as the config file writes them.
 */
export function commandLine(command: string, args: readonly string[]): string {
  return [command, ...args].map(quoteArg).join(" ");
}

export function quoteArg(arg: string): string {
  return PLAIN.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}
