#!/bin/sh
# Records the lane-routing golden with an OLD yoke: the one before parallel lanes routed per story
# (commit a272c4b, whose parallel run inputs carry `sequenceRouting` but lack `laneRouting`), so
# today's yoke must keep folding it as it was made: every lane call on the bottom rung, no reason.
#
#   git archive a272c4b | tar -x -C /tmp/yoke-prelane
#   ln -s "$PWD/node_modules" /tmp/yoke-prelane/node_modules && (cd /tmp/yoke-prelane && npm run build)
#   sh tests/golden/record-lane-routing.sh /tmp/yoke-prelane/dist/bundle/yoke.js
#
# - parallel-escalate: `parallel 2` with `routing escalate`; S1's first call leaves its file out (its
#   check fails in the lane) and its second passes, both on the light profile; S2 passes at once.
# Refuses to overwrite a journal: never re-record a golden.
set -eu
old_yoke=$1
here=$(cd "$(dirname "$0")" && pwd)
name=parallel-escalate
[ ! -e "$here/$name.v0.1.0.jsonl" ] || { echo "$here/$name.v0.1.0.jsonl exists: never re-record a golden journal" >&2; exit 1; }
scratch=$(mktemp -d /tmp/yoke-lane-golden-XXXXXX)
export GIT_AUTHOR_NAME=yoke-test GIT_AUTHOR_EMAIL=yoke-test@example.com GIT_COMMITTER_NAME=yoke-test GIT_COMMITTER_EMAIL=yoke-test@example.com
side=$scratch/side
mkdir -p "$side" "$scratch/p/.loop"
cd "$scratch/p"
git init -q -b main && git config user.name yoke-test && git config user.email yoke-test@example.com && git config commit.gpgsign false
printf '# Protocol\n' > .loop/protocol.md
printf 'STATUS: IN_PROGRESS\n' > .loop/notes.md
printf '.journal/\n.stash/\n' > .loop/.gitignore
cat > "$side/agent.sh" <<AGENT
story=\$(grep -o '^### [A-Za-z0-9_-]*:' | head -1 | sed 's/^### //; s/:\$//')
n=\$(( \$(grep -c "^\$story\$" "$side/calls" 2>/dev/null || true) + 1 )); echo "\$story" >> "$side/calls"
if [ "\$story" != S1 ] || [ "\$n" -ne 1 ]; then echo ok > "out-\$story.txt"; fi
printf '{"input_tokens": 1, "output_tokens": 1, "cost_usd": 0.01}' > "\$YOKE_USAGE_FILE"
printf 'STATUS: DONE\nDecision: %s\n' "\$story" > .loop/notes.md
AGENT
printf 'stories:\n  - id: S1\n    title: One\n    acceptance:\n      - text: one\n        check: test -f out-S1.txt\n  - id: S2\n    title: Two\n    acceptance:\n      - text: two\n        check: test -f out-S2.txt\n' > .loop/prd.yaml
cat > .loop/yoke.conf <<CONF
mode stories
parallel 2
max-iterations 5
profile fast tier light model haiku cmd sh $side/agent.sh
profile deep tier strong cmd sh $side/agent.sh
agent fast
routing escalate
CONF
git add -A && git commit -qm init
node "$old_yoke" run --quiet
cp .loop/.journal/journal.jsonl "$here/$name.v0.1.0.jsonl"
rm -rf "$scratch"
