#!/usr/bin/env bash
# Install the pinned real agent CLIs (Claude Code, Codex, Gemini, OpenCode, Qwen Code), each into its own npm prefix
# outside node_modules, for the offline real-CLI tests (tests/agents/). Idempotent: a CLI whose
# binary is present and reports the pinned version is left alone.
#   YOKE_AGENT_CLIS  cache root (default: $HOME/.cache/yoke/agent-clis)
# Prints one line per CLI: "<name> <version> <binary path>".
set -euo pipefail

root="${YOKE_AGENT_CLIS:-$HOME/.cache/yoke/agent-clis}"
mkdir -p "$root"

# name, npm package, pinned version, binary name. Keep in sync with tests/support/agent-clis.ts.
clis=(
  "claude @anthropic-ai/claude-code 2.1.332 claude"
  "codex @openai/codex 0.171.0 codex"
  "gemini @google/gemini-cli 0.61.0 gemini"
  "opencode opencode-ai 1.18.33 opencode"
  "qwen @qwen-code/qwen-code 0.24.4 qwen"
)

# True when the binary runs and its --version output names the pinned version.
works() {
  local bin="$1" version="$2" out home status=0
  [ -x "$bin" ] || return 1
  home="$(mktemp -d)"
  out="$(HOME="$home" timeout 60 "$bin" --version </dev/null 2>/dev/null)" || status=1
  rm -rf "$home"
  [ "$status" -eq 0 ] && [[ "$out" == *"$version"* ]]
}

failed=0
for spec in "${clis[@]}"; do
  read -r name pkg version bin <<<"$spec"
  prefix="$root/$name-$version"
  binary="$prefix/node_modules/.bin/$bin"
  if works "$binary" "$version"; then
    echo "$name $version $binary (already installed)"
    continue
  fi
  echo "installing $pkg@$version into $prefix ..." >&2
  rm -rf "$prefix"
  mkdir -p "$prefix"
  # Never --ignore-scripts: Claude Code's and OpenCode's postinstalls link their native binaries.
  if npm install --prefix "$prefix" --no-audit --no-fund --no-save --loglevel=error "$pkg@$version" >&2 \
    && works "$binary" "$version"; then
    echo "$name $version $binary"
  else
    echo "install-agent-clis: $pkg@$version did not install a working $bin into $prefix; rerun with network access to the npm registry." >&2
    rm -rf "$prefix"
    failed=1
  fi
done
exit "$failed"
