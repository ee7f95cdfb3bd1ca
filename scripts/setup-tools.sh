#!/usr/bin/env bash
# Installs what the real-VS-Code tests and `npm start` need, outside node_modules, idempotently:
# Debian's chromium (browser for the workbench), ripgrep, bubblewrap (the command sandbox) and
# code-server (VS Code server + web workbench)
# in a git-ignored cache keyed by version. A second run only checks and returns.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
CODE_SERVER_VERSION="${KILN_CODE_SERVER_VERSION:-4.100.3}"
cache="$root/.cache"
cs_dir="$cache/code-server-$CODE_SERVER_VERSION"
mkdir -p "$cache"

need_apt=()
[ -x /usr/bin/chromium ] || need_apt+=(chromium)
command -v rg >/dev/null 2>&1 || need_apt+=(ripgrep)
# bubblewrap: the command sandbox (kiln.commands.sandbox, --sandbox) and its tests.
command -v bwrap >/dev/null 2>&1 || need_apt+=(bubblewrap)
[ -f /usr/include/gssapi/gssapi.h ] || need_apt+=(libkrb5-dev)
if [ ${#need_apt[@]} -gt 0 ]; then
  echo "[setup] installing Debian packages: ${need_apt[*]}"
  sudo_cmd=""
  [ "$(id -u)" = 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -q >/dev/null
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -q "${need_apt[@]}" >/dev/null
fi

if [ -x "$cs_dir/node_modules/.bin/code-server" ] && [ -f "$cs_dir/.installed" ]; then
  echo "[setup] code-server $CODE_SERVER_VERSION already in $cs_dir"
  exit 0
fi

echo "[setup] installing code-server $CODE_SERVER_VERSION into $cs_dir (a few minutes, once)"
rm -rf "$cs_dir"
mkdir -p "$cs_dir"
cd "$cs_dir"
echo '{"name":"kiln-code-server-cache","private":true}' > package.json
# Root installs: code-server's postinstall refuses root without unsafe_perm; node-pty's postinstall
# runs `npx node-gyp`, which this machine's `yes=false` npm config would cancel.
export npm_config_unsafe_perm=true npm_config_yes=true
# @vscode/ripgrep <1.18 downloads rg from GitHub in its postinstall (run by code-server's own
# postinstall in lib/vscode). Seed the cache it checks first with Debian's rg, for each version pinned.
tmpdir="${TMPDIR:-/tmp}"
seed_ripgrep() {
  local ver="$1" staging asset
  staging=$(mktemp -d)
  (cd "$staging" && npm pack --silent "@vscode/ripgrep@$ver" >/dev/null && tar -xzf ./*.tgz)
  asset=$(grep -Eo "VERSION = '[^']+'" "$staging/package/lib/postinstall.js" | head -1 | sed -E "s/VERSION = '([^']+)'/\1/")
  local dir="$tmpdir/vscode-ripgrep-cache-$ver"
  mkdir -p "$dir" "$staging/bin"
  cp "$(command -v rg)" "$staging/bin/rg"
  tar -czf "$dir/ripgrep-$asset-x86_64-unknown-linux-musl.tar.gz" -C "$staging/bin" rg
  rm -rf "$staging"
  echo "[setup] seeded ripgrep $ver ($asset) from Debian's rg"
}
npm install --no-audit --no-fund --loglevel=error --ignore-scripts "code-server@$CODE_SERVER_VERSION" >/dev/null
for lock in $(find node_modules/code-server/lib -maxdepth 3 \( -name npm-shrinkwrap.json -o -name package-lock.json \) -not -path '*/node_modules/*/node_modules/*'); do
  for ver in $(node -e '
    const l = require(process.argv[1]);
    const out = new Set();
    for (const [k, v] of Object.entries(l.packages || {})) if (k.endsWith("node_modules/@vscode/ripgrep")) out.add(v.version);
    console.log([...out].join(" "));' "$PWD/$lock"); do
    case "$ver" in 1.1[0-7].*|1.[0-9].*) seed_ripgrep "$ver" ;; esac
  done
done
npm rebuild --loglevel=error >/dev/null
touch .installed
echo "[setup] code-server ready"
