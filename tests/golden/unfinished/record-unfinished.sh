#!/bin/sh
# Records loop-torn-sigint.v0.1.0 with an OLD yoke: the one before the journal store seam (commit
# 669e3ec, the parent of 240f45c "The JournalStore seam"), whose journal.repaired names a line.
#
#   git archive 669e3ec | tar -x -C /tmp/yoke-preseam
#   ln -s "$PWD/node_modules" /tmp/yoke-preseam/node_modules && (cd /tmp/yoke-preseam && npm run build)
#   sh tests/golden/unfinished/record-unfinished.sh /tmp/yoke-preseam/dist/cli/main.js
#
# The run tears a record in iteration 1 (the process dies mid-write), is resumed by the same old
# yoke (which journals the repair), and is stopped by SIGINT while the worker of iteration 2 runs.
# What is left is an unfinished run for today's yoke to resume (unfinished.test.ts). Refuses to
# overwrite the fixture: never re-record it.
set -eu
old_yoke=$1
here=$(cd "$(dirname "$0")" && pwd)
name=loop-torn-sigint.v0.1.0
[ ! -e "$here/$name.jsonl" ] || { echo "$here/$name.jsonl exists: never re-record a golden journal" >&2; exit 1; }
scratch=$(mktemp -d /tmp/yoke-unfinished-XXXXXX)
project=$scratch/project
mkdir -p "$project"
cd "$project"
export GIT_AUTHOR_NAME=yoke-test GIT_AUTHOR_EMAIL=yoke-test@example.com GIT_COMMITTER_NAME=yoke-test GIT_COMMITTER_EMAIL=yoke-test@example.com
export GIT_AUTHOR_DATE=2026-12-01T00:00:00Z GIT_COMMITTER_DATE=2026-12-01T00:00:00Z
git init -q -b main
# the identity the resumed run commits with, wherever the fixture is unpacked
git config user.name yoke-test && git config user.email yoke-test@example.com && git config commit.gpgsign false
node "$old_yoke" init loop >/dev/null
# The worker: iteration 1 writes src/app.txt; the next says DONE, unless HOLD_AT names it (then it
# sleeps until SIGINT stops it). The env is not journaled, so the resumed run finishes.
cat > agent.sh <<'EOF'
cat > /dev/null
if [ "$YOKE_ITERATION" = 1 ]; then
  mkdir -p src && echo one > src/app.txt
  printf 'STATUS: IN_PROGRESS\niteration 1 wrote src/app.txt\n' > .loop/notes.md
else
  if [ "$YOKE_ITERATION" = "${HOLD_AT:-}" ]; then sleep 60; fi
  echo two >> src/app.txt
  printf 'STATUS: DONE\n' > .loop/notes.md
fi
EOF
cat > .loop/yoke.conf <<'EOF'
mode loop
agent cmd sh agent.sh
max-iterations 4
guard built test -f src/app.txt
commit each
EOF
printf '# Write src/app.txt\n\nOne line per iteration.\n' > .loop/plan.md
git add -A && git commit -q -m 'the project'
# 1. The process dies halfway through writing record 12 (iteration 1's notes.read start).
YOKE_FAILPOINT=torn-at:12 node "$old_yoke" run --quiet && { echo 'the torn write did not stop the run' >&2; exit 1; } || true
# 2. Resumed: the torn tail is dropped and journaled (journal.repaired {line}); SIGINT while iteration 2's worker sleeps.
HOLD_AT=2 node "$old_yoke" run --quiet &
yoke_pid=$!
i=0
# the second process.spawned is iteration 2's worker (iteration 1's call completed before the tear)
until [ "$(grep -c '"type":"process.spawned"' .loop/.journal/journal.jsonl)" -ge 2 ]; do
  i=$((i + 1)); [ $i -lt 200 ] || { echo 'iteration 2 never started' >&2; exit 1; }; sleep 0.1
done
sleep 0.5
kill -INT $yoke_pid
status=0; wait $yoke_pid || status=$?
[ $status = 130 ] || { echo "yoke exited $status, not 130" >&2; exit 1; }
# The fixture: the journal as text, and the rest of the workspace (git history, .loop, blobs,
# transcripts) as a tarball, git's sample hooks left out.
rm -rf .git/hooks
cp .loop/.journal/journal.jsonl "$here/$name.jsonl"
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime=2026-12-01T00:00:00Z --exclude=./.loop/.journal/journal.jsonl -czf "$here/$name.tar.gz" .
rm -rf "$scratch"
echo "recorded $here/$name.jsonl and $name.tar.gz"
