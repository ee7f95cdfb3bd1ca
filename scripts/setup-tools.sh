#!/usr/bin/env bash
# Installs what is missing, outside node_modules, idempotently; a second run only checks and returns.
#
#   setup-tools.sh start   what `npm start` needs: code-server (VS Code server + web workbench) in the
#                          git-ignored .cache/, keyed by version. Building it (once) needs a C++ toolchain,
#                          libkrb5-dev (the headers of its kerberos module) and an rg; Kiln brings its own rg,
#                          and the command sandbox (bubblewrap) is off unless turned on.
#   setup-tools.sh [test]  what `npm test` needs (the default): the above, plus Debian's chromium (the browser
#                          the e2e tests drive), ripgrep, bubblewrap (the command sandbox's tests) and libkrb5-dev.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
mode="${1:-test}"
case "$mode" in
  start | test) ;;
  *)
    echo "usage: $0 [start|test]" >&2
    exit 2
    ;;
esac
CODE_SERVER_VERSION="${KILN_CODE_SERVER_VERSION:-4.100.3}"
cache="$root/.cache"
cs_dir="$cache/code-server-$CODE_SERVER_VERSION"
mkdir -p "$cache"

code_server_ready() { [ -x "$cs_dir/node_modules/.bin/code-server" ] && [ -f "$cs_dir/.installed" ]; }

# The rg that seeds @vscode/ripgrep's download cache (below): Debian's, else Kiln's own (npm ci put it in
# node_modules), so `npm start` needs no ripgrep package.
bundled_rg="$root/node_modules/@vscode/ripgrep-linux-$(node -p process.arch)/bin/rg"
seed_rg() {
  if command -v rg 2>/dev/null; then return; fi
  if [ -x "$bundled_rg" ]; then echo "$bundled_rg"; fi
}

# Prints apt's lines as they come, indented, less the notices a container or a minimal Debian prints on
# every install and that mean nothing went wrong: debconf without apt-utils, update-alternatives without
# the man pages that slim images leave out, services that a container's policy-rc.d keeps from starting.
apt_lines() {
  local line
  while IFS= read -r line; do
    line="${line##*$'\r'}" # dpkg redraws "(Reading database ... N%" with carriage returns: the last one counts
    case "$line" in
      "debconf: delaying package configuration, since apt-utils is not installed"*) ;;
      "update-alternatives: warning: skip creation of "*) ;;
      "invoke-rc.d: policy-rc.d denied execution of "* | "invoke-rc.d: could not determine current runlevel"*) ;;
      *) echo "    $line" ;;
    esac
  done
}

# apt_install WHY PACKAGE...: says what and why, then runs apt with its progress shown.
apt_install() {
  local purpose="$1"
  shift
  local sudo_cmd=env
  [ "$(id -u)" = 0 ] || sudo_cmd="sudo env"
  echo "[setup] installing Debian packages: $* ($purpose)"
  # Starting needs no recommended extras. The test suites keep chromium's (its GL and font packages,
  # with which the e2e screenshots were made and checked).
  local recommends=()
  [ "$mode" = test ] || recommends=(--no-install-recommends)
  echo "[setup] apt-get update, then apt-get install ${recommends[*]-}: a minute or two, once"
  # sudo resets the environment, so the variable goes through env; noninteractive: debconf asks nothing.
  $sudo_cmd DEBIAN_FRONTEND=noninteractive apt-get update -q 2>&1 | apt_lines
  $sudo_cmd DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${recommends[@]}" "$@" 2>&1 | apt_lines
  echo "[setup] Debian packages installed: $*"
}

need_apt=()
why=()
if [ "$mode" = test ]; then
  [ -x /usr/bin/chromium ] || need_apt+=(chromium)
  command -v rg >/dev/null 2>&1 || need_apt+=(ripgrep)
  # bubblewrap: the command sandbox (kiln.commands.sandbox, --sandbox) and its tests.
  command -v bwrap >/dev/null 2>&1 || need_apt+=(bubblewrap)
  [ -f /usr/include/gssapi/gssapi.h ] || need_apt+=(libkrb5-dev)
  # Debian's PostgreSQL server: the team codebase index's tests start one of their own (test/fixtures/debianPostgres.ts).
  compgen -G "/usr/lib/postgresql/*/bin/postgres" >/dev/null || need_apt+=(postgresql)
  [ ${#need_apt[@]} -eq 0 ] || why+=("for the test suites")
fi
if ! code_server_ready; then
  # Building code-server's native modules (node-pty, kerberos, spdlog…) takes these.
  build=()
  command -v make >/dev/null 2>&1 || build+=(make)
  command -v g++ >/dev/null 2>&1 || build+=(g++)
  command -v python3 >/dev/null 2>&1 || build+=(python3)
  [ -f /usr/include/gssapi/gssapi.h ] || build+=(libkrb5-dev)
  [ -n "$(seed_rg)" ] || build+=(ripgrep)
  if [ ${#build[@]} -gt 0 ]; then
    for pkg in "${build[@]}"; do
      case " ${need_apt[*]-} " in *" $pkg "*) ;; *) need_apt+=("$pkg") ;; esac
    done
    why+=("to build code-server")
  fi
fi
if [ ${#need_apt[@]} -gt 0 ]; then
  reason="${why[0]}"
  [ ${#why[@]} -lt 2 ] || reason="$reason and ${why[1]}"
  apt_install "$reason" "${need_apt[@]}"
fi

if code_server_ready; then
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
# postinstall in lib/vscode). Seed the cache it checks first with a local rg, for each version pinned.
tmpdir="${TMPDIR:-/tmp}"
seed_ripgrep() {
  local ver="$1" staging asset
  staging=$(mktemp -d)
  (cd "$staging" && npm pack --silent "@vscode/ripgrep@$ver" >/dev/null && tar -xzf ./*.tgz)
  asset=$(grep -Eo "VERSION = '[^']+'" "$staging/package/lib/postinstall.js" | head -1 | sed -E "s/VERSION = '([^']+)'/\1/")
  local dir="$tmpdir/vscode-ripgrep-cache-$ver"
  mkdir -p "$dir" "$staging/bin"
  cp "$(seed_rg)" "$staging/bin/rg"
  tar -czf "$dir/ripgrep-$asset-x86_64-unknown-linux-musl.tar.gz" -C "$staging/bin" rg
  rm -rf "$staging"
  echo "[setup] seeded ripgrep $ver ($asset) with $(seed_rg), so its install downloads nothing"
}
echo "[setup] downloading code-server $CODE_SERVER_VERSION from the npm registry"
npm install --no-audit --no-fund --loglevel=error --ignore-scripts "code-server@$CODE_SERVER_VERSION" >/dev/null
for lock in $(find node_modules/code-server/lib -maxdepth 3 \( -name npm-shrinkwrap.json -o -name package-lock.json \) -not -path '*/node_modules/*/node_modules/*'); do
  for ver in $(node -e '
    const l = require(process.argv[1]);
    const out = new Set();
    for (const [k, v] of Object.entries(l.packages || {})) if (k.endsWith("node_modules/@vscode/ripgrep")) out.add(v.version);
    console.log([...out].join(" "));' "$PWD/$lock"); do
    case "$ver" in 1.1[0-7].* | 1.[0-9].*) seed_ripgrep "$ver" ;; esac
  done
done
echo "[setup] building code-server's dependencies and native modules (the longest step)"
npm rebuild --loglevel=error >/dev/null
touch .installed
echo "[setup] code-server ready"
