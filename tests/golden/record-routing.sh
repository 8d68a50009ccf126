#!/bin/sh
# Records the routing goldens with an OLD yoke: the one before routing followed sequences (commit
# 9fea98b, whose run inputs lack `sequenceRouting`), so today's yoke must keep folding and
# re-deriving them by the rules they were made with (DESIGN §15, docs/routing.md).
#
#   git archive 9fea98b | tar -x -C /tmp/yoke-presequence
#   ln -s "$PWD/node_modules" /tmp/yoke-presequence/node_modules && (cd /tmp/yoke-presequence && npm run build)
#   sh tests/golden/record-routing.sh /tmp/yoke-presequence/dist/bundle/yoke.js
#
# - goal-escalate: an idle timeout that escalated, a ladder by profile (light → a second light
#   profile), and the `agent` profile's model on every profile;
# - stories-escalate: S2 starts on the rung S1 climbed to, the judge (a profile without a model)
#   runs with the worker's model;
# - goal-economic-speed: `objective speed` choosing a profile whose cost is unknown, and a profile
#   without samples whose cost the decision shows as $0.
# Refuses to overwrite a journal: never re-record a golden.
set -eu
old_yoke=$1
here=$(cd "$(dirname "$0")" && pwd)
for name in goal-escalate stories-escalate goal-economic-speed; do
  [ ! -e "$here/$name.v0.1.0.jsonl" ] || { echo "$here/$name.v0.1.0.jsonl exists: never re-record a golden journal" >&2; exit 1; }
done
scratch=$(mktemp -d /tmp/yoke-routing-golden-XXXXXX)
export GIT_AUTHOR_NAME=yoke-test GIT_AUTHOR_EMAIL=yoke-test@example.com GIT_COMMITTER_NAME=yoke-test GIT_COMMITTER_EMAIL=yoke-test@example.com

# project <name>: a fresh git project with the files every mode reads, cwd inside it
project() {
  mkdir -p "$scratch/$1/side" "$scratch/$1/p/.loop"
  cd "$scratch/$1/p"
  git init -q -b main && git config user.name yoke-test && git config user.email yoke-test@example.com && git config commit.gpgsign false
  printf '# Protocol\n' > .loop/protocol.md
  printf 'STATUS: IN_PROGRESS\n' > .loop/notes.md
  printf '.journal/\n.stash/\n' > .loop/.gitignore
}

project goal-escalate
side=$scratch/goal-escalate/side
printf '# Ship done.txt\n' > .loop/goal.md
cat > "$side/light.sh" <<EOF
n=\$(( \$(cat "$side/light.count" 2>/dev/null || echo 0) + 1 )); echo "\$n" > "$side/light.count"
if [ "\$n" -eq 1 ]; then sleep 5; fi
printf '{"input_tokens": 10, "output_tokens": 1, "cost_usd": 0.01}' > "\$YOKE_USAGE_FILE"
rm -f done.txt; printf 'STATUS: DONE\n' > .loop/notes.md
EOF
cat > "$side/strong.sh" <<EOF
n=\$(( \$(cat "$side/strong.count" 2>/dev/null || echo 0) + 1 )); echo "\$n" > "$side/strong.count"
printf '{"input_tokens": 10, "output_tokens": 1, "cost_usd": 0.05}' > "\$YOKE_USAGE_FILE"
if [ "\$n" -ge 2 ]; then echo ok > done.txt; rm -f junk.txt; else rm -f done.txt; touch junk.txt; fi
printf 'STATUS: DONE\n' > .loop/notes.md
EOF
cat > .loop/yoke.conf <<EOF
mode goal
accept shipped test -f done.txt
accept tidy test ! -f junk.txt
max-iterations 6
idle-timeout 2s
profile deep tier strong cmd sh $side/strong.sh
profile fast tier light model haiku cmd sh $side/light.sh
profile spare tier light cmd sh $side/light.sh
agent fast
routing escalate
EOF
git add -A && git commit -qm init
node "$old_yoke" run --quiet
cp .loop/.journal/journal.jsonl "$here/goal-escalate.v0.1.0.jsonl"

project stories-escalate
side=$scratch/stories-escalate/side
cat > "$side/agent.sh" <<EOF
story=\$(grep -o '^### [A-Za-z0-9_-]*:' | head -1 | sed 's/^### //; s/:\$//')
n=\$(( \$(cat "$side/calls" 2>/dev/null | wc -l) + 1 )); echo "\$story" >> "$side/calls"
if [ "\$n" -ne 1 ]; then echo ok > "out-\$story.txt"; fi
printf '{"input_tokens": 1, "output_tokens": 1, "cost_usd": 0.01}' > "\$YOKE_USAGE_FILE"
printf 'STATUS: DONE\n' > .loop/notes.md
EOF
printf "printf 'VERDICT: PASS\\\\n' > .loop/verdict.md\n" > "$side/judge.sh"
printf 'stories:\n  - id: S1\n    title: One\n    acceptance:\n      - text: one\n        check: test -f out-S1.txt\n  - id: S2\n    title: Two\n    acceptance:\n      - text: two\n        check: test -f out-S2.txt\n' > .loop/prd.yaml
printf '# Judge\n' > .loop/judge.md
cat > .loop/yoke.conf <<EOF
mode stories
max-iterations 5
review on
profile fast tier light model haiku cmd sh $side/agent.sh
profile deep tier strong cmd sh $side/agent.sh
profile wise cmd sh $side/judge.sh
agent fast
judge-agent wise
routing escalate
EOF
git add -A && git commit -qm init
node "$old_yoke" run --quiet
cp .loop/.journal/journal.jsonl "$here/stories-escalate.v0.1.0.jsonl"

project goal-economic-speed
side=$scratch/goal-economic-speed/side
printf '# Ship done.txt\n' > .loop/goal.md
printf 'sleep 0.3\nprintf %s > "$YOKE_USAGE_FILE"\necho ok > done.txt\nprintf "STATUS: DONE\\n" > .loop/notes.md\n' "'{\"input_tokens\": 10, \"output_tokens\": 1, \"cost_usd\": 0.01}'" > "$side/slow.sh"
printf 'printf %s > "$YOKE_USAGE_FILE"\necho ok > done.txt\nprintf "STATUS: DONE\\n" > .loop/notes.md\n' "'{\"input_tokens\": 10, \"output_tokens\": 1}'" > "$side/quick.sh"
profiles="profile slow tier light cmd sh $side/slow.sh
profile quick tier strong cmd sh $side/quick.sh
profile idle tier frontier cmd sh $side/quick.sh"
printf 'mode goal\naccept shipped test -f done.txt\nmax-iterations 1\n%s\nagent slow\n' "$profiles" > .loop/yoke.conf
git add -A && git commit -qm init
for _ in 1 2 3 4 5 6 7 8 9 10; do node "$old_yoke" run --quiet; done
printf 'mode goal\naccept shipped test -f done.txt\nmax-iterations 1\n%s\nagent quick\n' "$profiles" > .loop/yoke.conf
for _ in 1 2 3 4 5 6 7 8 9 10; do node "$old_yoke" run --quiet; done
printf 'mode goal\naccept shipped test -f done.txt\nmax-iterations 1\n%s\nagent slow\nrouting economic objective speed min-samples 10\n' "$profiles" > .loop/yoke.conf
node "$old_yoke" run --quiet
cp .loop/.journal/journal.jsonl "$here/goal-economic-speed.v0.1.0.jsonl"
rm -rf "$scratch"
