#!/usr/bin/env bash
# Installs code-server (= VS Code 1.100.3 server + web workbench) from the npm registry only.
# Usage: scripts/install-code-server.sh [prefix]   (default prefix: <repo>/../.code-server)
# Needs: Node 20 (code-server 4.100.x's postinstall refuses any other major), root or sudo for apt.
set -euo pipefail
CS_VERSION="${CODE_SERVER_VERSION:-4.100.3}"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
PREFIX="${1:-${CODE_SERVER_PREFIX:-$HERE/../.code-server}}"
mkdir -p "$PREFIX"; PREFIX="$(cd "$PREFIX" && pwd)"

if [ -z "${FORCE:-}" ] && [ -f "$PREFIX/node_modules/code-server/package.json" ] &&
   [ "$(node -p "require('$PREFIX/node_modules/code-server/package.json').version")" = "$CS_VERSION" ]; then
  echo "code-server $CS_VERSION already installed in $PREFIX (FORCE=1 to reinstall)"; exit 0
fi

node_major="$(node -p 'process.versions.node.split(".")[0]')"
if [ "$node_major" != "20" ]; then
  echo "code-server $CS_VERSION needs Node 20 (found $(node -v)); its postinstall aborts otherwise" >&2
  exit 1
fi

# 1. Build deps for the native modules that code-server's postinstall compiles (kerberos, native-keymap,
#    @vscode/spdlog, node-pty, ...) plus ripgrep (reused below). Chromium is for the browser-driven tests.
pkgs=(build-essential python3 libkrb5-dev libxkbfile-dev libsecret-1-dev libx11-dev ripgrep chromium)
missing=()
for p in "${pkgs[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "apt-get install ${missing[*]}"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# 2. @vscode/ripgrep's postinstall downloads rg from GitHub (no internet here). It first looks in
#    $TMPDIR/vscode-ripgrep-cache-<pkg version>/ for the release tarball, so put Debian's rg there.
#    (code-server 4.100.3 pulls @vscode/ripgrep 1.15.11 -> ripgrep v13.0.0-10, musl build on x64.)
cache="$(node -p 'require("os").tmpdir()')/vscode-ripgrep-cache-1.15.11"
tarball="$cache/ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz"
if [ ! -s "$tarball" ]; then
  tmp="$(mktemp -d)"; cp "$(command -v rg)" "$tmp/rg"
  mkdir -p "$cache"; tar czf "$tarball" -C "$tmp" rg; rm -rf "$tmp"
fi

# 3. The install itself. --unsafe-perm: the postinstall refuses to run as root without it.
cd "$PREFIX"
[ -f package.json ] || echo '{"name":"code-server-host","private":true}' > package.json
npm_config_yes=true npm install "code-server@$CS_VERSION" --no-audit --no-fund --unsafe-perm
test -f node_modules/code-server/lib/vscode/out/server-main.js
echo "code-server installed: CODE_SERVER_DIR=$PREFIX/node_modules/code-server"
