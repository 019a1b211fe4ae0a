#!/bin/bash
# Times the grader (warm: one grading first, then three timed ones per exercise) on every
# exercise's reference solution, and a roster of 30 submissions of m1/buffer_reuse (10 honest,
# 10 stubs, 10 partly correct). Writes figures/exercises_grading_times.{csv,json}.
# Run from the repository root (no root needed: the grader's sandbox is bubblewrap), after
# `cargo build -p grader` and `target/debug/grader warm`.
set -euo pipefail
X=${CARGO_TARGET_DIR:-target}/debug/grader
# Whether the code measured is a commit's: asked before this script writes its own files.
dirty=false
[ -z "$(git status --porcelain --untracked-files=no)" ] || dirty=true
W=target/grading-times
rm -rf "$W"
mkdir -p "$W" figures
"$X" warm   # every exercise's dependencies, compiled once (minutes on a fresh machine)
csv=figures/exercises_grading_times.csv
echo "what,run,seconds,load_average" > "$csv"
now() { date +%s.%N; }
for dir in exercises/*/*/; do
  id=$(basename "$(dirname "$dir")")/$(basename "$dir")
  ex=${id//\//_}
  sub="$W/$ex"
  mkdir -p "$sub"
  cp -r "$dir/src" "$sub/"
  cp "$dir"/grading/solution/* "$sub/src/"
  "$X" grade --exercise "$id" --submission "$sub" --out "$W/out_$ex" > /dev/null
  for run in 1 2 3; do
    s=$(now); "$X" grade --exercise "$id" --submission "$sub" --out "$W/out_$ex" > /dev/null; e=$(now)
    echo "grade $id,$run,$(echo "$e - $s" | bc),$(cut -d' ' -f1 /proc/loadavg)" >> "$csv"
  done
done
E=exercises/m1/buffer_reuse
for i in $(seq -w 1 30); do
  d="$W/roster/student$i/exercises/m1/buffer_reuse/src"
  mkdir -p "$d"
  cp "$E"/src/* "$d/"
  case $((10#$i % 3)) in
    0) cp "$E"/grading/solution/* "$d/" ;;
    1) cp "$E"/grading/solution/* "$d/"
       sed -i 's/.min_by_key(|&(_, &a)| (plan.allocation_bytes\[a\], a))/.min_by_key(|\&(_, \&a)| a)/' "$d/plan.rs"
       grep -q 'min_by_key(|&(_, &a)| a)' "$d/plan.rs" ;;
  esac
done
s=$(now); "$X" grade --roster "$W/roster" --exercise m1/buffer_reuse --out "$W/roster_out" > /dev/null 2>&1; e=$(now)
echo "roster of 30 m1/buffer_reuse,1,$(echo "$e - $s" | bc),$(cut -d' ' -f1 /proc/loadavg)" >> "$csv"
cat > figures/exercises_grading_times.json <<JSON
{
  "figure": "exercises_grading_times",
  "description": "Seconds per grading of each exercise's reference solution (warm: one grading first, then three timed), and one roster of 30 m1/buffer_reuse submissions",
  "program": "exercises/measure_grading_times.sh",
  "command": "exercises/measure_grading_times.sh",
  "machine": "$(nproc) CPU cores, $(free -g | awk '/Mem:/ {print $2}') GiB, $(uname -sr)",
  "adapter": "GPU exercises on $(vulkaninfo --summary 2>/dev/null | awk -F'= ' '/deviceName/ {print $2; exit}')",
  "note": "load_average is the 1-minute load when each grading ended",
  "files": ["exercises_grading_times.csv"],
  "commit": "$(git rev-parse --short=12 HEAD)",
  "dirty": $dirty,
  "date": "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
}
JSON
cat "$csv"
